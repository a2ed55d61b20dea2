/** Many bookings, written straight into a migrated store (SQLite or PostgreSQL): far faster than booking each through the bot. */
import type { Insertable } from 'kysely';
import type { BookingsTable } from '../src/store/schema.js';
import type { BulkWriter } from './bulk-insert.js';
import { sampleBooking } from './label-bookings.js';

export interface SeededBookings {
  count: number;
  /** Booking i's tracking number and the time it was booked. */
  trackingNumber: (i: number) => string;
  bookedAt: (i: number) => number;
}

/** Bookings written a batch at a time, so that a big store is never all in memory. */
const BATCH = 5000;

/** Appends `count` bookings (the sample booking, its amount varied) to the store's open transaction. */
export async function insertBookings(writer: BulkWriter, bookings: SeededBookings): Promise<void> {
  const sample = sampleBooking('WB0000000');
  for (let from = 0; from < bookings.count; from += BATCH) {
    const rows: Insertable<BookingsTable>[] = [];
    for (let i = from; i < Math.min(bookings.count, from + BATCH); i++) {
      const trackingNumber = bookings.trackingNumber(i);
      const bookedAt = bookings.bookedAt(i);
      const pickupAt = bookedAt + 24 * 60 * 60 * 1000;
      rows.push({
        tracking_number: trackingNumber,
        tracking_ref_no: `R${i}`,
        record: JSON.stringify({
          ...sample,
          trackingNumber,
          codAmount: `${1000 + (i % 5000)}.50`,
          pickupAt: new Date(pickupAt),
        }),
        version: 1,
        channel_id: 'CDISPATCH',
        card_channel_id: null,
        card_ts: null,
        audit_card_ts: null,
        booked_by: 'UDISPATCH',
        booked_at: bookedAt,
        updated_by: null,
        updated_at: null,
        pickup_at: pickupAt,
      });
    }
    await writer.insert('bookings', rows);
  }
}
