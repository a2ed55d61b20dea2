/** `/waybill status <tracking number> <status> [note]`, and the status history `/waybill show` adds to the card. */

import type { KnownBlock } from '@slack/types';
import { checkStatus } from '../../operations/status.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { type CommandAnswer, trackingNumberFirst, waybillVerb } from '../kit/command-request.js';
import type { SlackClient } from '../runtime/delivery.js';
import { historyBlocks } from './blocks.js';
import { recordAndTell, type StatusDeps } from './send.js';
import { readStatusWords, statusUsage } from './words.js';

/** Records the status typed; the answer for the person (the card and its thread are told after). */
const statusCommand: CommandAnswer<{ trackingNumber: string; words: string }, StatusDeps> = async (
  deps,
  { ack, client, command },
  request,
) => {
  await ack({ response_type: 'ephemeral', text: await recordTyped(deps, client, command.user_id, request) });
};

async function recordTyped(
  deps: StatusDeps,
  client: SlackClient,
  userId: string,
  request: { trackingNumber: string; words: string },
): Promise<string> {
  const read = readStatusWords(request.words);
  if ('ambiguous' in read) return `${read.ambiguous} ${statusUsage()}`;
  const checked = checkStatus(read);
  if (!checked.ok) {
    const problem = Object.values(checked.errors)[0] ?? '';
    return checked.errors.status ? statusUsage() : `${problem} ${statusUsage()}`;
  }
  return recordAndTell(deps, client, {
    userId,
    trackingNumber: request.trackingNumber,
    choice: checked.value,
  });
}

/** A booking's latest status and its history, for `/waybill show`. */
export async function statusOfBooking(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'statuses'> },
  trackingNumber: string,
) {
  const history = await deps.store.statuses.history(trackingNumber);
  const blocks: KnownBlock[] = historyBlocks(history, deps.waybill.timeZone);
  return { latest: history.at(-1), blocks };
}

/** `/waybill status`. */
export const statusVerb = waybillVerb({
  verb: 'status',
  usage:
    '`/waybill status <tracking number> <status> [note]`: record what happened to a parcel (delivered, failed attempt, …), recorded by you',
  example: '/waybill status WB000123 failed attempt receiver not home',
  // Recording a parcel's status changes what is known of a booking: the update permission.
  permission: 'update',
  parse: trackingNumberFirst,
  answer: statusCommand,
});
