// A receiver's record by their phone: their earlier parcels and what became of them; the record each booking was checked against.
import { type Selectable, sql } from 'kysely';
import { phoneKey } from '../waybill/phones.js';
import { PAYING_OUTCOMES } from '../waybill/remittance.js';
import { COD_TERM } from './booking-search.js';
import type { Scope } from './context.js';
import type { ReceiverChecksTable } from './schema.js';
import type { ReceiverCheck, ReceiverHistory, Receivers } from './types.js';

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

/** One of a receiver's parcels as the history query reads it (PostgreSQL hands BIGINT counts over as text). */
interface ParcelRow {
  booked_at: number | string;
  tracking_number: string;
  latest: string | null;
  failed: number | string;
  refused: number | string;
  paid: number | string;
}

interface Parcel {
  bookedAt: number;
  trackingNumber: string;
  failed: number;
  refused: boolean;
  returned: boolean;
  delivered: boolean;
}

/** The newest first: by booking time, then tracking number. */
const newestFirst = (a: Parcel, b: Parcel) =>
  b.bookedAt - a.bookedAt ||
  (a.trackingNumber < b.trackingNumber ? 1 : a.trackingNumber > b.trackingNumber ? -1 : 0);

const total = (parcels: readonly Parcel[], of: (parcel: Parcel) => number | boolean) =>
  parcels.reduce((sum, parcel) => sum + Number(of(parcel)), 0);

/**
 * A receiver's record from their parcels: what became of each, and of their latest ones how many came
 * back and how many attempts failed.
 */
function judge(rows: readonly ParcelRow[], windows: { returns: number; failed: number }): ReceiverHistory {
  const parcels = rows
    .map(
      (row): Parcel => ({
        bookedAt: Number(row.booked_at),
        trackingNumber: row.tracking_number,
        failed: Number(row.failed),
        refused: Number(row.refused) === 1,
        returned: row.latest === 'returned',
        delivered: row.latest === 'delivered' || (Number(row.paid) === 1 && row.latest !== 'returned'),
      }),
    )
    .sort(newestFirst);
  return {
    parcels: parcels.length,
    delivered: total(parcels, (p) => p.delivered),
    failed: total(parcels, (p) => p.failed),
    returned: total(parcels, (p) => p.returned),
    refused: total(parcels, (p) => p.refused),
    recent: {
      returns: total(parcels.slice(0, windows.returns), (p) => p.returned || p.refused),
      failed: total(parcels.slice(0, windows.failed), (p) => p.failed),
    },
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
      // The receiver's bookings are one range of bookings_receiver_phone; each one's statuses (by tracking
      // number: a condition on the status would let SQLite walk every failed attempt of the store
      // instead), terms and remittance lines are looked up by their own indexes. Counted here rather
      // than in SQL: with a window over the parcels, SQLite prepared the statement again at every call
      // (the phone's parameter expired it), ~0.1 ms of CPU each against ~4 µs; a receiver has few parcels.
      const { rows } = await sql<ParcelRow>`
        select b.booked_at, b.tracking_number,
          (select s.status from booking_status s where s.tracking_number = b.tracking_number
            order by s.seq desc limit 1) as latest,
          (select coalesce(sum(case when s.status = 'failed_attempt' then 1 else 0 end), 0)
            from booking_status s where s.tracking_number = b.tracking_number) as failed,
          case when (select max(case when s.status = 'failed_attempt' and s.reason = 'refused' then 1 else 0 end)
              from booking_status s where s.tracking_number = b.tracking_number) = 1
            and exists (select 1 from booking_terms t where t.term = ${COD_TERM}
              and t.tracking_number = b.tracking_number)
            then 1 else 0 end as refused,
          case when exists (select 1 from remittance_lines l where l.tracking_number = b.tracking_number
              and l.outcome in (${paying}) and l.amount <> '0.00')
            then 1 else 0 end as paid
        from bookings b
        where b.receiver_phone = ${phone} ${inScope}`.execute(db);
      return judge(rows, windows);
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
