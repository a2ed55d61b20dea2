// What happened to each parcel after booking, as dispatchers record it: a history per tracking number,
// in order; and the daily digest of it all, claimed once a day.
import type { Selectable } from 'kysely';
import { indexStatus } from './booking-search.js';
import type { Context, Scope } from './context.js';
import { present } from './context.js';
import type { BookingStatusTable } from './schema.js';
import type { Digests, StatusEntry, Statuses } from './types.js';

/** At most this many tracking numbers per query for `latestOf`: well within both backends' parameter limits. */
const LATEST_CHUNK = 500;

function toEntry(row: Selectable<BookingStatusTable>): StatusEntry {
  return {
    trackingNumber: row.tracking_number,
    seq: Number(row.seq),
    status: row.status,
    userId: row.user_id,
    at: new Date(Number(row.at)),
    ...present({ reason: row.reason, note: row.note }),
  };
}

export function statuses({ db, atomically, lock }: Scope, context: Context): Statuses {
  const latestIn = async (conn: typeof db, trackingNumber: string) => {
    const row = await conn
      .selectFrom('booking_status')
      .selectAll()
      .where('tracking_number', '=', trackingNumber)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toEntry(row);
  };
  return {
    record: (input) =>
      // One transaction per tracking number at a time, on any replica: the next number in its
      // history and the "already so" check see every status recorded before.
      atomically(async (tx) => {
        await lock(tx, `status:${input.trackingNumber}`);
        const current = await latestIn(tx, input.trackingNumber);
        if (current && current.status === input.status && (current.reason ?? '') === (input.reason ?? ''))
          return { recorded: false, current };
        const row = await tx
          .insertInto('booking_status')
          .values({
            tracking_number: input.trackingNumber,
            seq: (current?.seq ?? 0) + 1,
            status: input.status,
            reason: input.reason ?? null,
            note: input.note ?? null,
            user_id: input.userId,
            at: Math.min(input.at?.getTime() ?? Number.POSITIVE_INFINITY, context.now()),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await indexStatus(tx, input.trackingNumber, input.status);
        return { recorded: true, entry: toEntry(row) };
      }),
    latest: (trackingNumber) => latestIn(db, trackingNumber),
    async history(trackingNumber) {
      const rows = await db
        .selectFrom('booking_status')
        .selectAll()
        .where('tracking_number', '=', trackingNumber)
        .orderBy('seq')
        .execute();
      return rows.map(toEntry);
    },
    async latestOf(trackingNumbers) {
      const found = new Map<string, StatusEntry>();
      const wanted = [...new Set(trackingNumbers)];
      for (let start = 0; start < wanted.length; start += LATEST_CHUNK) {
        const chunk = wanted.slice(start, start + LATEST_CHUNK);
        const rows = await db
          .selectFrom('booking_status as s')
          .selectAll('s')
          .where('s.tracking_number', 'in', chunk)
          .where(({ eb, selectFrom }) =>
            eb(
              's.seq',
              '=',
              selectFrom('booking_status as t')
                .select((t) => t.fn.max('t.seq').as('seq'))
                .whereRef('t.tracking_number', '=', 's.tracking_number'),
            ),
          )
          .execute();
        for (const row of rows) found.set(row.tracking_number, toEntry(row));
      }
      return found;
    },
    async between({ from, to }) {
      const rows = await db
        .selectFrom('booking_status')
        .selectAll()
        .where('at', '>=', from.getTime())
        .where('at', '<', to.getTime())
        .orderBy('at')
        .orderBy('tracking_number')
        .orderBy('seq')
        .execute();
      return rows.map(toEntry);
    },
  };
}

/**
 * Claims of scheduled posts: the first replica to claim a day posts; nobody else does. The daily
 * digest's keys are days; other posts' keys start with their own `kind` (the weekly report's
 * "week YYYY-MM-DD"), so one table serves them all.
 */
export function digests({ db }: Scope, context: Context, kind = ''): Digests {
  const keyOf = (day: string) => (kind ? `${kind} ${day}` : day);
  return {
    async claim(day) {
      const row = await db
        .insertInto('digests')
        .values({ day: keyOf(day), replica_id: context.replicaId, claimed_at: context.now() })
        .onConflict((conflict) => conflict.column('day').doNothing())
        .returning('day')
        .executeTakeFirst();
      return row !== undefined;
    },
    async release(day) {
      await db
        .deleteFrom('digests')
        .where('day', '=', keyOf(day))
        .where('replica_id', '=', context.replicaId)
        .execute();
    },
  };
}
