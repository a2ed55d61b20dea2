/** Updating once: callOnce with the stored record replaced, unless someone changed it since the update was made. */
import type { UpdateRecordResult } from '../store/index.js';
import type { UpdateResult } from '../waybill/responses.js';
import type { Booking } from '../waybill/schemas.js';
import type { UpdateRequestWire } from '../waybill/wire-types.js';
import type { CourierAttempt } from './attempts.js';
import { type CallResult, callOnce, type OperationDeps } from './call-once.js';

/** One changed field of the Update body: its wire key, and the values before and after. */
export interface FieldChange {
  key: string;
  from: string;
  to: string;
}

/** What an attempt to update records, so a replay is answered with the first outcome. */
export type UpdateAttemptResult = { changes: FieldChange[]; note: string } | { message: string };

export interface UpdateToSend {
  /** Begun already (beginAttempt). */
  attempt: CourierAttempt;
  request: UpdateRequestWire;
  /** The complete record sent, and the stored version it was made on. */
  booking: Booking;
  baseVersion: number;
  changes: FieldChange[];
  userId: string;
}

/**
 * Sends the complete record once (callOnce); a success replaces the stored record (only if nobody
 * changed it meanwhile: `recorded.ok` says), with the attempt and the audit entry naming what changed.
 */
export function sendUpdate(
  deps: OperationDeps,
  input: UpdateToSend,
): Promise<CallResult<UpdateResult, UpdateRecordResult<Booking>>> {
  const { request, booking, changes, userId } = input;
  return callOnce(deps, {
    attempt: input.attempt,
    userId,
    request,
    send: (courier) => courier.update(request),
    succeeded: (): UpdateAttemptResult => ({ changes, note: 'The change is being posted.' }),
    detail: changes.map((c) => c.key).join(', '),
    record: (tx) =>
      tx.bookings.updateRecord(booking.trackingNumber, input.baseVersion, booking, userId, booking.pickupAt),
  });
}
