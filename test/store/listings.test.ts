// The store's listings (home tab, exports) and bulk-import bookkeeping, on every backend, several replicas at once.
import { describe, expect, it } from 'vitest';
import { ImportRowNotFoundError } from '../../src/store/index.js';
import { describeEachBackend } from './backends.js';

const HOUR = 60 * 60 * 1000;
const start = new Date('2026-11-23T00:00:00.000Z').getTime();

/** A clock the test moves by hand. */
function clockAt(ms: number) {
  let current = ms;
  return {
    now: () => new Date(current),
    set(at: number) {
      current = at;
    },
  };
}

describeEachBackend(import.meta.filename, 'store listings and imports', (backend) => {
  describe('bookings in a time range', () => {
    it('lists those booked in [from, to), the latest first, limited, and counts them', async () => {
      const store = await backend.open();
      for (const [n, hours] of [
        [1, -1],
        [2, 0],
        [3, 5],
        [4, 5],
        [5, 23],
        [6, 24],
      ] as const) {
        await store.bookings.insert({
          trackingNumber: `WB00000${n}`,
          trackingRefNo: `R${n}`,
          record: { n },
          channelId: 'C1',
          bookedBy: `U${n}`,
          bookedAt: new Date(start + hours * HOUR),
        });
      }
      const today = { from: new Date(start), to: new Date(start + 24 * HOUR) };
      const listed = await store.bookings.listBooked(today);
      expect(listed.map((b) => b.trackingNumber)).toEqual(['WB000005', 'WB000004', 'WB000003', 'WB000002']);
      expect(listed[0]).toMatchObject({ trackingRefNo: 'R5', record: { n: 5 }, bookedBy: 'U5', version: 1 });
      expect((await store.bookings.listBooked({ ...today, limit: 2 })).map((b) => b.trackingNumber)).toEqual([
        'WB000005',
        'WB000004',
      ]);
      expect(await store.bookings.countBooked(today)).toBe(4);
      expect(await store.bookings.countBooked({ from: new Date(0), to: new Date(start - 2 * HOUR) })).toBe(0);
      await expect(store.bookings.listBooked({ ...today, limit: -1 })).rejects.toThrow(RangeError);
    });
  });

  describe("a person's open drafts", () => {
    it('lists live drafts of one kind and person, the most recently saved first', async () => {
      const clock = clockAt(start);
      const store = await backend.open({ now: clock.now, draftTtlMs: 10 * HOUR });
      const old = await store.drafts.create({ kind: 'booking', userId: 'U1', channelId: 'C', data: 'old' });
      clock.set(start + HOUR);
      const a = await store.drafts.create({ kind: 'booking', userId: 'U1', channelId: 'C', data: 'a' });
      await store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C', data: 'quote' });
      await store.drafts.create({ kind: 'booking', userId: 'U2', channelId: 'C', data: 'theirs' });
      clock.set(start + 2 * HOUR);
      const b = await store.drafts.create({ kind: 'booking', userId: 'U1', channelId: 'C', data: 'b' });
      clock.set(start + 3 * HOUR);
      await store.drafts.save(a.id, 'a2');
      const open = await store.drafts.listOpen<string>({ userId: 'U1', kind: 'booking' });
      expect(open.map((d) => d.data)).toEqual(['a2', 'b', 'old']);
      expect(
        (await store.drafts.listOpen({ userId: 'U1', kind: 'booking', limit: 1 })).map((d) => d.id),
      ).toEqual([a.id]);
      clock.set(start + 10 * HOUR);
      const later = await store.drafts.listOpen({ userId: 'U1', kind: 'booking' });
      expect(later.map((d) => d.id)).toEqual([a.id, b.id]);
      expect(later.map((d) => d.id)).not.toContain(old.id);
    });
  });

  describe('audit by person and by time', () => {
    it("lists a person's entries of one operation, newest first", async () => {
      const store = await backend.open();
      await store.audit.record({ userId: 'U1', operation: 'quote', outcome: 'ok', request: { n: 1 } });
      await store.audit.record({ userId: 'U2', operation: 'quote', outcome: 'ok', request: { n: 2 } });
      await store.audit.record({ userId: 'U1', operation: 'book', outcome: 'ok', request: { n: 3 } });
      await store.audit.record({ userId: 'U1', operation: 'quote', outcome: 'failed', request: { n: 4 } });
      const mine = await store.audit.list({ userId: 'U1', operation: 'quote' });
      expect(mine.map((e) => e.request)).toEqual([{ n: 4 }, { n: 1 }]);
    });

    it('reads a range oldest first, of the operations asked, page by page', async () => {
      const clock = clockAt(start - HOUR);
      const store = await backend.open({ now: clock.now });
      await store.audit.record({ userId: 'U', operation: 'book', outcome: 'ok', trackingNumber: 'before' });
      const written: string[] = [];
      for (let i = 0; i < 7; i++) {
        clock.set(start + i * HOUR);
        const operation = i % 3 === 2 ? 'quote' : i % 2 ? 'update' : 'book';
        await store.audit.record({ userId: 'U', operation, outcome: 'ok', trackingNumber: `T${i}` });
        if (operation !== 'quote') written.push(`T${i}`);
      }
      clock.set(start + 7 * HOUR);
      await store.audit.record({ userId: 'U', operation: 'book', outcome: 'ok', trackingNumber: 'after' });
      const range = { from: new Date(start), to: new Date(start + 7 * HOUR), operations: ['book', 'update'] };
      const pages: string[][] = [];
      let afterId: number | undefined;
      for (;;) {
        const page = await store.audit.between({ ...range, afterId, limit: 2 });
        if (page.length === 0) break;
        pages.push(page.map((e) => e.trackingNumber ?? ''));
        afterId = page.at(-1)?.id;
      }
      expect(pages.flat()).toEqual(written);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(await store.audit.between({ ...range, operations: [] })).toEqual([]);
      const all = await store.audit.between({ from: new Date(start), to: new Date(start + 7 * HOUR) });
      expect(all).toHaveLength(7);
      expect(all[0]?.at).toEqual(new Date(start));
    });
  });

  describe('imports', () => {
    const file = { fileHash: 'h1', fileName: 'orders.csv', userId: 'U1', channelId: 'C1', rowCount: 3 };

    it('records a file once, whoever sends it again, also from replicas at once', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const results = await Promise.all(
        [a, b, a, b].map((replica, i) => replica.imports.record({ ...file, userId: `U${i}` })),
      );
      expect(results.filter((r) => r.first)).toHaveLength(1);
      const first = results.find((r) => r.first)?.record;
      for (const result of results) expect(result.record).toEqual(first);
      expect(await a.imports.get('h1')).toEqual(first);
      expect(await a.imports.get('h2')).toBeUndefined();
    });

    it("keeps a row's first tracking number across runs and replicas, and what became of it", async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      await a.imports.record(file);
      const given = await Promise.all(
        ['WB1', 'WB2', 'WB3', 'WB4'].map((number, i) => (i % 2 ? b : a).imports.addRow('h1', 2, number)),
      );
      expect(new Set(given.map((row) => row.trackingNumber)).size).toBe(1);
      expect(given[0]).toMatchObject({ fileHash: 'h1', row: 2, state: 'pending' });
      await a.imports.addRow('h1', 3, 'WB9');
      await b.imports.setRow('h1', 2, { state: 'booked', trackingRefNo: 'REF-2' });
      await a.imports.setRow('h1', 3, { state: 'failed', message: 'Refused: bad postal code' });
      expect(await b.imports.addRow('h1', 2, 'WB5')).toMatchObject({
        state: 'booked',
        trackingRefNo: 'REF-2',
      });
      const rows = await b.imports.rows('h1');
      expect(
        rows.map(({ row, trackingNumber, state, message }) => ({ row, trackingNumber, state, message })),
      ).toEqual([
        { row: 2, trackingNumber: given[0]?.trackingNumber, state: 'booked', message: undefined },
        { row: 3, trackingNumber: 'WB9', state: 'failed', message: 'Refused: bad postal code' },
      ]);
      // A failed row tried again: its outcome replaced, the number kept.
      await a.imports.setRow('h1', 3, { state: 'unknown', message: 'No answer' });
      expect((await a.imports.rows('h1'))[1]).toMatchObject({
        trackingNumber: 'WB9',
        state: 'unknown',
        message: 'No answer',
      });
      expect(await a.imports.rows('nope')).toEqual([]);
      await expect(a.imports.setRow('h1', 9, { state: 'booked' })).rejects.toThrow(ImportRowNotFoundError);
    });

    it('keeps imports across reopen', async () => {
      const store = await backend.open();
      await store.imports.record(file);
      await store.imports.addRow('h1', 2, 'WB1');
      await store.close();
      const again = await backend.open();
      expect((await again.imports.record(file)).first).toBe(false);
      expect((await again.imports.rows('h1')).map((row) => row.trackingNumber)).toEqual(['WB1']);
    });
  });
});
