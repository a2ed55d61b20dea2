/**
 * Updating once (callOnce), or settling an update of unknown outcome with what a person found out
 * from the courier: the stored record replaced, unless someone changed it since the update was made.
 */
import type { Logger } from 'pino';
import type { Store, UpdateRecordResult } from '../store/index.js';
import type { UpdateResult } from '../waybill/responses.js';
import type { Booking } from '../waybill/schemas.js';
import type { UpdateRequestWire } from '../waybill/wire-types.js';
import type { CourierAttempt } from './attempts.js';
import { type CallResult, callOnce, type OperationDeps } from './call-once.js';
import { settleUnknown, verdictAudit } from './resolve.js';

/** One changed field of the Update body: its wire key, and the values before and after. */
export interface FieldChange {
  key: string;
  /** The field as the form names it, for people ("Receiver phone" for `consigneeContact`). */
  field?: string;
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

/** The attempt's note of a success until the card and thread are told. */
const postingNote = 'The change is being posted.';

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
    succeeded: (): UpdateAttemptResult => ({ changes, note: postingNote }),
    detail: changes.map((c) => c.key).join(', '),
    record: (tx) =>
      tx.bookings.updateRecord(booking.trackingNumber, input.baseVersion, booking, userId, booking.pickupAt),
  });
}

/** What a person found out from the courier about an update of unknown outcome. */
export interface UpdateVerdict {
  /** The attempt of unknown outcome. */
  key: string;
  trackingNumber: string;
  /** Who answered. */
  decidedBy: string;
  /** The courier has it: the update as checked again on the stored record; absent: it does not. */
  updated?: Pick<UpdateToSend, 'booking' | 'baseVersion' | 'changes'> & { updatedBy: string };
}

/** What came of a verdict, tagged; `recorded.ok` says whether the stored record was replaced. */
export type SettledUpdate =
  | { state: 'updated'; note: string; recorded: UpdateRecordResult<Booking> }
  | { state: 'not updated' }
  /** Someone settled it first (on any replica): nothing recorded. */
  | { state: 'settled before' };

/**
 * Settles an update of unknown outcome once, whoever answers first: "the courier has it" replaces
 * the stored record (unless someone changed it meanwhile) with the attempt succeeded; "it does not"
 * settles the attempt as failed, and trying again sends it. Audited either way.
 */
export async function settleUpdate(
  deps: { store: Store; logger: Logger; activity: OperationDeps['activity'] },
  verdict: UpdateVerdict,
): Promise<SettledUpdate> {
  const { key, trackingNumber, decidedBy, updated } = verdict;
  const audit = (outcome: string, detail: string) => verdictAudit(decidedBy, trackingNumber, outcome, detail);
  if (!updated) {
    const message = `Not updated: <@${decidedBy}> checked with the courier, who does not have this update.`;
    const settled = await settleUnknown(deps, {
      key,
      state: 'failed',
      result: { message } satisfies UpdateAttemptResult,
      audit: audit('not updated', 'the courier does not have the update'),
    });
    return settled ? { state: 'not updated' } : { state: 'settled before' };
  }
  const { booking, changes } = updated;
  const settled = await settleUnknown(deps, {
    key,
    state: 'succeeded',
    result: { changes, note: postingNote } satisfies UpdateAttemptResult,
    audit: audit('updated', 'the courier has the update'),
    record: (tx) =>
      tx.bookings.updateRecord(
        trackingNumber,
        updated.baseVersion,
        booking,
        updated.updatedBy,
        booking.pickupAt,
      ),
  });
  if (!settled?.recorded) return { state: 'settled before' };
  deps.activity.changed(decidedBy);
  return { state: 'updated', note: postingNote, recorded: settled.recorded };
}
