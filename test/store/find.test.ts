/**
 * On SQLite and PostgreSQL, 25,000 seeded bookings (`fakes/bookings.ts`): `bookings.find` against its rule,
 * two pages, for each way a search is run (a rare word, words common together or never, filters, a short
 * range)
 */
// bookings.find on SQLite and PostgreSQL: on 25,000 bookings, every way a search is run (a rare word, one
// common word, several common ones together or never, a short range) finds what the rule says, page by page.
import { expect, it } from 'vitest';
import { auditTrackingNumber } from '../../fakes/audit-rows.js';
import { insertBookings, seededBooking } from '../../fakes/bookings.js';
import { writeRows } from '../../fakes/bulk-insert.js';
import { sampleBooking } from '../../fakes/label-bookings.js';
import { readFindQuery } from '../../src/operations/find.js';
import { BOOKED, bookingTerms, statusTerm } from '../../src/store/booking-search.js';
import { describeEachBackend } from './backends.js';

const COUNT = 25_000;
const at = (i: number) => Date.UTC(2026, 0, 1) + i * 600_000;

/** Every booking's terms, newest first, as the rule reads them: worked out once for both backends. */
let terms: string[][] | undefined;
function allTerms(): string[][] {
  const sample = sampleBooking('WB0000000');
  const termsOf = (i: number) => {
    const { record, owner } = seededBooking(sample, i, auditTrackingNumber(i), 0);
    return [...bookingTerms(record, owner), statusTerm(BOOKED)];
  };
  terms ??= Array.from({ length: COUNT }, (_, i) => termsOf(COUNT - 1 - i));
  return terms;
}

describeEachBackend(import.meta.filename, 'bookings.find', (backend) => {
  it('finds what the rule says, newest first, in pages, however common the words', {
    timeout: 120_000,
  }, async () => {
    await writeRows(backend.target(), (writer) =>
      insertBookings(writer, { count: COUNT, trackingNumber: auditTrackingNumber, bookedAt: at }),
    );
    const store = await backend.open();
    const all = allTerms();
    for (const text of [
      'wb cod', // every booking, and two in three: the newest are the page
      'cod prepaid', // common, never together: the bookings intersected
      'maria santos', // rare enough to fetch
      'maria juan', // never together
      'wb prepaid cod', // each pair found, never all three: the rarest probed in the others, the commonest checked last
      'prepaid owner:UANA', // 1 in 15
      'cod from:2026-02-01 to:2026-02-10', // a short range walked
      'prepaid makati from:2026-03-01 to:2026-03-31',
    ]) {
      const reading = readFindQuery(text, { userId: 'UDISPATCH', timeZone: 'UTC' });
      if (!reading.ok) throw new Error(reading.problem);
      const { query } = reading;
      const words = query.text.split(' ').filter(Boolean);
      const exact = [
        ...(query.payment ? [[`!payment:${query.payment}`]] : []),
        ...(query.owner ? [[`!owner:${query.owner}`]] : []),
      ];
      const expected = all
        .map((terms, k) => ({ terms, i: COUNT - 1 - k }))
        .filter(({ terms, i }) => {
          const time = at(i);
          return (
            words.every((w) => terms.some((t) => t.startsWith(w))) &&
            exact.every((any) => any.some((t) => terms.includes(t))) &&
            (!query.from || time >= query.from.getTime()) &&
            (!query.to || time < query.to.getTime())
          );
        })
        .slice(0, 20)
        .map(({ i }) => auditTrackingNumber(i));
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
