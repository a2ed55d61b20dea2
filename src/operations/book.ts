/**
 * Booking once (callOnce), or settling a booking of unknown outcome with what a person found out
 * from the courier: either way recorded as one booking (recordBooking), its parties saved in the
 * address book, with what else the caller keeps.
 */
import type { Logger } from 'pino';
import {
  type BookedVia,
  DuplicateTrackingNumberError,
  type ReceiverCheck,
  type Store,
  type StoreTables,
} from '../store/index.js';
import type { BookingResult } from '../waybill/responses.js';
import type { Booking } from '../waybill/schemas.js';
import type { BookingRequestWire } from '../waybill/wire-types.js';
import type { CourierAttempt } from './attempts.js';
import { type CallResult, callOnce, type OperationDeps } from './call-once.js';
import { keepCheck } from './receiver-record.js';
import { settleUnknown, verdictAudit } from './resolve.js';
import { queueBookedSms } from './sms.js';

/** What an attempt to book records, so a replayed confirmation is answered with the first outcome. */
export type BookingAttemptResult = { trackingRefNo: string; postedNote: string } | { message: string };

export interface BookingToSend<T> {
  /** Begun already (beginAttempt). */
  attempt: CourierAttempt;
  request: BookingRequestWire;
  booking: Booking;
  userId: string;
  channelId: string;
  /** The attempt's note until the caller has posted the booking somewhere. */
  postedNote: string;
  /** More bookkeeping in the same transaction (a booking form's draft marked booked, a file's row done), with the courier's answer. */
  alsoRecord?: (tx: StoreTables, result: BookingResult) => Promise<T>;
  /** The receiver's record it was checked against (receiver-record.ts), kept with it. */
  receiver?: ReceiverCheck;
  /** How it is booked when no person typed it, kept with it. */
  bookedVia?: BookedVia;
  /** Told once, with the courier's answer, when the database keeps the bookkeeping waiting. */
  waiting?: (result: BookingResult) => Promise<unknown>;
}

/** A booking the courier has, as it is stored. */
export interface BookedBooking {
  booking: Booking;
  trackingRefNo: string;
  channelId: string;
  bookedBy: string;
  bookedAt: Date;
  /** The receiver's record it was checked against, when it was. */
  receiver?: ReceiverCheck;
  bookedVia?: BookedVia;
}

/**
 * The booking stored, then the caller's bookkeeping (`also`), then its parties in the address book;
 * in the caller's transaction. Sending and Resolve both record a booking this way.
 */
export async function recordBooking<T>(
  tx: StoreTables,
  booked: BookedBooking,
  also: () => Promise<T>,
): Promise<T> {
  const { booking } = booked;
  await tx.bookings.insert({
    trackingNumber: booking.trackingNumber,
    trackingRefNo: booked.trackingRefNo,
    record: booking,
    channelId: booked.channelId,
    bookedBy: booked.bookedBy,
    bookedAt: booked.bookedAt,
    pickupAt: booking.pickupAt,
    ...(booked.bookedVia ? { bookedVia: booked.bookedVia } : {}),
  });
  if (booked.receiver) await keepCheck(tx, booking.trackingNumber, booked.bookedBy, booked.receiver);
  // The receiver's SMS, with the booking: neither is kept without the other.
  await queueBookedSms(tx, booking, booked.bookedAt);
  const recorded = await also();
  // Last, just before the commit: a party every booking of a file shares (its sender) is locked for
  // as short a time as can be.
  await tx.parties.save([booking.consignee, booking.shipper, booking.returnTo]);
  return recorded;
}

/**
 * Sends the booking once (callOnce); a success is stored as the booking, its parties in the
 * address book and the caller's bookkeeping, with the attempt and the audit entry. A booking form
 * and a file's rows both book this way.
 */
export function sendBooking<T = undefined>(
  deps: OperationDeps,
  input: BookingToSend<T>,
): Promise<CallResult<BookingResult, T | undefined>> {
  const { request, booking } = input;
  const { trackingNumber } = booking;
  const also = async (tx: StoreTables, result: BookingResult) => input.alsoRecord?.(tx, result);
  return callOnce(deps, {
    attempt: input.attempt,
    userId: input.userId,
    request,
    send: (courier) => courier.book(request),
    succeeded: (result): BookingAttemptResult => ({
      trackingRefNo: result.trackingRefNo,
      postedNote: input.postedNote,
    }),
    record: (tx, result, bookedAt) =>
      recordBooking(
        tx,
        {
          booking,
          trackingRefNo: result.trackingRefNo,
          channelId: input.channelId,
          bookedBy: input.userId,
          bookedAt,
          receiver: input.receiver,
          ...(input.bookedVia ? { bookedVia: input.bookedVia } : {}),
        },
        () => also(tx, result),
      ),
    instead: (err) => {
      // Reserved numbers make this all but impossible; the booking exists, so the rest is kept.
      if (!(err instanceof DuplicateTrackingNumberError)) return undefined;
      deps.logger.error({ err, trackingNumber }, 'booked, but a booking with this number was stored already');
      return also;
    },
    waiting: input.waiting,
  });
}

/** What a person found out from the courier about a booking of unknown outcome. */
export interface BookingVerdict<T> {
  /** The attempt of unknown outcome. */
  key: string;
  trackingNumber: string;
  /** Who answered. */
  decidedBy: string;
  /** The courier has it: the booking to store (its reference, if typed, with it); absent: it does not. */
  booked?: Omit<BookedBooking, 'bookedAt'> & {
    /** The attempt's note until the caller has posted the booking somewhere. */
    postedNote: string;
    /** More bookkeeping in the same transaction (a booking form's draft marked booked). */
    alsoRecord?: (tx: StoreTables) => Promise<T>;
  };
}

/** What came of a verdict, tagged. */
export type SettledBooking<T> =
  | { state: 'booked'; bookedAt: Date; recorded: T | undefined }
  | { state: 'not booked' }
  /** Someone settled it first (on any replica): nothing recorded. */
  | { state: 'settled before' };

/**
 * Settles a booking of unknown outcome once, whoever answers first: "the courier has it" records
 * the booking (recordBooking) with the attempt succeeded; "it does not" settles the attempt as
 * failed, which frees its claim. Audited either way.
 */
export async function settleBooking<T = undefined>(
  deps: { store: Store; logger: Logger; now: () => Date; activity: OperationDeps['activity'] },
  verdict: BookingVerdict<T>,
): Promise<SettledBooking<T>> {
  const { key, trackingNumber, decidedBy, booked } = verdict;
  const audit = (outcome: string, detail: string) => verdictAudit(decidedBy, trackingNumber, outcome, detail);
  if (!booked) {
    const settled = await settleUnknown(deps, {
      key,
      state: 'failed',
      result: {
        message: `Not booked: <@${decidedBy}> checked with the courier, who does not have it.`,
      } satisfies BookingAttemptResult,
      audit: audit('not booked', 'the courier does not have it'),
    });
    return settled ? { state: 'not booked' } : { state: 'settled before' };
  }
  const { trackingRefNo, postedNote, alsoRecord } = booked;
  const bookedAt = deps.now();
  const settled = await settleUnknown(deps, {
    key,
    state: 'succeeded',
    result: { trackingRefNo, postedNote } satisfies BookingAttemptResult,
    audit: audit('booked', `the courier has it${trackingRefNo ? ` (reference ${trackingRefNo})` : ''}`),
    record: (tx) => recordBooking(tx, { ...booked, bookedAt }, async () => alsoRecord?.(tx)),
  });
  if (!settled) return { state: 'settled before' };
  deps.activity.changed(decidedBy);
  return { state: 'booked', bookedAt, recorded: settled.recorded };
}
