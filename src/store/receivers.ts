// A receiver's record by their phone: their earlier parcels and what became of them; the record each booking was checked against.
import { type Selectable, sql } from 'kysely';
import { phoneKey } from '../waybill/phones.js';
import { PAYING_OUTCOMES } from '../waybill/remittance.js';
import { COD_TERM } from './booking-search.js';
import type { Scope } from './context.js';
import type { ReceiverChecksTable } from './schema.js';
import type { ReceiverCheck, Receivers } from './types.js';

/** At most this many tracking numbers per query for `checksOf`: well within both backends' parameter limits. */
const CHUNK = 500;

/** The receiver's phone key of a stored record, read defensively (the store keeps the record as JSON). */
export function receiverPhoneOf(record: unknown): string | null {
  const consignee = (record as { consignee?: { phone?: unknown; country?: unknown } } | null)?.consignee;
  if (typeof consignee?.phone !== 'string') return null;
  return (
    phoneKey(consignee.phone, typeof consignee.country === 'string' ? consignee.country : undefined) ?? null
  );
}

function toCheck(row: Selectable<ReceiverChecksTable>): ReceiverCheck {
  return {
    parcels: row.parcels,
    delivered: row.delivered,
    failed: row.failed,
    returned: row.returned,
    refused: row.refused,
    flagged: row.flagged === 1,
    ...(row.confirmed_by ? { confirmedBy: row.confirmed_by } : {}),
  };
}

export function receivers({ db }: Scope): Receivers {
  return {
    async history(phone, windows, where = {}) {
      const { channelIds } = where;
      // Only what the viewer sees (the access rule's scope): an empty list counts nothing.
      const inScope =
        channelIds === undefined
          ? sql``
          : sql`and b.channel_id in (${sql.join(channelIds.length > 0 ? [...channelIds] : [''])})`;
      const paying = sql.join(PAYING_OUTCOMES.map((outcome) => sql.lit(outcome)));
      // One statement: the receiver's bookings are one range of bookings_receiver_phone; each one's
      // statuses, terms and remittance lines are looked up by their own indexes.
      const { rows } = await sql<Record<string, number | string | null>>`
        with parcel as (
          select b.booked_at, b.tracking_number,
            (select s.status from booking_status s where s.tracking_number = b.tracking_number
              order by s.seq desc limit 1) as latest,
            (select count(*) from booking_status s where s.tracking_number = b.tracking_number
              and s.status = 'failed_attempt') as failed,
            case when exists (select 1 from booking_status s where s.tracking_number = b.tracking_number
                and s.status = 'failed_attempt' and s.reason = 'refused')
              and exists (select 1 from booking_terms t where t.term = ${COD_TERM}
                and t.tracking_number = b.tracking_number)
              then 1 else 0 end as refused,
            case when exists (select 1 from remittance_lines l where l.tracking_number = b.tracking_number
                and l.outcome in (${paying}) and l.amount <> '0.00')
              then 1 else 0 end as paid
          from bookings b
          where b.receiver_phone = ${phone} ${inScope}
        ),
        judged as (
          select failed, refused,
            row_number() over (order by booked_at desc, tracking_number desc) as n,
            case when latest = 'returned' then 1 else 0 end as returned,
            case when latest = 'delivered' or (paid = 1 and coalesce(latest, '') <> 'returned')
              then 1 else 0 end as delivered
          from parcel
        )
        select count(*) as parcels,
          coalesce(sum(delivered), 0) as delivered,
          coalesce(sum(failed), 0) as failed,
          coalesce(sum(returned), 0) as returned,
          coalesce(sum(refused), 0) as refused,
          coalesce(sum(case when n <= ${windows.returns} and (returned = 1 or refused = 1) then 1 else 0 end), 0)
            as recent_returns,
          coalesce(sum(case when n <= ${windows.failed} then failed else 0 end), 0) as recent_failed
        from judged`.execute(db);
      // PostgreSQL counts and sums as BIGINT and NUMERIC, which pg hands over as text.
      const count = (name: string) => Number(rows[0]?.[name] ?? 0);
      return {
        parcels: count('parcels'),
        delivered: count('delivered'),
        failed: count('failed'),
        returned: count('returned'),
        refused: count('refused'),
        recent: { returns: count('recent_returns'), failed: count('recent_failed') },
      };
    },
    async keep(trackingNumber, check) {
      await db
        .insertInto('receiver_checks')
        .values({
          tracking_number: trackingNumber,
          parcels: check.parcels,
          delivered: check.delivered,
          failed: check.failed,
          returned: check.returned,
          refused: check.refused,
          flagged: check.flagged ? 1 : 0,
          confirmed_by: check.confirmedBy ?? null,
        })
        .onConflict((conflict) => conflict.column('tracking_number').doNothing())
        .execute();
    },
    async checksOf(trackingNumbers) {
      const found = new Map<string, ReceiverCheck>();
      const wanted = [...new Set(trackingNumbers)];
      for (let start = 0; start < wanted.length; start += CHUNK) {
        const rows = await db
          .selectFrom('receiver_checks')
          .selectAll()
          .where('tracking_number', 'in', wanted.slice(start, start + CHUNK))
          .execute();
        for (const row of rows) found.set(row.tracking_number, toCheck(row));
      }
      return found;
    },
    async countFlagged({ from, to }) {
      // By the day booked: the digest's day, along bookings_booked_at.
      const { n } = await db
        .selectFrom('receiver_checks as c')
        .innerJoin('bookings as b', 'b.tracking_number', 'c.tracking_number')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('b.booked_at', '>=', from.getTime())
        .where('b.booked_at', '<', to.getTime())
        .where('c.flagged', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(n);
    },
  };
}
