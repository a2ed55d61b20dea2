/** The one booking path after an attempt is begun: the courier call, then the booking, its parties, the attempt's outcome and the audit entry in one transaction. */
import { DuplicateTrackingNumberError, type StoreTables, StoreUnavailableError } from '../../store/index.js';
import { isWaybillApiError } from '../../waybill/errors.js';
import type { BookingResult } from '../../waybill/responses.js';
import type { Booking } from '../../waybill/schemas.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import type { BotDeps } from '../deps.js';
import { storeOutcome } from './attempts.js';

/** What an attempt to book records, so a replayed confirmation is answered with the first outcome. */
export type BookingAttemptResult = { trackingRefNo: string; postedNote: string } | { message: string };

export type SentBooking<T> =
  | { state: 'succeeded'; result: BookingResult; bookedAt: Date; recorded: T }
  /** Nothing booked. */
  | { state: 'failed'; message: string }
  /** Maybe booked: never sent again by itself. */
  | { state: 'unknown'; message: string }
  /** Booked at the courier, but the database stayed out of reach: the booking is not stored. */
  | { state: 'unrecorded'; result: BookingResult; bookedAt: Date };

export interface BookingToSend<T> {
  /** The attempt begun for it (beginAttempt). */
  key: string;
  request: BookingRequestWire;
  booking: Booking;
  userId: string;
  channelId: string;
  /** The attempt's note until the caller has posted the booking somewhere. */
  postedNote: string;
  /** More bookkeeping in the same transaction (a booking form's draft marked booked). */
  alsoRecord?: (tx: StoreTables) => Promise<T>;
  /** Told once, with the courier's answer, when the database keeps the bookkeeping waiting. */
  waiting?: (result: BookingResult) => Promise<unknown>;
}

/**
 * Sends the booking once and records what came of it: a refusal or an unknown outcome on the
 * attempt and in the audit trail; a success as the stored booking, its parties in the address
 * book, the attempt and the audit entry together. The courier has acted by then, so a database that does not answer is waited for
 * (storeOutcome) rather than the outcome lost. A booking form and a file's rows both book this way.
 */
export async function sendBooking<T = undefined>(
  deps: BotDeps,
  input: BookingToSend<T>,
): Promise<SentBooking<T | undefined>> {
  const { key, request, booking } = input;
  const { trackingNumber } = booking;
  const who = { userId: input.userId, trackingNumber, operation: 'book' };
  let result: BookingResult;
  try {
    result = await deps.courier.book(request);
  } catch (err) {
    const message = isWaybillApiError(err) ? err.userMessage() : `Booking outcome unknown: ${String(err)}`;
    const state: 'failed' | 'unknown' =
      isWaybillApiError(err) && err.outcome === 'not-done' ? 'failed' : 'unknown';
    await storeOutcome(deps, async (tx) => {
      await tx.attempts.finish<BookingAttemptResult>(key, state, { message });
      await tx.audit.record({ ...who, outcome: state, request, detail: message });
    }).catch((storeErr: unknown) => {
      deps.logger.error({ err: storeErr, trackingNumber, state }, 'a booking outcome could not be recorded');
    });
    return { state, message };
  }
  const bookedAt = deps.now();
  const record = async (tx: StoreTables, withBooking: boolean) => {
    if (withBooking) {
      await tx.bookings.insert({
        trackingNumber,
        trackingRefNo: result.trackingRefNo,
        record: booking,
        channelId: input.channelId,
        bookedBy: input.userId,
        bookedAt,
      });
      // The address book: its parties, saved (or used again) with the booking.
      await tx.parties.save([booking.consignee, booking.shipper, booking.returnTo]);
    }
    await tx.attempts.finish<BookingAttemptResult>(key, 'succeeded', {
      trackingRefNo: result.trackingRefNo,
      postedNote: input.postedNote,
    });
    await tx.audit.record({ ...who, outcome: 'ok', request, response: result });
    return input.alsoRecord?.(tx);
  };
  try {
    const { waiting } = input;
    const told = waiting && (() => waiting(result));
    const recorded = await storeOutcome(deps, (tx) => record(tx, true), { waiting: told }).catch(
      (err: unknown) => {
        // Reserved numbers make this all but impossible; the booking exists, so the rest is kept.
        if (!(err instanceof DuplicateTrackingNumberError)) throw err;
        deps.logger.error(
          { err, trackingNumber },
          'booked, but a booking with this number was stored already',
        );
        return storeOutcome(deps, (tx) => record(tx, false));
      },
    );
    deps.activity.changed(input.userId);
    return { state: 'succeeded', result, bookedAt, recorded };
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    deps.logger.error({ err, trackingNumber }, 'booked at the courier, but it could not be recorded');
    return { state: 'unrecorded', result, bookedAt };
  }
}
