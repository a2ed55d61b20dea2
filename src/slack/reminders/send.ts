/**
 * A reminders turn: what needs attention now, planned (operations/reminders.ts), each person's DM
 * and each escalation to ATTENTION_CHANNEL_ID claimed in the database before it is posted and
 * recorded after, so it goes out once whatever the replicas.
 */
import { randomUUID } from 'node:crypto';
import type { AttentionItem } from '../../operations/attention.js';
import { planReminders, type ReminderPlan, reminderId } from '../../operations/reminders.js';
import { attentionNow } from '../attention/index.js';
import type { Core } from '../core.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import { escalationMessage, ITEMS_SHOWN, reminderMessage } from './blocks.js';
import { callsFor } from './calls.js';

/** The DM's metadata names its claim, so a replica taking over finds whether it went out. */
export const REMINDER_EVENT = 'attention_reminder';

/** The escalation's metadata names its claim too. */
export const ESCALATION_EVENT = 'attention_escalation';

/** How far back in a DM (or the attention channel) a replica taking over looks for the post of a claim it takes over. */
const HISTORY_LOOKED_AT = 100;

type Reminding = Pick<Core, 'store' | 'bot' | 'waybill' | 'now' | 'logger' | 'access'>;

/** One turn: every DM and escalation due now. */
export async function remindersTurn(deps: Reminding, client: SlackClient): Promise<void> {
  // An unknown call made by nobody named (a workflow's) has no one to remind.
  const items = (await attentionNow(deps)).filter((item) => item.ownerId);
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

/** How long a claim row outlives its item's last reminder, escalation or snooze once the item is no longer open. */
const CLOSED_KEPT_MS = 30 * 24 * 3_600_000;

/** Deletes the claim rows of items no longer open, kept CLOSED_KEPT_MS: the table holds open items and a month's past. */
export async function purgeClosed(deps: Reminding): Promise<void> {
  const open = await attentionNow(deps);
  const purged = await deps.store.reminders.purgeClosed(
    open,
    new Date(deps.now().getTime() - CLOSED_KEPT_MS),
  );
  if (purged > 0) deps.logger.debug({ purged }, 'reminders of items no longer open deleted');
}

type Entries = ReminderPlan['send'] extends Map<string, infer E> ? E : never;

/** Claims `entries` for one DM to `ownerId`, then posts it, unless an earlier claim's DM is found posted. */
async function remind(
  deps: Reminding,
  client: SlackClient,
  { ownerId, entries, lastDmAt }: { ownerId: string; entries: Entries; lastDmAt: Date | undefined },
): Promise<void> {
  const batch = await deps.store.reminders.claim({
    ownerId,
    lastDmAt,
    items: entries.map(({ item, row }) => ({
      rule: item.rule,
      key: item.key,
      since: item.since,
      version: row?.version ?? 0,
    })),
  });
  if (!batch) return;
  try {
    const opened = await client.conversations.open({ users: ownerId });
    const channel = opened.channel?.id ?? ownerId;
    // Claimed before and never recorded sent: that replica stopped, or its post failed, perhaps after Slack took it.
    const earlier = new Set(entries.flatMap(({ row }) => (row && !row.sentAt ? [row.batch] : [])));
    const posted =
      earlier.size > 0
        ? await postedBatches(client, channel, REMINDER_EVENT, earlier)
        : new Map<string, string>();
    const found = entries.filter(({ row }) => row && posted.has(row.batch));
    for (const [earlierBatch, ts] of posted) {
      const items = found.filter(({ row }) => row?.batch === earlierBatch).map(({ item }) => item);
      await deps.store.reminders.sent(batch, items, { channel, ts });
    }
    const rest = entries.filter((entry) => !found.includes(entry)).map(({ item }) => item);
    if (rest.length === 0) return;
    const [first] = rest as [AttentionItem];
    // Only the items the DM lists with their details are read.
    const calls = await callsFor(deps, client, ownerId, rest.slice(0, ITEMS_SHOWN));
    const message = await client.chat.postMessage({
      channel,
      ...reminderMessage(rest, deps.now(), calls),
      metadata: {
        event_type: REMINDER_EVENT,
        event_payload: { batch, rule: first.rule, key: first.key, count: rest.length },
      },
    });
    await deps.store.reminders.sent(batch, rest, { channel, ts: message.ts ?? '' });
    deps.logger.info({ user: ownerId, items: rest.length }, 'reminder sent');
  } catch (err) {
    const code = slackErrorCode(err);
    if (code && NO_DM.has(code)) {
      // Trying again every turn would never reach them: recorded as reminded (no DM), so the item
      // escalates when a delivered reminder's would.
      await deps.store.reminders.sent(
        batch,
        entries.map(({ item }) => item),
        { channel: '', ts: '' },
      );
      deps.logger.warn({ user: ownerId, error: code }, 'a reminder cannot reach its owner: left to escalate');
      return;
    }
    await deps.store.reminders.release(batch).catch(() => undefined);
    throw err;
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

/**
 * Each item still open after its reminder claimed, then all posted together to the channel and
 * recorded; an earlier claim's escalation found posted (its replica gone after Slack took it) is not
 * posted again.
 */
async function escalate(
  deps: Reminding,
  client: SlackClient,
  entries: ReminderPlan['escalate'],
): Promise<void> {
  const { channelId } = deps.bot.reminders;
  if (!channelId) return;
  const batch = randomUUID();
  const claimed: ReminderPlan['escalate'] = [];
  for (const entry of entries) {
    const { item, row } = entry;
    if (await deps.store.reminders.claimEscalation({ ...item, version: row.version }, batch))
      claimed.push(entry);
  }
  if (claimed.length === 0) return;
  try {
    const earlier = new Set(claimed.flatMap(({ row }) => row.escalationBatch ?? []));
    const posted =
      earlier.size > 0
        ? await postedBatches(client, channelId, ESCALATION_EVENT, earlier)
        : new Map<string, string>();
    const rest = claimed.filter(({ row }) => !(row.escalationBatch && posted.has(row.escalationBatch)));
    if (rest.length > 0) {
      await client.chat.postMessage({
        channel: channelId,
        ...escalationMessage(
          rest.map(({ item }) => item),
          deps.now(),
        ),
        metadata: { event_type: ESCALATION_EVENT, event_payload: { batch, count: rest.length } },
      });
    }
    await deps.store.reminders.escalated(batch);
  } catch (err) {
    for (const { item } of claimed) await deps.store.reminders.releaseEscalation(item).catch(() => undefined);
    throw err;
  }
}
