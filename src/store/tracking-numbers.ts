// Tracking numbers: generated from per-prefix counters, and reserved once, whoever asks first.
import type { Context, Scope } from './context.js';
import type { Db } from './schema.js';
import type { TrackingNumbers } from './types.js';

/** Width of the zero-padded counter in generated tracking numbers (`WB000001`). */
export const TRACKING_COUNTER_DIGITS = 6;

const TRACKING_PREFIX = /^[A-Za-z0-9_-]{0,40}$/;

/** Marks a number as used; true only if nobody had (the primary key decides, across replicas). */
export async function reserveNew(db: Db, trackingNumber: string, at: number, holder?: string) {
  const inserted = await db
    .insertInto('tracking_reserved')
    .values({ tracking_number: trackingNumber, reserved_at: at, reserved_by: holder ?? null })
    .onConflict((conflict) => conflict.column('tracking_number').doNothing())
    .returning('tracking_number')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function trackingNumbers({ db }: Scope, context: Context): TrackingNumbers {
  return {
    async next(prefix, holder) {
      if (!TRACKING_PREFIX.test(prefix)) {
        throw new RangeError(
          `Tracking number prefix must be at most 40 letters, digits, - or _; got "${prefix}"`,
        );
      }
      for (;;) {
        // Incremented under the row's lock: two replicas never read the same value.
        const { last } = await db
          .insertInto('tracking_counters')
          .values({ prefix, last: 1 })
          .onConflict((conflict) =>
            conflict.column('prefix').doUpdateSet((eb) => ({ last: eb('tracking_counters.last', '+', 1) })),
          )
          .returning('last')
          .executeTakeFirstOrThrow();
        const candidate = `${prefix}${String(last).padStart(TRACKING_COUNTER_DIGITS, '0')}`;
        // Skips numbers already used (typed by a dispatcher, or handed out before a counter reset).
        if (await reserveNew(db, candidate, context.now(), holder)) return candidate;
      }
    },
    async reserve(trackingNumber, holder) {
      if (await reserveNew(db, trackingNumber, context.now(), holder)) return true;
      if (holder === undefined) return false;
      const existing = await db
        .selectFrom('tracking_reserved')
        .select('reserved_by')
        .where('tracking_number', '=', trackingNumber)
        .executeTakeFirst();
      return existing?.reserved_by === holder;
    },
  };
}
