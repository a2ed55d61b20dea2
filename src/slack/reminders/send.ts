/**
 * A reminders turn: what needs attention now, planned, each person's DM and each escalation to
 * ATTENTION_CHANNEL_ID sent once whatever the replicas (operations/reminders.ts); here, how Slack
 * posts them and finds an earlier claim's post.
 */

import type { AttentionItem } from '../../operations/attention.js';
import {
  escalateOnce,
  planReminders,
  purgeClosedReminders,
  type ReminderDm,
  type ReminderPlan,
  type ReminderPort,
  reminderId,
  remindOnce,
} from '../../operations/reminders.js';
import type { Store } from '../../store/index.js';
import { attentionNow, callsFor, viewerOf } from '../attention/index.js';
import type { Core } from '../core.js';
import { personOf } from '../guards/person.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import { escalationMessage, ITEMS_SHOWN, reminderMessage } from './blocks.js';
import { redrawSettled } from './settled.js';

/** The DM's metadata names its claim, so a replica taking over finds whether it went out. */
export const REMINDER_EVENT = 'attention_reminder';

/** The escalation's metadata names its claim too. */
export const ESCALATION_EVENT = 'attention_escalation';

/** How far back in a DM (or the attention channel) a replica taking over looks for the post of a claim it takes over. */
const HISTORY_LOOKED_AT = 100;

type Reminding = Pick<Core, 'bot' | 'waybill' | 'now' | 'logger' | 'access'> & {
  store: Pick<Store, 'attempts' | 'attention' | 'audit' | 'bookings' | 'reminders' | 'statuses'>;
};

/** One turn: every DM and escalation due now. */
export async function remindersTurn(deps: Reminding, client: SlackClient): Promise<void> {
  const open = await attentionNow(deps);
  // A DM whose item was settled since (no longer open) says so.
  await redrawSettled(deps, client, open);
  // An unknown call made by nobody named (a workflow's) has no one to remind.
  const items = open.filter((item) => item.ownerId);
  if (items.length === 0) return;
  // Both at once: on PostgreSQL each on its own pooled connection.
  const [reminded, lastDmAt] = await Promise.all([
    deps.store.reminders.of(items),
    deps.store.reminders.lastDmAt(items.map((item) => item.ownerId)),
  ]);
  const rows = new Map(reminded.map((row) => [reminderId(row), row]));
  const plan = planReminders({
    items,
    rows,
    lastDmAt,
    now: deps.now(),
    settings: deps.bot.reminders,
    timeZone: deps.waybill.timeZone,
  });
  for (const [ownerId, entries] of plan.send) {
    await remind(deps, client, { ownerId, entries, lastDmAt: lastDmAt.get(ownerId) }).catch((err: unknown) =>
      deps.logger.warn({ err, user: ownerId }, 'a reminder could not be sent; the next turn tries again'),
    );
  }
  if (plan.escalate.length > 0) await escalate(deps, client, plan.escalate);
}

/** Deletes the claim rows of items no longer open, after a while (operations/reminders.ts). */
export async function purgeClosed(deps: Reminding): Promise<void> {
  const purged = await purgeClosedReminders(deps.store, await attentionNow(deps), deps.now());
  if (purged > 0) deps.logger.debug({ purged }, 'reminders of items no longer open deleted');
}

/** Posting and finding reminders and escalations in Slack: the port of operations/reminders.ts. */
function slackPort(deps: Reminding, client: SlackClient, ownerId: string): ReminderPort {
  return {
    open: async (user) => (await client.conversations.open({ users: user })).channel?.id ?? user,
    postedEarlier: (channel, batches) => postedBatches(client, channel, REMINDER_EVENT, batches),
    post: async (channel, batch, items) => {
      const [first] = items as [AttentionItem];
      // Only the items the DM lists with their details are read.
      const viewer = await viewerOf(deps, await personOf(deps.access, client, ownerId));
      const calls = await callsFor(deps, viewer, items.slice(0, ITEMS_SHOWN));
      const message = await client.chat.postMessage({
        channel,
        ...reminderMessage(items, deps.now(), calls),
        metadata: {
          event_type: REMINDER_EVENT,
          event_payload: { batch, rule: first.rule, key: first.key, count: items.length },
        },
      });
      return message.ts ?? '';
    },
    unreachable: (err) => NO_DM.has(slackErrorCode(err) ?? ''),
  };
}

/** One DM to `dm.ownerId`, once (operations/reminders.ts), unless an earlier claim's DM is found posted. */
async function remind(deps: Reminding, client: SlackClient, dm: ReminderDm): Promise<void> {
  const done = await remindOnce(deps.store, dm, slackPort(deps, client, dm.ownerId));
  const user = dm.ownerId;
  if (done.state === 'given up') {
    const error = slackErrorCode(done.error);
    deps.logger.warn({ user, error }, 'a reminder cannot reach its owner: left to escalate');
  } else if (done.state === 'posted' && done.posted.items.length > 0) {
    deps.logger.info({ user, items: done.posted.items.length }, 'reminder sent');
  }
}

/** Slack's answers meaning this person can never be sent a DM by the bot (a bot, gone, another organisation's). */
const NO_DM = new Set([
  'cannot_dm_bot',
  'user_not_found',
  'users_not_found',
  'user_not_visible',
  'user_disabled',
  'account_inactive',
]);

/** Which of these claims' posts (`eventType`) are in the conversation already, with their ts. */
async function postedBatches(
  client: SlackClient,
  channel: string,
  eventType: string,
  batches: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const history = await client.conversations.history({
    channel,
    limit: HISTORY_LOOKED_AT,
    include_all_metadata: true,
  });
  const posted = new Map<string, string>();
  for (const message of history.messages ?? []) {
    const { metadata } = message;
    const batch = (metadata?.event_payload as Record<string, unknown> | undefined)?.batch;
    if (metadata?.event_type === eventType && typeof batch === 'string' && batches.has(batch)) {
      posted.set(batch, message.ts ?? '');
    }
  }
  return posted;
}

/** The items still open after their reminder, escalated together to the attention channel, once (operations/reminders.ts). */
async function escalate(
  deps: Reminding,
  client: SlackClient,
  entries: ReminderPlan['escalate'],
): Promise<void> {
  const { channelId } = deps.bot.reminders;
  if (!channelId) return;
  await escalateOnce(deps.store, channelId, entries, {
    postedEarlier: (channel, batches) => postedBatches(client, channel, ESCALATION_EVENT, batches),
    post: async (channel, batch, items) => {
      const message = await client.chat.postMessage({
        channel,
        ...escalationMessage(items, deps.now()),
        metadata: { event_type: ESCALATION_EVENT, event_payload: { batch, count: items.length } },
      });
      return message.ts ?? '';
    },
  });
}
