/** `/waybill attention` and the Home tab's Needs attention: the rules run now, mine first. */
import type { KnownBlock } from '@slack/types';
import { type Scope, sees } from '../../operations/access.js';
import { type AttentionItem, needsAttention } from '../../operations/attention.js';
import type { Core } from '../core.js';
import { scopeOf } from '../guards/person.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { attentionBlocks, attentionText } from './blocks.js';

/** The Home tab lists fewer lines per section than the command: the tab has its own lists below. */
const HOME_LINES = 5;

/** What needs attention now, by the settings' rules; `scope`: only what that viewer sees (the access rule). */
export async function itemsNow(
  deps: Pick<Core, 'store' | 'bot' | 'waybill' | 'now'>,
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

const attentionCommand: CommandAnswer<
  object,
  Pick<Core, 'access' | 'bot' | 'now' | 'store' | 'waybill'>
> = async (deps, { ack, client, command }) => {
  const items = await itemsNow(deps, await scopeOf(deps.access, client, command.user_id, command.team_id));
  await ack({
    response_type: 'ephemeral',
    text: attentionText(items, command.user_id),
    blocks: attentionBlocks(items, command.user_id, deps.now()),
  });
};

/** The section at the top of `userId`'s Home tab: what they see (`scope`). */
export async function attentionHomeBlocks(
  deps: Pick<Core, 'store' | 'bot' | 'waybill' | 'now'>,
  userId: string,
  scope: Scope,
): Promise<KnownBlock[]> {
  return attentionBlocks(await itemsNow(deps, scope), userId, deps.now(), HOME_LINES);
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
