/**
 * On SQLite and PostgreSQL, 2,500 seeded bookings (`fakes/bookings.ts`) against thresholds a tenth of
 * production's: `bookings.find` against its rule, two pages, for each way a search is run (a rare word
 * fetched, a common one walked, common ones among the newest, intersected, or in a short range walked)
 */
import { expect, it } from 'vitest';
import { auditTrackingNumber } from '../../fakes/audit-rows.js';
import { seededRows, writeSeeded } from '../../fakes/bookings.js';
import { writeRows } from '../../fakes/bulk-insert.js';
import { readFindQuery } from '../../src/operations/find.js';
import { describeEachBackend } from './backends.js';

/**
 * A tenth of production's thresholds (BOOKING_THRESHOLDS) on a tenth of the bookings: each word is as
 * common against them as on 25,000, so each query takes the way it would there.
 */
const THRESHOLDS = { many: 500, sparse: 2000, recent: 200 };
const COUNT = 2500;
/** 100 minutes apart: the bookings span the half year the queries' ranges fall in. */
const at = (i: number) => Date.UTC(2026, 0, 1) + i * 6_000_000;

/** The rows and terms seeded, worked out once for both backends and the rule. */
const seeded = seededRows({ count: COUNT, trackingNumber: auditTrackingNumber, bookedAt: at });
/** Every booking's terms, newest first, as the rule reads them. */
const termsOf = new Map<string, string[]>();
for (const { term, tracking_number } of seeded.terms)
  termsOf.set(tracking_number, [...(termsOf.get(tracking_number) ?? []), term]);
const newestFirst = seeded.rows
  .map((row) => ({
    trackingNumber: row.tracking_number,
    time: row.booked_at,
    terms: termsOf.get(row.tracking_number) ?? [],
  }))
  .reverse();

describeEachBackend(import.meta.filename, 'bookings.find', (backend) => {
  it('finds what the rule says, newest first, in pages, however common the words', async () => {
    await writeRows(backend.target(), (writer) => writeSeeded(writer, seeded));
    const store = await backend.open({ searchThresholds: { bookings: THRESHOLDS } });
    for (const text of [
      'wb cod', // every booking, and two in three: the newest are the page; the next page's range is long, so the bookings intersected
      'cod prepaid', // the last payment named: every third booking, walked newest first
      'maria santos', // rare enough to fetch
      'maria juan', // never together
      'wb prepaid cod', // as `wb cod`
      'prepaid owner:UANA', // 1 in 15, the owner's bookings (exactly `many`) fetched
      'cod from:2026-02-01 to:2026-02-10', // a common filter walked in the range
      'prepaid makati from:2026-03-01 to:2026-03-31',
      'wb cod from:2026-02-01 to:2026-02-10', // the newest are the page; the next page's short range walked
      'cod 09170001', // phones 0917 0001…: none among the newest, so both words' bookings intersected; then the range walked
    ]) {
      const reading = readFindQuery(text, { userId: 'UDISPATCH', timeZone: 'UTC' });
      if (!reading.ok) throw new Error(reading.problem);
      const { query } = reading;
      const words = query.text.split(' ').filter(Boolean);
      const exact = [
        ...(query.payment ? [[`!payment:${query.payment}`]] : []),
        ...(query.owner ? [[`!owner:${query.owner}`]] : []),
      ];
      const expected = newestFirst
        .filter(
          ({ terms, time }) =>
            words.every((w) => terms.some((t) => t.startsWith(w))) &&
            exact.every((any) => any.some((t) => terms.includes(t))) &&
            (!query.from || time >= query.from.getTime()) &&
            (!query.to || time < query.to.getTime()),
        )
        .slice(0, 20)
        .map(({ trackingNumber }) => trackingNumber);
      const first = await store.bookings.find({ ...query, limit: 10 });
      const last = first.at(-1);
      const second = last
        ? await store.bookings.find({
            ...query,
            limit: 10,
            after: { bookedAt: last.bookedAt, trackingNumber: last.trackingNumber },
          })
        : [];
      expect(
        [...first, ...second].map((b) => b.trackingNumber),
        text,
      ).toEqual(expected);
    }
    await store.close();
  });
});
