/** `/waybill attention` and the Home tab's Needs attention: the rules run now, mine first. */

import type { KnownBlock } from '@slack/types';
import { type Person, type Scope, sees } from '../../operations/access.js';
import { type AttentionItem, needsAttention } from '../../operations/attention.js';
import { reminderId } from '../../operations/reminders.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { personOf } from '../guards/person.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { actedOn, attentionBlocks, attentionText, HOME_SHOWN, SHOWN, type Shown } from './blocks.js';
import { callsFor, type Viewer, viewerOf } from './calls.js';

type Listing = Pick<Core, 'access' | 'bot' | 'now' | 'waybill'> & {
  store: Pick<Store, 'attempts' | 'attention' | 'bookings' | 'reminders' | 'statuses'>;
};

/** The list's blocks for `userId`: what `viewer` sees, the first items with their call and buttons. */
async function listBlocks(deps: Listing, userId: string, viewer: Viewer, shown: Shown = SHOWN) {
  const items = await itemsNow(deps, viewer.scope);
  const acted = actedOn(items, userId, shown);
  const [calls, rows] = await Promise.all([
    callsFor(deps, viewer, acted),
    deps.store.reminders.of(acted.filter((item) => item.ownerId === userId)),
  ]);
  // A Snooze puts off a reminder sent (operations/reminders.ts): offered once there is one.
  const reminded = new Set(rows.filter((row) => row.sentAt).map(reminderId));
  return { items, blocks: attentionBlocks(items, userId, deps.now(), calls, { shown, reminded }) };
}

/** What needs attention now, by the settings' rules; `scope`: only what that viewer sees (the access rule). */
export async function itemsNow(
  deps: Pick<Core, 'bot' | 'waybill' | 'now'> & { store: Pick<Store, 'attempts' | 'attention'> },
  scope?: Scope,
): Promise<AttentionItem[]> {
  const items = await needsAttention(deps.store, {
    settings: deps.bot.attention,
    now: deps.now(),
    timeZone: deps.waybill.timeZone,
    codPaymentMethod: deps.waybill.catalog.codPaymentMethod,
  });
  return scope
    ? items.filter((item) => !item.channelId || sees(scope, { channelId: item.channelId }))
    : items;
}

const attentionCommand: CommandAnswer<object, Listing> = async (deps, { ack, client, command }) => {
  const person = await personOf(deps.access, client, command.user_id, command.team_id);
  const { items, blocks } = await listBlocks(deps, command.user_id, await viewerOf(deps, person));
  await ack({ response_type: 'ephemeral', text: attentionText(items, command.user_id), blocks });
};

/** The section at the top of `person`'s Home tab: what they see. */
export async function attentionHomeBlocks(deps: Listing, person: Person): Promise<KnownBlock[]> {
  return (await listBlocks(deps, person.userId, await viewerOf(deps, person), HOME_SHOWN)).blocks;
}

/** `/waybill attention`. */
export const attentionVerb = waybillVerb({
  verb: 'attention',
  usage:
    '`/waybill attention`: what needs doing now (failed attempts, parcels not picked up or stuck, unknown outcomes, COD not remitted), yours first, just for you',
  permission: 'show',
  parse: noWords,
  answer: attentionCommand,
});
