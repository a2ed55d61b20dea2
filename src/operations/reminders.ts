/** Reminders of what needs attention, decided: who is sent what now, when quiet hours end, what is escalated, a snooze's end (pure). */
import type { ReminderRow } from '../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../waybill/dates.js';
import type { AttentionItem } from './attention.js';

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
