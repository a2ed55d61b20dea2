/** Recording a parcel's status: the choice checked, stored in order, audited. No courier call. */
import type { StatusEntry, Store } from '../store/index.js';
import {
  type FailureReason,
  isFailureReason,
  isParcelStatus,
  type ParcelStatus,
  STATUS_NOTE_MAX,
  statusLabel,
} from '../waybill/statuses.js';
import { recordDone } from './audit.js';
import type { OperationDeps } from './call-once.js';
import { queueStatusSms } from './sms.js';

export interface StatusChoice {
  status: ParcelStatus;
  reason?: FailureReason;
  note?: string;
}

/** A status, a reason and a note as chosen or typed: the choice, or what is wrong, by field. */
export function checkStatus(input: {
  status?: string;
  reason?: string;
  note?: string;
}):
  | { ok: true; value: StatusChoice }
  | { ok: false; errors: Partial<Record<'status' | 'reason' | 'note', string>> } {
  const note = input.note?.trim() || undefined;
  if (!input.status || !isParcelStatus(input.status))
    return { ok: false, errors: { status: 'Choose what happened to the parcel.' } };
  const status = input.status;
  if (note && note.length > STATUS_NOTE_MAX)
    return { ok: false, errors: { note: `Keep the note to ${STATUS_NOTE_MAX} characters.` } };
  if (status !== 'failed_attempt' && input.reason)
    return { ok: false, errors: { reason: 'A reason goes with a failed attempt only.' } };
  if (status === 'failed_attempt') {
    if (!input.reason || !isFailureReason(input.reason))
      return { ok: false, errors: { reason: 'Say why the attempt failed.' } };
    if (input.reason === 'other' && !note)
      return { ok: false, errors: { note: 'Say what happened: the reason is Other.' } };
    return { ok: true, value: { status, reason: input.reason, ...(note ? { note } : {}) } };
  }
  if (status === 'cancelled' && !note) {
    return {
      ok: false,
      errors: {
        note: 'Say how it was cancelled with the courier (phone, portal): the bot cannot cancel it.',
      },
    };
  }
  return { ok: true, value: { status, ...(note ? { note } : {}) } };
}

/** What came of recording: the new entry, or the status the booking has already (nothing written). */
export type RecordedStatus =
  | { recorded: true; entry: StatusEntry }
  | { recorded: false; current: StatusEntry };

/**
 * Records a status for a booking the caller found and may update. A status it already has writes
 * nothing; a new one queues the receiver's SMS it calls for in the same transaction, is audited and
 * tells the Home tab of whoever recorded it.
 */
export async function recordParcelStatus(
  deps: { store: Store; activity: OperationDeps['activity'] },
  input: { userId: string; trackingNumber: string; choice: StatusChoice; at?: Date },
): Promise<RecordedStatus> {
  const { userId, trackingNumber, choice } = input;
  const result = await deps.store.transaction(async (tx) => {
    const recorded = await tx.statuses.record({
      trackingNumber,
      userId,
      ...choice,
      ...(input.at ? { at: input.at } : {}),
    });
    if (recorded.recorded) await queueStatusSms(tx, recorded.entry);
    return recorded;
  });
  if (!result.recorded) return result;
  await recordDone(deps.store, {
    userId,
    operation: 'status',
    trackingNumber,
    detail: `recorded ${statusLabel(choice.status, choice.reason)}${choice.note ? `: ${choice.note}` : ''}`,
  });
  deps.activity.changed(userId);
  return result;
}
