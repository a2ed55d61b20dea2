// What needs attention, as the database finds it: one query per rule, each a range of an index, never a scan of every booking.
import { sql } from 'kysely';
import { type Context, checkedLimit, type Scope } from './context.js';
import type { AttentionQueries, AttentionRow } from './types.js';

/** Default for each query when no limit is given: more than a Home tab or a DM ever lists. */
const DEFAULT_LIMIT = 1000;

/** A booking row with the moment its rule counts from, as the rule's caller gets it. */
function toRow(row: {
  tracking_number: string;
  owner_id: string | null;
  booked_by: string;
  channel_id: string;
  since: number | string | null;
}): AttentionRow {
  return {
    trackingNumber: row.tracking_number,
    ownerId: row.owner_id ?? row.booked_by,
    channelId: row.channel_id,
    since: new Date(Number(row.since)),
  };
}

export function attention({ db }: Scope, _context: Context): AttentionQueries {
  return {
    async lastStatusBefore({
      statuses,
      before,
      paymentMethod,
      withoutRemittance,
      counting,
      limit = DEFAULT_LIMIT,
    }) {
      // From the (status, at) index: the entries of those statuses before the cutoff, kept when
      // nothing was recorded after them (the primary key finds a later one).
      let query = db
        .selectFrom('booking_status as s')
        .innerJoin('bookings as b', 'b.tracking_number', 's.tracking_number')
        .select([
          's.tracking_number',
          's.status',
          's.at as since',
          'b.owner_id',
          'b.booked_by',
          'b.channel_id',
        ])
        .where('s.status', 'in', statuses.length > 0 ? [...statuses] : [''])
        .where('s.at', '<=', before.getTime())
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('booking_status as t')
                .select('t.seq')
                .whereRef('t.tracking_number', '=', 's.tracking_number')
                .whereRef('t.seq', '>', 's.seq'),
            ),
          ),
        );
      // The payment method is a column of the booking already joined, and a remittance one range of
      // remittance_lines (tracking_number, outcome): no booking's record is read.
      if (paymentMethod !== undefined) query = query.where('b.payment_method', '=', paymentMethod);
      if (withoutRemittance?.length)
        query = query.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('remittance_lines as r')
                .select('r.line')
                .whereRef('r.tracking_number', '=', 's.tracking_number')
                .where('r.outcome', 'in', [...withoutRemittance]),
            ),
          ),
        );
      const rows = await query
        .orderBy('s.at')
        .orderBy('s.tracking_number')
        .limit(checkedLimit(limit))
        .execute();
      // Counted for the rows found only, after the limit, on the primary key (tracking_number, seq): a
      // count in the query above ran for every candidate before the sort (20 ms a turn became 450). The
      // status is tested inside the sum: as a condition, SQLite read the status index instead, every
      // status of that kind in the store.
      const counted = new Map<string, number>();
      if (counting !== undefined && rows.length > 0) {
        const counts = await db
          .selectFrom('booking_status')
          .select([
            'tracking_number',
            sql<number | string>`sum(case when status = ${counting} then 1 else 0 end)`.as('n'),
          ])
          .where(
            'tracking_number',
            'in',
            rows.map((row) => row.tracking_number),
          )
          .groupBy('tracking_number')
          .execute();
        for (const { tracking_number, n } of counts) counted.set(tracking_number, Number(n));
      }
      return rows.map((row) => ({
        ...toRow(row),
        status: row.status,
        ...(counting === undefined ? {} : { counted: counted.get(row.tracking_number) ?? 0 }),
      }));
    },
    async notPickedUp({ pickupBefore, limit = DEFAULT_LIMIT }) {
      // From the pickup index: bookings whose pickup time has passed with no status recorded at all.
      const rows = await db
        .selectFrom('bookings as b')
        .select(['b.tracking_number', 'b.pickup_at as since', 'b.owner_id', 'b.booked_by', 'b.channel_id'])
        .where('b.pickup_at', '<', pickupBefore.getTime())
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('booking_status as t')
                .select('t.seq')
                .whereRef('t.tracking_number', '=', 'b.tracking_number'),
            ),
          ),
        )
        .orderBy('b.pickup_at')
        .orderBy('b.tracking_number')
        .limit(checkedLimit(limit))
        .execute();
      return rows.map(toRow);
    },
  };
}
