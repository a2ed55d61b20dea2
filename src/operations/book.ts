/** Booking once: callOnce with the booking stored, its parties saved in the address book, and what else the caller keeps. */
import { DuplicateTrackingNumberError, type ReceiverCheck, type StoreTables } from '../store/index.js';
import type { BookingResult } from '../waybill/responses.js';
import type { Booking } from '../waybill/schemas.js';
import type { BookingRequestWire } from '../waybill/wire-types.js';
import type { CourierAttempt } from './attempts.js';
import { type CallResult, callOnce, type OperationDeps } from './call-once.js';
import { keepCheck } from './receiver-record.js';

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
  /** Told once, with the courier's answer, when the database keeps the bookkeeping waiting. */
  waiting?: (result: BookingResult) => Promise<unknown>;
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
    record: async (tx, result, bookedAt) => {
      await tx.bookings.insert({
        trackingNumber,
        trackingRefNo: result.trackingRefNo,
        record: booking,
        channelId: input.channelId,
        bookedBy: input.userId,
        bookedAt,
        pickupAt: booking.pickupAt,
      });
      if (input.receiver) await keepCheck(tx, trackingNumber, input.userId, input.receiver);
      const recorded = await also(tx, result);
      // The address book: its parties, saved (or used again) with the booking. Last, just before the
      // commit: a party every booking of a file shares (its sender) is locked for as short a time as can be.
      await tx.parties.save([booking.consignee, booking.shipper, booking.returnTo]);
      return recorded;
    },
    instead: (err) => {
      // Reserved numbers make this all but impossible; the booking exists, so the rest is kept.
      if (!(err instanceof DuplicateTrackingNumberError)) return undefined;
      deps.logger.error({ err, trackingNumber }, 'booked, but a booking with this number was stored already');
      return also;
    },
    waiting: input.waiting,
  });
}
