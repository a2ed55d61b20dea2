/** Many bookings, written straight into a migrated store (SQLite or PostgreSQL): far faster than booking each through the bot. */
import type { Insertable } from 'kysely';
import { BOOKED, bookingTerms, channelTerm, statusTerm } from '../src/store/booking-search.js';
import { receiverPhoneOf } from '../src/store/receivers.js';
import type { BookingsTable, BookingTermsTable } from '../src/store/schema.js';
import type { Booking } from '../src/waybill/schemas.js';
import type { BulkWriter } from './bulk-insert.js';
import { sampleBooking } from './label-bookings.js';
import { seededParty } from './parties.js';

const ITEMS = ['Kitchen scales', 'Rice cooker', 'Running shoes', 'Phone case', 'Documents', 'Vitamins'];
const OWNERS = ['UDISPATCH', 'UANA', 'UBEN', 'UCARLA', 'UDAN'];

export interface SeededBookings {
  count: number;
  /** Booking i's tracking number and the time it was booked. */
  trackingNumber: (i: number) => string;
  bookedAt: (i: number) => number;
}

/**
 * Booking i as seeded, with the words `/waybill find` finds it by: the sample booking, its receiver
 * the address book's seeded party i (ten first names, ten last names, eight cities, a distinct
 * phone), its reference `PO-i`, one of six items, one of five owners, every third prepaid.
 */
export function seededBooking(sample: Booking, i: number, trackingNumber: string, pickupAt: number) {
  const { name, city, phone } = seededParty(i);
  const prepaid = i % 3 === 2;
  const record = {
    ...sample,
    trackingNumber,
    reference1: `PO-${i}`,
    itemDescription: ITEMS[i % ITEMS.length] as string,
    consignee: { ...sample.consignee, name, city, phone },
    paymentMethod: prepaid ? 'PREPAID' : 'COD',
    codAmount: prepaid ? '' : `${1000 + (i % 5000)}.50`,
    pickupAt: new Date(pickupAt),
  };
  return { record, owner: OWNERS[i % OWNERS.length] as string };
}

/** Where every seeded booking was booked. */
const SEEDED_CHANNEL = 'CDISPATCH';

/** Bookings written a batch at a time, so that a big store is never all in memory. */
const BATCH = 5000;

/** Seeded bookings `from` to `to` (not included) as the store's rows: theirs and their search terms'. */
export function seededRows(bookings: SeededBookings, from = 0, to = bookings.count) {
  const sample = sampleBooking('WB0000000');
  const rows: Insertable<BookingsTable>[] = [];
  const terms: Insertable<BookingTermsTable>[] = [];
  for (let i = from; i < to; i++) {
    const trackingNumber = bookings.trackingNumber(i);
    const bookedAt = bookings.bookedAt(i);
    const pickupAt = bookedAt + 24 * 60 * 60 * 1000;
    const { record, owner } = seededBooking(sample, i, trackingNumber, pickupAt);
    for (const term of [...bookingTerms(record, owner), statusTerm(BOOKED), channelTerm(SEEDED_CHANNEL)])
      terms.push({ term, tracking_number: trackingNumber });
    rows.push({
      tracking_number: trackingNumber,
      tracking_ref_no: `R${i}`,
      record: JSON.stringify(record),
      version: 1,
      channel_id: SEEDED_CHANNEL,
      card_channel_id: null,
      card_ts: null,
      audit_card_ts: null,
      booked_by: owner,
      booked_at: bookedAt,
      updated_by: null,
      updated_at: null,
      pickup_at: pickupAt,
      receiver_phone: receiverPhoneOf(record),
      payment_method: record.paymentMethod,
    });
  }
  return { rows, terms };
}

/** Appends seeded rows to the store's open transaction. */
export async function writeSeeded(writer: BulkWriter, { rows, terms }: ReturnType<typeof seededRows>) {
  await writer.insert('bookings', rows);
  await writer.insert('booking_terms', terms);
}

/** Appends `count` seeded bookings, with their search terms, to the store's open transaction. */
export async function insertBookings(writer: BulkWriter, bookings: SeededBookings): Promise<void> {
  for (let from = 0; from < bookings.count; from += BATCH)
    await writeSeeded(writer, seededRows(bookings, from, Math.min(bookings.count, from + BATCH)));
}
