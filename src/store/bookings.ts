// Bookings the bot made: the last-known record, its version for optimistic concurrency, and its cards.
import type { Selectable, SelectQueryBuilder } from 'kysely';
import { BOOKED, findBookings, indexBooking, indexOwner, indexStatus } from './booking-search.js';
import { type Context, checkedLimit, present, type Scope, toJson } from './context.js';
import { BookingNotFoundError, DuplicateTrackingNumberError } from './errors.js';
import { receiverPhoneOf } from './receivers.js';
import type { BookingsTable, Db, Tables } from './schema.js';
import { reserveNew } from './tracking-numbers.js';
import type { BookedVia, BookingRecord, Bookings, InChannels, OwnerChange, TimeRange } from './types.js';

/** Default for `listBooked` when no limit is given. */
const DEFAULT_LIST_LIMIT = 100;
/** At most this many tracking numbers per query for `ownersOf`: well within both backends' parameter limits. */
const OWNERS_CHUNK = 500;

/** Only the bookings of these conversations, when given (none for an empty list). */
export function inChannels<O>(
  query: SelectQueryBuilder<Tables, 'bookings', O>,
  channelIds: InChannels['channelIds'],
): SelectQueryBuilder<Tables, 'bookings', O> {
  if (channelIds === undefined) return query;
  return query.where('bookings.channel_id', 'in', channelIds.length > 0 ? [...channelIds] : ['']);
}

function bookedIn(db: Db, { from, to, channelIds }: TimeRange & InChannels) {
  return inChannels(
    db.selectFrom('bookings').where('booked_at', '>=', from.getTime()).where('booked_at', '<', to.getTime()),
    channelIds,
  );
}

export function toBooking<T>(row: Selectable<BookingsTable>): BookingRecord<T> {
  return {
    trackingNumber: row.tracking_number,
    trackingRefNo: row.tracking_ref_no,
    record: JSON.parse(row.record) as T,
    version: row.version,
    channelId: row.channel_id,
    bookedBy: row.booked_by,
    bookedAt: new Date(row.booked_at),
    ownerId: row.owner_id ?? row.booked_by,
    ...present({
      cardChannelId: row.card_channel_id,
      cardTs: row.card_ts,
      auditCardTs: row.audit_card_ts,
      updatedBy: row.updated_by,
      updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
      pickupAt: row.pickup_at === null ? null : new Date(row.pickup_at),
      bookedVia: row.booked_via as BookedVia | null,
    }),
  };
}

/** The record's payment method, read defensively: the store keeps any record. */
function paymentMethodOf(record: unknown): string | null {
  const method = (record as { paymentMethod?: unknown } | null)?.paymentMethod;
  return typeof method === 'string' ? method : null;
}

export function bookings({ db, atomically, lock, kind }: Scope, context: Context): Bookings {
  const get = async <T>(trackingNumber: string, conn: Db = db) => {
    const row = await conn
      .selectFrom('bookings')
      .selectAll()
      .where('tracking_number', '=', trackingNumber)
      .executeTakeFirst();
    return row && toBooking<T>(row);
  };
  return {
    insert: (input) =>
      atomically(async (tx) => {
        const row = await tx
          .insertInto('bookings')
          .values({
            tracking_number: input.trackingNumber,
            tracking_ref_no: input.trackingRefNo,
            record: toJson(input.record) ?? 'null',
            version: 1,
            channel_id: input.channelId,
            card_channel_id: input.cardChannelId ?? null,
            card_ts: input.cardTs ?? null,
            audit_card_ts: input.auditCardTs ?? null,
            booked_by: input.bookedBy,
            owner_id: input.bookedBy,
            booked_at: input.bookedAt.getTime(),
            pickup_at: input.pickupAt?.getTime() ?? null,
            receiver_phone: receiverPhoneOf(input.record),
            payment_method: paymentMethodOf(input.record),
            booked_via: input.bookedVia ?? null,
          })
          .onConflict((conflict) => conflict.column('tracking_number').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new DuplicateTrackingNumberError(input.trackingNumber);
        await indexBooking(tx, input.trackingNumber, input.record, input.bookedBy, input.channelId);
        await indexStatus(tx, input.trackingNumber, BOOKED);
        await reserveNew(tx, input.trackingNumber, context.now());
        return toBooking(row);
      }),
    get: (trackingNumber) => get(trackingNumber),
    updateRecord: (trackingNumber, expectedVersion, record, updatedBy, pickupAt) =>
      atomically(async (tx) => {
        // One conditional UPDATE: of two replicas holding the same version, exactly one applies.
        const row = await tx
          .updateTable('bookings')
          .set((eb) => ({
            record: toJson(record) ?? 'null',
            version: eb('version', '+', 1),
            updated_by: updatedBy,
            updated_at: context.now(),
            pickup_at: pickupAt?.getTime() ?? eb.ref('pickup_at'),
            receiver_phone: receiverPhoneOf(record),
            payment_method: paymentMethodOf(record),
          }))
          .where('tracking_number', '=', trackingNumber)
          .where('version', '=', expectedVersion)
          .returningAll()
          .executeTakeFirst();
        if (!row) return { ok: false, current: await get(trackingNumber, tx) };
        await indexBooking(tx, trackingNumber, record, row.owner_id ?? row.booked_by);
        return { ok: true, booking: toBooking(row) };
      }),
    async setCard(trackingNumber, card) {
      const result = await db
        .updateTable('bookings')
        .set((eb) => ({
          card_channel_id: card.cardChannelId ?? eb.ref('card_channel_id'),
          card_ts: card.cardTs ?? eb.ref('card_ts'),
          audit_card_ts: card.auditCardTs ?? eb.ref('audit_card_ts'),
        }))
        .where('tracking_number', '=', trackingNumber)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new BookingNotFoundError(trackingNumber);
    },
    async listBooked({ from, to, channelIds, limit = DEFAULT_LIST_LIMIT }) {
      const rows = await bookedIn(db, { from, to, channelIds })
        .selectAll()
        .orderBy('booked_at', 'desc')
        .orderBy('tracking_number', 'desc')
        .limit(checkedLimit(limit))
        .execute();
      return rows.map((row) => toBooking(row));
    },
    async listByPickup({ from, to, after, channelIds, limit = DEFAULT_LIST_LIMIT }) {
      let query = inChannels(
        db
          .selectFrom('bookings')
          .selectAll()
          .where('pickup_at', '>=', from.getTime())
          .where('pickup_at', '<', to.getTime()),
        channelIds,
      );
      if (after !== undefined) query = query.where('tracking_number', '>', after);
      const rows = await query.orderBy('tracking_number').limit(checkedLimit(limit)).execute();
      return rows.map((row) => toBooking(row));
    },
    async find(search) {
      return (
        await findBookings(
          db,
          kind,
          { ...search, limit: checkedLimit(search.limit) },
          context.searchThresholds.bookings,
        )
      ).map((row) => toBooking(row));
    },
    setOwner: <T>(trackingNumber: string, ownerId: string) =>
      // One change per booking at a time, on any replica: the owner before is the one replaced.
      atomically(async (tx): Promise<OwnerChange<T>> => {
        await lock(tx, `owner:${trackingNumber}`);
        const row = await tx
          .selectFrom('bookings')
          .selectAll()
          .where('tracking_number', '=', trackingNumber)
          .executeTakeFirst();
        if (!row) throw new BookingNotFoundError(trackingNumber);
        const current = toBooking<T>(row);
        if (current.ownerId === ownerId) return { changed: false, booking: current };
        const updated = await tx
          .updateTable('bookings')
          .set({ owner_id: ownerId })
          .where('tracking_number', '=', trackingNumber)
          .returningAll()
          .executeTakeFirstOrThrow();
        await indexOwner(tx, trackingNumber, ownerId);
        return { changed: true, previous: current.ownerId, booking: toBooking<T>(updated) };
      }),
    async ownersOf(trackingNumbers) {
      const owners = new Map<string, string>();
      const wanted = [...new Set(trackingNumbers)];
      for (let start = 0; start < wanted.length; start += OWNERS_CHUNK) {
        const rows = await db
          .selectFrom('bookings')
          .select(['tracking_number', 'owner_id', 'booked_by'])
          .where('tracking_number', 'in', wanted.slice(start, start + OWNERS_CHUNK))
          .execute();
        for (const row of rows) owners.set(row.tracking_number, row.owner_id ?? row.booked_by);
      }
      return owners;
    },
    async countBooked(range) {
      const { count } = await bookedIn(db, range)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      // PostgreSQL counts in BIGINT, which pg hands over as text.
      return Number(count);
    },
  };
}
