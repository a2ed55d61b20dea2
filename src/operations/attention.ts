/** What needs attention now: each rule one query of the store, its items with their owner and the moment they fell due. */

import * as z from 'zod';
import { DURATION_UNITS_MS, duration, envSettings, optionalSetting, wholeNumber } from '../settings/env.js';
import type { AttentionRow, Store } from '../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter } from '../waybill/dates.js';
import { PAYING_OUTCOMES } from '../waybill/remittance.js';

/** After how long each rule raises an item, in milliseconds; 0: the rule is off (`ATTENTION_*` settings). */
export interface AttentionSettings {
  failedAfterMs: number;
  staleAfterMs: number;
  unknownAfterMs: number;
  codAfterMs: number;
  /** The courier's attempts at delivery before it returns the parcel (`COURIER_ATTEMPT_LIMIT`). */
  attemptLimit: number;
}

export type AttentionRule = 'failed' | 'stale' | 'pickup' | 'unknown' | 'cod';

/** The rules in the order a list shows them. */
export const ATTENTION_RULES: readonly AttentionRule[] = ['unknown', 'failed', 'pickup', 'stale', 'cod'];

export interface AttentionItem {
  rule: AttentionRule;
  /** What the item is about: a booking's tracking number, or an unknown outcome's attempt key. */
  key: string;
  /** The booking's tracking number, when there is one (an unknown booking's may not be known). */
  trackingNumber?: string;
  /** An unknown outcome's call: each is resolved its own way. */
  operation?: (typeof UNKNOWN_OPERATIONS)[number];
  ownerId: string;
  /** The conversation the booking, or the call, belongs to: who may see the item (the access rule). */
  channelId?: string;
  /** When what the rule counts from happened: the status recorded, the pickup time, the call made. */
  since: Date;
  /** When the rule raised it. */
  dueAt: Date;
  /** A failed attempt's: the courier's attempts still to come (0: the last one failed). */
  attemptsLeft?: number;
}

/** Courier calls whose outcome can be unknown, each settled by Resolve. */
const UNKNOWN_OPERATIONS = ['book', 'update'] as const;

export interface AttentionInput {
  settings: AttentionSettings;
  now: Date;
  timeZone: string;
  /** The payment method that is cash on delivery. */
  codPaymentMethod: string;
}

const fromRow =
  (rule: AttentionRule, afterMs: number) =>
  (row: AttentionRow): AttentionItem => ({
    rule,
    key: row.trackingNumber,
    trackingNumber: row.trackingNumber,
    ownerId: row.ownerId,
    channelId: row.channelId,
    since: row.since,
    dueAt: new Date(row.since.getTime() + afterMs),
  });

/**
 * The end of the day after a pickup's date, in the zone. Worked out once a day: the rows come oldest
 * first, hundreds on one day, and each zone lookup costs more than the rule's query per row.
 */
function dueAfterPickupDay(timeZone: string) {
  let day: { start: number; end: number; dueAt: number } | undefined;
  return (since: Date) => {
    const at = since.getTime();
    if (!day || at < day.start || at >= day.end) {
      const midnight = (days: number) =>
        instantFromZonedDateTime(zonedDateAfter(since, days, timeZone), '00:00', timeZone).getTime();
      day = { start: midnight(0), end: midnight(1), dueAt: midnight(2) };
    }
    return new Date(day.dueAt);
  };
}

/**
 * Every item that needs attention now, rule by rule (a rule set to 0 is skipped), oldest first within
 * each. The rules' queries run at once: on PostgreSQL each on its own pooled connection, so a turn
 * waits for the slowest rule instead of every rule in turn.
 */
export async function needsAttention(
  store: Pick<Store, 'attempts' | 'attention'>,
  input: AttentionInput,
): Promise<AttentionItem[]> {
  const { settings, now, timeZone } = input;
  const before = (afterMs: number) => new Date(now.getTime() - afterMs);

  const unknown = async (operation: (typeof UNKNOWN_OPERATIONS)[number]): Promise<AttentionItem[]> =>
    (await store.attempts.listUnknown(operation))
      .filter((attempt) => attempt.createdAt <= before(settings.unknownAfterMs))
      .map((attempt) => ({
        rule: 'unknown',
        key: attempt.key,
        operation,
        ...(attempt.trackingNumber ? { trackingNumber: attempt.trackingNumber } : {}),
        ownerId: attempt.userId ?? '',
        ...(attempt.channelId ? { channelId: attempt.channelId } : {}),
        since: attempt.createdAt,
        dueAt: new Date(attempt.createdAt.getTime() + settings.unknownAfterMs),
      }));
  const statusRule = async (
    rule: AttentionRule,
    afterMs: number,
    query: Omit<Parameters<Store['attention']['lastStatusBefore']>[0], 'before'>,
  ) =>
    afterMs > 0
      ? (await store.attention.lastStatusBefore({ ...query, before: before(afterMs) })).map(
          fromRow(rule, afterMs),
        )
      : [];
  // Every failed attempt now, its attempts counted: the last one is raised at once, the others after
  // ATTENTION_FAILED_AFTER; those with the fewest attempts left first, oldest first among equals.
  const failed = async (): Promise<AttentionItem[]> => {
    if (settings.failedAfterMs <= 0) return [];
    const rows = await store.attention.lastStatusBefore({
      statuses: ['failed_attempt'],
      before: now,
      counting: 'failed_attempt',
    });
    return rows
      .map((row) => {
        const attemptsLeft = Math.max(0, settings.attemptLimit - (row.counted ?? 1));
        return { ...fromRow('failed', attemptsLeft > 0 ? settings.failedAfterMs : 0)(row), attemptsLeft };
      })
      .filter((item) => item.dueAt <= now)
      .sort((a, b) => a.attemptsLeft - b.attemptsLeft);
  };
  const pickup = async () => {
    // Due at the end of the day after the pickup date: picked up before the start of yesterday in the
    // zone. That start is at least 23 hours ago (a day is 23 to 25 hours long), so the query asks for
    // rows before 22 hours ago and the zone is looked up only when one comes back: a zone's first
    // lookup loads ~8 MB of ICU's data, which a quiet bot need not hold. The rows come oldest first,
    // so those the exact bound leaves out are the last ones and the limit still keeps the oldest.
    const rows = await store.attention.notPickedUp({
      pickupBefore: new Date(now.getTime() - 22 * DURATION_UNITS_MS.h),
    });
    if (rows.length === 0) return [];
    const yesterday = instantFromZonedDateTime(zonedDateAfter(now, -1, timeZone), '00:00', timeZone);
    const pickupDue = dueAfterPickupDay(timeZone);
    return rows
      .filter((row) => row.since < yesterday)
      .map((row) => ({ ...fromRow('pickup', 0)(row), dueAt: pickupDue(row.since) }));
  };
  const rules = await Promise.all([
    ...(settings.unknownAfterMs > 0 ? UNKNOWN_OPERATIONS.map(unknown) : []),
    failed(),
    pickup(),
    statusRule('stale', settings.staleAfterMs, { statuses: ['picked_up', 'in_transit', 'out_for_delivery'] }),
    statusRule('cod', settings.codAfterMs, {
      statuses: ['delivered'],
      paymentMethod: input.codPaymentMethod,
      withoutRemittance: PAYING_OUTCOMES,
    }),
  ]);
  return rules.flat();
}

/** ATTENTION_*_AFTER and COURIER_ATTEMPT_LIMIT. */
export const attentionEnv = envSettings(
  z.object({
    ATTENTION_FAILED_AFTER: optionalSetting(duration).default(24 * DURATION_UNITS_MS.h),
    COURIER_ATTEMPT_LIMIT: optionalSetting(wholeNumber(1, 10, 'a whole number of delivery attempts')).default(
      3,
    ),
    ATTENTION_STALE_AFTER: optionalSetting(duration).default(5 * DURATION_UNITS_MS.d),
    ATTENTION_UNKNOWN_AFTER: optionalSetting(duration).default(15 * DURATION_UNITS_MS.m),
    ATTENTION_COD_AFTER: optionalSetting(duration).default(7 * DURATION_UNITS_MS.d),
  }),
  (settings): { attention: AttentionSettings } => ({
    attention: {
      failedAfterMs: settings.ATTENTION_FAILED_AFTER,
      staleAfterMs: settings.ATTENTION_STALE_AFTER,
      unknownAfterMs: settings.ATTENTION_UNKNOWN_AFTER,
      codAfterMs: settings.ATTENTION_COD_AFTER,
      attemptLimit: settings.COURIER_ATTEMPT_LIMIT,
    },
  }),
);
