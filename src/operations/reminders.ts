/**
 * Reminders of what needs attention: decided (who is sent what now, when quiet hours end, what is
 * escalated, a snooze's end), then each DM and escalation sent once across replicas (post-once.ts),
 * posted through the caller's port.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { channelId, DURATION_UNITS_MS, duration, envSettings, optionalSetting } from '../settings/env.js';
import type { ReminderRow, Store } from '../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../waybill/dates.js';
import type { AttentionItem } from './attention.js';
import { type OnceClaim, type PostOnceResult, postOnce } from './post-once.js';

export interface ReminderSettings {
  /** HH:MM to HH:MM in WAYBILL_TIMEZONE (across midnight when `from` is later); undefined: none, weekends too. */
  quietHours?: { from: string; to: string };
  /** At most one DM per person this often, in milliseconds (0: no limit). */
  batchEveryMs: number;
  /** An item still open this long after its reminder is escalated; 0: never. */
  escalateAfterMs: number;
  /** Where escalations go; undefined: none. */
  channelId?: string;
}

/** An item's claim row, found by this. */
export const reminderId = (item: { rule: string; key: string }): string => `${item.rule} ${item.key}`;

const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());

/**
 * The first instant at or after `at` outside quiet hours: a time inside them waits for their end, and
 * Saturday and Sunday are quiet all day (Monday's quiet hours end first). Without quiet hours: `at`.
 */
export function sendableAt(at: Date, quietHours: ReminderSettings['quietHours'], timeZone: string): Date {
  if (!quietHours) return at;
  const { from, to } = quietHours;
  let instant = at;
  // Each step moves to the end of a quiet stretch or to a new day: a week is more than enough.
  for (let step = 0; step < 16; step += 1) {
    const { date, time } = zonedDateAndTime(instant, timeZone);
    const acrossMidnight = from > to;
    const quiet = acrossMidnight ? time >= from || time < to : time >= from && time < to;
    if (isWeekend(date)) {
      instant = instantFromZonedDateTime(zonedDateAfter(instant, 1, timeZone), '00:00', timeZone);
    } else if (!quiet) {
      return instant;
    } else {
      const endDay = time < to ? date : zonedDateAfter(instant, 1, timeZone);
      instant = instantFromZonedDateTime(endDay, to, timeZone);
    }
  }
  return instant;
}

/** What a turn decides: the items each person gets in one DM now, and the items to escalate. */
export interface ReminderPlan {
  /** By owner: the items of their one DM, each with its claim row as read (to claim it unchanged). */
  send: Map<string, { item: AttentionItem; row: ReminderRow | undefined }[]>;
  escalate: { item: AttentionItem; row: ReminderRow }[];
}

/**
 * A claim left this long by a live replica failed half-way (its DM posted, say, and the database away
 * when it was to be recorded, and again when it was to be given back): another turn looks for its DM.
 */
export const CLAIM_STALE_MS = 10 * 60_000;

/**
 * Whether the item waits for a reminder, and from when: never reminded in this episode (the rule's
 * `since` moved on) or never its owner now (handed over since: the clock starts again for them),
 * claimed by a replica that is gone (or stuck) before it recorded the DM, or snoozed till now.
 */
function remindFrom(item: AttentionItem, row: ReminderRow | undefined, now: Date): Date | undefined {
  if (!row || row.since.getTime() < item.since.getTime() || row.ownerId !== item.ownerId) return item.dueAt;
  const claimHeld =
    row.claimedBy && !row.claimGone && row.claimedAt.getTime() + CLAIM_STALE_MS > now.getTime();
  if (claimHeld) return undefined;
  if (!row.sentAt) return item.dueAt;
  if (row.snoozedUntil) return row.snoozedUntil;
  return undefined;
}

/** An escalation claimed and never recorded posted, its replica gone or stuck: another turn looks for it. */
function escalationLost(row: ReminderRow, now: Date): boolean {
  const { escalationBy, escalationGone, escalatedAt } = row;
  return (
    escalationBy !== undefined &&
    (escalationGone || (escalatedAt?.getTime() ?? 0) + CLAIM_STALE_MS <= now.getTime())
  );
}

/** A failed attempt that was the courier's last: its reminder does not wait for the batch, and it escalates once reminded. */
const lastAttempt = (item: AttentionItem) => item.attemptsLeft === 0;

/**
 * The turn's decisions at `now`. Only the items the rules return now are looked at, so one fixed
 * meanwhile sends nothing. A person's items wait together for quiet hours to end and for
 * `batchEveryMs` after their last DM, then go in one DM; a last attempt does not wait for the batch,
 * and is escalated at the first turn after its reminder.
 */
export function planReminders(input: {
  items: readonly AttentionItem[];
  rows: ReadonlyMap<string, ReminderRow>;
  /** When each person was last sent (or claimed for) a reminder. */
  lastDmAt: ReadonlyMap<string, Date>;
  now: Date;
  settings: ReminderSettings;
  timeZone: string;
}): ReminderPlan {
  const { items, rows, lastDmAt, now, settings, timeZone } = input;
  const send: ReminderPlan['send'] = new Map();
  const escalate: ReminderPlan['escalate'] = [];
  const due = (at: Date) => sendableAt(at, settings.quietHours, timeZone).getTime() <= now.getTime();
  for (const item of items) {
    const row = rows.get(reminderId(item));
    const from = remindFrom(item, row, now);
    if (from) {
      if (!due(from)) continue;
      const last = lastDmAt.get(item.ownerId);
      if (last && last.getTime() + settings.batchEveryMs > now.getTime() && !lastAttempt(item)) continue;
      send.set(item.ownerId, [...(send.get(item.ownerId) ?? []), { item, row }]);
    } else if (
      row?.sentAt &&
      (!row.escalatedAt || escalationLost(row, now)) &&
      !row.snoozedUntil &&
      settings.channelId &&
      settings.escalateAfterMs > 0 &&
      due(new Date(row.sentAt.getTime() + (lastAttempt(item) ? 0 : settings.escalateAfterMs)))
    ) {
      escalate.push({ item, row });
    }
  }
  return { send, escalate };
}

export type SnoozeChoice = 'hour' | 'tomorrow' | 'days';

export const SNOOZE_CHOICES: Record<SnoozeChoice, string> = {
  hour: '1 hour',
  tomorrow: 'Tomorrow 9:00',
  days: '3 days',
};

/** When a snooze chosen at `now` ends: an hour, tomorrow at 9:00 in the time zone, or three days. */
export function snoozeEnd(choice: SnoozeChoice, now: Date, timeZone: string): Date {
  if (choice === 'hour') return new Date(now.getTime() + 3_600_000);
  if (choice === 'days') return new Date(now.getTime() + 3 * 86_400_000);
  return instantFromZonedDateTime(zonedDateAfter(now, 1, timeZone), '09:00', timeZone);
}

/** Puts off `item`'s reminder until `until`; false when it was never sent. */
export function snoozeReminder(
  store: Pick<Store, 'reminders'>,
  item: { rule: string; key: string },
  until: Date,
): Promise<boolean> {
  return store.reminders.snooze(item, until);
}

/** How long a claim row outlives its item's last reminder, escalation or snooze once the item is no longer open. */
const CLOSED_KEPT_MS = 30 * 24 * 3_600_000;

/** Deletes the claim rows of items not `open`, kept CLOSED_KEPT_MS: the table holds open items and a month's past. How many. */
export function purgeClosedReminders(
  store: Pick<Store, 'reminders'>,
  open: readonly { rule: string; key: string }[],
  now: Date,
): Promise<number> {
  return store.reminders.purgeClosed(open, new Date(now.getTime() - CLOSED_KEPT_MS));
}

/** Where a DM or an escalation went. */
export interface PostedIn {
  channel: string;
  ts: string;
}

/** A reminder DM to redraw: where it is, whose it is, and every item it reminded (their rows). */
export interface SettledDm extends PostedIn {
  ownerId: string;
  rows: ReminderRow[];
}

/**
 * The DMs with an item settled since they were sent (no longer among `open` as their owner's: a
 * status recorded, a reassignment, a resolve, a remittance), each settled item marked once across replicas, so each DM
 * is redrawn once per item settled.
 */
export async function settledDms(
  store: Pick<Store, 'reminders'>,
  open: readonly { rule: string; key: string; ownerId: string }[],
): Promise<SettledDm[]> {
  const dms = new Map<string, PostedIn & { ownerId: string }>();
  for (const { dmChannel, dmTs, ownerId } of await store.reminders.settle(open)) {
    if (dmChannel && dmTs) dms.set(`${dmChannel} ${dmTs}`, { channel: dmChannel, ts: dmTs, ownerId });
  }
  return Promise.all([...dms.values()].map(async (dm) => ({ ...dm, rows: await store.reminders.ofDm(dm) })));
}

/** How a reminder goes out (Slack): the port. */
export interface ReminderPort {
  /** The DM's conversation with `ownerId`. */
  open(ownerId: string): Promise<string>;
  /** Which of these earlier claims' posts are in `channel` already (a replica stopped after posting), with their ts. */
  postedEarlier(channel: string, batches: ReadonlySet<string>): Promise<Map<string, string>>;
  /** Posts the items in one message naming its claim `batch`; its ts. */
  post(channel: string, batch: string, items: AttentionItem[]): Promise<string>;
  /** Whether the failure says this person can never be sent a DM (a bot, gone, another organisation's). */
  unreachable(err: unknown): boolean;
}

type Entries = ReminderPlan['send'] extends Map<string, infer E> ? E : never;

/** One person's DM: what the plan chose, and when they were last claimed a DM for (as read). */
export interface ReminderDm {
  ownerId: string;
  entries: Entries;
  lastDmAt: Date | undefined;
}

/**
 * The claim of one DM's items, all or none (none when another replica claimed a DM for that person
 * since `lastDmAt`, or changed an item). A person who can never be sent a DM is recorded as reminded
 * (no DM): trying every turn would never reach them, and the item escalates as a delivered one would.
 */
export function reminderBatch(
  store: Pick<Store, 'reminders'>,
  { ownerId, entries, lastDmAt }: ReminderDm,
  unreachable: (err: unknown) => boolean,
): OnceClaim<string, { items: AttentionItem[]; dm: PostedIn }> {
  return {
    claim: () =>
      store.reminders.claim({
        ownerId,
        lastDmAt,
        items: entries.map(({ item, row }) => ({
          rule: item.rule,
          key: item.key,
          since: item.since,
          version: row?.version ?? 0,
        })),
      }),
    release: (batch) => store.reminders.release(batch),
    sent: async (batch, { items, dm }) => {
      if (items.length > 0) await store.reminders.sent(batch, items, dm);
    },
    final: async (batch, err) => {
      if (!unreachable(err)) return false;
      const items = entries.map(({ item }) => item);
      await store.reminders.sent(batch, items, { channel: '', ts: '' });
      return true;
    },
  };
}

/**
 * Claims `dm`'s items, then posts them through `port`, except those an earlier claim's DM is found
 * to hold (its replica stopped after Slack took it): those are recorded with that DM.
 */
export function remindOnce(
  store: Pick<Store, 'reminders'>,
  dm: ReminderDm,
  port: ReminderPort,
): Promise<PostOnceResult<{ items: AttentionItem[]; dm: PostedIn }>> {
  return postOnce(reminderBatch(store, dm, port.unreachable), async (batch) => {
    const channel = await port.open(dm.ownerId);
    // Claimed before and never recorded sent: that replica stopped, or its post failed, perhaps after Slack took it.
    const earlier = new Set(dm.entries.flatMap(({ row }) => (row && !row.sentAt ? [row.batch] : [])));
    const posted = earlier.size > 0 ? await port.postedEarlier(channel, earlier) : new Map<string, string>();
    const found = dm.entries.filter(({ row }) => row && posted.has(row.batch));
    for (const [earlierBatch, ts] of posted) {
      const items = found.filter(({ row }) => row?.batch === earlierBatch).map(({ item }) => item);
      await store.reminders.sent(batch, items, { channel, ts });
    }
    const items = dm.entries.filter((entry) => !found.includes(entry)).map(({ item }) => item);
    const ts = items.length > 0 ? await port.post(channel, batch, items) : '';
    return { items, dm: { channel, ts } };
  });
}

/**
 * The claim of escalating these items together: each claimed as it was read (those another replica
 * took meanwhile left out), none claimed: taken. Given back item by item when the post fails.
 */
export function escalationBatch(
  store: Pick<Store, 'reminders'>,
  entries: ReminderPlan['escalate'],
): OnceClaim<{ batch: string; claimed: ReminderPlan['escalate'] }, unknown> {
  return {
    claim: async () => {
      const batch = randomUUID();
      const claimed: ReminderPlan['escalate'] = [];
      for (const entry of entries) {
        const { item, row } = entry;
        if (await store.reminders.claimEscalation({ ...item, version: row.version }, batch))
          claimed.push(entry);
      }
      return claimed.length > 0 ? { batch, claimed } : undefined;
    },
    release: async ({ claimed }) => {
      for (const { item } of claimed) await store.reminders.releaseEscalation(item).catch(() => undefined);
    },
    sent: ({ batch }) => store.reminders.escalated(batch),
  };
}

/**
 * Escalates the items still open after their reminder to `channel`, once: an earlier claim's
 * escalation found posted (its replica gone after Slack took it) is not posted again.
 */
export function escalateOnce(
  store: Pick<Store, 'reminders'>,
  channel: string,
  entries: ReminderPlan['escalate'],
  port: Pick<ReminderPort, 'postedEarlier' | 'post'>,
): Promise<PostOnceResult<unknown>> {
  return postOnce(escalationBatch(store, entries), async ({ batch, claimed }) => {
    const earlier = new Set(claimed.flatMap(({ row }) => row.escalationBatch ?? []));
    const posted = earlier.size > 0 ? await port.postedEarlier(channel, earlier) : new Map<string, string>();
    const rest = claimed.filter(({ row }) => !(row.escalationBatch && posted.has(row.escalationBatch)));
    if (rest.length > 0)
      await port.post(
        channel,
        batch,
        rest.map(({ item }) => item),
      );
  });
}

/** Quiet hours written `20:00-08:00` (across midnight when the first is later), or `off`: null when off (unset is the default). */
const quietHours = z
  .string()
  .trim()
  .regex(
    /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/,
    'HH:MM-HH:MM such as 20:00-08:00 (in WAYBILL_TIMEZONE), or off',
  )
  .refine((text) => text.slice(0, 5) !== text.slice(6), 'two different times, such as 20:00-08:00, or off')
  .transform((text) => (text === 'off' ? null : { from: text.slice(0, 5), to: text.slice(6) }));

/** ATTENTION_QUIET_HOURS, ATTENTION_BATCH_EVERY, ATTENTION_ESCALATE_AFTER and ATTENTION_CHANNEL_ID. */
export const remindersEnv = envSettings(
  z.object({
    ATTENTION_QUIET_HOURS: optionalSetting(quietHours).default({ from: '20:00', to: '08:00' }),
    ATTENTION_BATCH_EVERY: optionalSetting(duration).default(15 * DURATION_UNITS_MS.m),
    ATTENTION_ESCALATE_AFTER: optionalSetting(duration).default(24 * DURATION_UNITS_MS.h),
    ATTENTION_CHANNEL_ID: optionalSetting(channelId()),
  }),
  (settings): { reminders: ReminderSettings } => ({
    reminders: {
      ...(settings.ATTENTION_QUIET_HOURS ? { quietHours: settings.ATTENTION_QUIET_HOURS } : {}),
      batchEveryMs: settings.ATTENTION_BATCH_EVERY,
      escalateAfterMs: settings.ATTENTION_ESCALATE_AFTER,
      ...(settings.ATTENTION_CHANNEL_ID ? { channelId: settings.ATTENTION_CHANNEL_ID } : {}),
    },
  }),
);
