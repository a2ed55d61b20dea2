/** The receiver's record in one line (booking review, card, file check) and the confirmation a flagged COD booking needs. */
import type { InputBlock, KnownBlock } from '@slack/types';
import { CONFIRMATION, type ReceiverRecord, recordWords } from '../../operations/receiver-record.js';
import type { ReceiverCheck } from '../../store/index.js';
import { context, plain } from '../kit/blocks.js';

/** The review's checkbox: its block, the field named when Confirm booking comes without it. */
export const RECEIVER_CONFIRM_BLOCK = 'receiver_confirm';
const CONFIRM_ACTION = 'receiver_confirm';
const CALLED = 'called';

/** Counts only, nothing typed: no escaping needed. */
function recordText(record: ReceiverRecord): string {
  const flag = record.flagged ? `\n:warning: *Flagged*: ${record.reasons.join('; ')}` : '';
  return `:bust_in_silhouette: *Receiver's record*: ${recordWords(record)}${flag}`;
}

/** On the review: the record's line (none without earlier parcels), and the checkbox when it must be confirmed. */
export function receiverReviewBlocks(record: ReceiverRecord | undefined, confirm: boolean): KnownBlock[] {
  if (!record) return [];
  const checkbox: InputBlock = {
    type: 'input',
    block_id: RECEIVER_CONFIRM_BLOCK,
    label: plain('Receiver called'),
    hint: plain('A cash-on-delivery parcel to a flagged receiver: call them before booking'),
    element: {
      type: 'checkboxes',
      action_id: CONFIRM_ACTION,
      options: [{ text: plain(CONFIRMATION), value: CALLED }],
    },
  };
  return [context(recordText(record)), ...(confirm ? [checkbox] : [])];
}

/** Whether the review's submission holds the checkbox ticked. */
export function receiverConfirmed(values: unknown): boolean {
  const state = values as
    | Record<string, Record<string, { selected_options?: { value?: string }[] }>>
    | undefined;
  return (state?.[RECEIVER_CONFIRM_BLOCK]?.[CONFIRM_ACTION]?.selected_options ?? []).some(
    (option) => option.value === CALLED,
  );
}

/** The refusal shown under the checkbox. */
export const receiverConfirmMissing = `Receiver called: tick “${CONFIRMATION}” to book cash on delivery to this receiver`;

/** On the card: the record the booking was checked against, and who confirmed a flagged one. */
export function receiverCardBlocks(check: ReceiverCheck | undefined): KnownBlock[] {
  if (!check) return [];
  const flag = check.flagged
    ? check.confirmedBy
      ? ` · :warning: flagged; <@${check.confirmedBy}>: “${CONFIRMATION}”`
      : ' · :warning: flagged'
    : '';
  return [context(`:bust_in_silhouette: Receiver's record when booked: ${recordWords(check)}${flag}`)];
}
