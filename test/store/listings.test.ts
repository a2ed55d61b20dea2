/**
 * On SQLite and PostgreSQL: bookings in a time range, a person's open drafts, audit by person and by range in
 * keyset pages (entries at one instant across a page boundary), bulk imports recorded once per file with each
 * row's first tracking number kept; remittance files recorded once (replicas at once), a correcting file
 * beside the first, a booking's remittances, bookings no file paid, in pages.
 */
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

  describe('bookings by pickup time, and calls of unknown outcome', () => {
    it('lists those picked up in [from, to) by tracking number, page after page, following updates', async () => {
      const store = await backend.open();
      for (const [n, hours] of [
        [3, 2],
        [1, 1],
        [2, 30],
        [4, -1],
        [5, 23],
      ] as const) {
        await store.bookings.insert({
          trackingNumber: `WB00000${n}`,
          trackingRefNo: `R${n}`,
          record: { n },
          channelId: 'C1',
          bookedBy: 'U1',
          bookedAt: new Date(start),
          pickupAt: new Date(start + hours * HOUR),
        });
      }
      const day = { from: new Date(start), to: new Date(start + 24 * HOUR) };
      const page = await store.bookings.listByPickup({ ...day, limit: 2 });
      expect(page.map((b) => b.trackingNumber)).toEqual(['WB000001', 'WB000003']);
      expect(page[0]?.pickupAt).toEqual(new Date(start + HOUR));
      const next = await store.bookings.listByPickup({ ...day, after: 'WB000003', limit: 2 });
      expect(next.map((b) => b.trackingNumber)).toEqual(['WB000005']);
      // Moved to the next day by an update; an update that does not say keeps the time.
      await store.bookings.updateRecord('WB000003', 1, { n: 3 }, 'U2', new Date(start + 25 * HOUR));
      await store.bookings.updateRecord('WB000005', 1, { n: 5 }, 'U2');
      expect((await store.bookings.listByPickup(day)).map((b) => b.trackingNumber)).toEqual([
        'WB000001',
        'WB000005',
      ]);
    });

    it('lists the calls of one operation whose outcome is unknown and not superseded, oldest first', async () => {
      const clock = clockAt(start);
      const store = await backend.open({ now: clock.now });
      for (const [key, state] of [
        ['b2', 'unknown'],
        ['b1', 'unknown'],
        ['b3', 'failed'],
        ['b4', 'succeeded'],
      ] as const) {
        clock.set(clock.now().getTime() + 1000);
        await store.attempts.begin(key, 'book', { trackingNumber: key.toUpperCase(), claim: key });
        await store.attempts.finish(key, state, {});
      }
      await store.attempts.begin('u1', 'update', { trackingNumber: 'B1' });
      await store.attempts.finish('u1', 'unknown', {});
      expect((await store.attempts.listUnknown('book')).map((a) => a.key)).toEqual(['b2', 'b1']);
      // Sent again after checking with the courier: the new call supersedes the unknown one.
      await store.attempts.begin('b1-again', 'book', { claim: 'b1', supersedeUnknown: true });
      expect((await store.attempts.listUnknown('book')).map((a) => a.key)).toEqual(['b2']);
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
      let after: { at: Date; id: number } | undefined;
      for (;;) {
        const page = await store.audit.between({ ...range, after, limit: 2 });
        if (page.length === 0) break;
        pages.push(page.map((e) => e.trackingNumber ?? ''));
        after = page.at(-1);
      }
      expect(pages.flat()).toEqual(written);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(await store.audit.between({ ...range, operations: [] })).toEqual([]);
      const all = await store.audit.between({ from: new Date(start), to: new Date(start + 7 * HOUR) });
      expect(all).toHaveLength(7);
      expect(all[0]?.at).toEqual(new Date(start));

      // Several entries at one instant, across a page boundary: each read once, by id.
      clock.set(start + 8 * HOUR);
      for (const n of [1, 2, 3])
        await store.audit.record({ userId: 'U', operation: 'book', outcome: 'ok', trackingNumber: `S${n}` });
      const same = { from: new Date(start + 8 * HOUR), to: new Date(start + 9 * HOUR) };
      const first = await store.audit.between({ ...same, limit: 2 });
      const rest = await store.audit.between({ ...same, after: first.at(-1), limit: 2 });
      expect([...first, ...rest].map((e) => e.trackingNumber)).toEqual(['S1', 'S2', 'S3']);
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

    const run = (id: string, fileHash = 'h1') => ({
      id,
      fileHash,
      fileName: 'orders.csv',
      userId: 'U1',
      channelId: 'C1',
      viewId: 'V1',
      toBook: 60,
    });
    const queued = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ row: i + 2, booking: { n: i } }));

    it('a run of a file at a time: a second run of the same file, even at once from another replica, gets the first', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const started = await Promise.all([
        a.imports.startRun(run('r1'), queued(3)),
        b.imports.startRun(run('r2'), queued(3)),
      ]);
      expect(started.filter((s) => s.started)).toHaveLength(1);
      const refused = started.find((s) => !s.started);
      const winner = started[0]?.started ? 'r1' : 'r2';
      expect(refused).toMatchObject({ started: false, running: { id: winner, state: 'running' } });
      expect((await a.imports.runningOf('h1'))?.id).toBe(winner);
      // Another file runs alongside; once the first is closed, the file may run again.
      expect(await a.imports.startRun(run('r3', 'h2'), queued(1))).toEqual({ started: true });
      await a.imports.closeRun(winner);
      expect(await a.imports.runningOf('h1')).toBeUndefined();
      expect(await b.imports.startRun(run('r4'), queued(1))).toEqual({ started: true });
    });

    it('replicas claiming at once each get different rows; a gone replica’s rows are requeued; the summary is taken once', async () => {
      const [a, b] = [await backend.open({ replicaId: 'a' }), await backend.open({ replicaId: 'b' })];
      const settled = { row: 99, outcome: 'not valid', result: { row: 99 } };
      await a.imports.startRun(run('r1'), [...queued(60), settled]);
      const claimAll = async (store: typeof a) => {
        const rows: number[] = [];
        for (
          let claimed = await store.imports.claimRow();
          claimed;
          claimed = await store.imports.claimRow()
        ) {
          rows.push(claimed.row);
          if (rows.length === 10 && store === b) break;
        }
        return rows;
      };
      const [byA, byB] = await Promise.all([claimAll(a), claimAll(b)]);
      const all = [...byA, ...byB].sort((x, y) => x - y);
      expect(all).toEqual(queued(60).map((q) => q.row));
      expect(await a.imports.takeReports()).toEqual([]);
      // b is gone with its rows claimed: once its lease is released they go back in the queue.
      for (const row of byA) expect(await a.imports.finishRow('r1', row, 'booked', { row })).toBe(true);
      expect(await a.imports.finishRow('r1', byB[0] ?? 0, 'booked', {})).toBe(false);
      expect(await a.imports.requeueAbandoned()).toBe(0);
      await b.close();
      expect(await a.imports.requeueAbandoned()).toBe(byB.length);
      for (let claimed = await a.imports.claimRow(); claimed; claimed = await a.imports.claimRow()) {
        await a.imports.finishRow('r1', claimed.row, 'unknown', { row: claimed.row });
      }
      expect(await a.imports.runCounts('r1')).toEqual({
        booked: byA.length,
        unknown: byB.length,
        'not valid': 1,
      });
      const c = await backend.open({ replicaId: 'c' });
      const taken = await Promise.all([a.imports.takeReports(), c.imports.takeReports()]);
      expect(taken.flat().map((r) => r.id)).toEqual(['r1']);
      expect((await a.imports.runResults<{ row: number }>('r1')).map((r) => r.row)).toEqual([...all, 99]);
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

  describe('remittances', () => {
    const DAY = 24 * HOUR;
    const paying = ['matched', 'short', 'over'];
    const fileOf = (fileHash: string, lineCount: number) => ({
      fileHash,
      fileName: `${fileHash}.csv`,
      userId: 'U1',
      channelId: 'C1',
      lineCount,
    });

    async function seeded() {
      const clock = clockAt(start);
      const store = await backend.open({ now: clock.now });
      for (const [n, days] of [
        [1, 0],
        [2, 0],
        [3, 0],
        [4, 0],
        [5, 9],
      ] as const) {
        await store.bookings.insert({
          trackingNumber: `WB${n}`,
          trackingRefNo: `R${n}`,
          record: { codAmount: '1500.00' },
          channelId: 'C1',
          bookedBy: 'U1',
          bookedAt: new Date(start + days * DAY),
        });
      }
      return { store, clock };
    }

    it('records a file once with its lines, also from replicas at once, and a correcting file beside it', async () => {
      const { store, clock } = await seeded();
      const other = await backend.open({ now: clock.now });
      const lines = [
        {
          line: 2,
          trackingNumber: 'WB1',
          amount: '1500.00',
          outcome: 'matched',
          difference: '0.00',
          remittedAt: '2026-11-20',
        },
        { line: 3, trackingNumber: 'WB2', amount: '1400.00', outcome: 'short', difference: '-100.00' },
        { line: 4, trackingNumber: 'ZZ9', outcome: 'problem' },
      ];
      const results = await Promise.all(
        [store, other, store, other].map((replica, i) =>
          replica.remittances.record({ ...fileOf('r1', 3), userId: `U${i}` }, lines),
        ),
      );
      expect(results.filter((r) => r.first)).toHaveLength(1);
      expect(await store.remittances.lines('r1')).toEqual(lines.map((l) => ({ ...l, fileHash: 'r1' })));
      expect(await store.remittances.get('r1')).toMatchObject({ fileName: 'r1.csv', lineCount: 3 });
      expect(await store.remittances.get('r2')).toBeUndefined();

      // The same content again: nothing changes.
      const again = await other.remittances.record(fileOf('r1', 1), [
        { line: 2, trackingNumber: 'WB3', outcome: 'matched' },
      ]);
      expect(again.first).toBe(false);
      expect(await store.remittances.lines('r1')).toHaveLength(3);

      clock.set(start + HOUR);
      await store.remittances.record(fileOf('r2', 1), [
        { line: 2, trackingNumber: 'WB2', amount: '100.00', outcome: 'matched', difference: '0.00' },
      ]);
      const ofWb2 = await store.remittances.ofBookings(['WB2', 'WB2', 'WB4']);
      expect(ofWb2.map((r) => [r.fileName, r.amount, r.outcome, r.recordedAt.getTime()])).toEqual([
        ['r1.csv', '1400.00', 'short', start],
        ['r2.csv', '100.00', 'matched', start + HOUR],
      ]);
      expect(
        (await store.remittances.bookingsNamed(['WB1', 'NOPE', 'WB5'])).map((b) => b.trackingNumber).sort(),
      ).toEqual(['WB1', 'WB5']);
    });

    it('lists bookings no paying line names, booked before a time, in pages', async () => {
      const { store } = await seeded();
      await store.remittances.record(fileOf('r1', 3), [
        { line: 2, trackingNumber: 'WB1', amount: '1500.00', outcome: 'matched' },
        { line: 3, trackingNumber: 'WB2', amount: '1.00', outcome: 'short' },
        { line: 4, trackingNumber: 'WB3', amount: '1.00', outcome: 'problem' },
      ]);
      const before = new Date(start + 7 * DAY);
      const page = await store.remittances.unremitted({ bookedBefore: before, paying, limit: 1 });
      expect(page.map((b) => b.trackingNumber)).toEqual(['WB3']);
      expect(page[0]).toMatchObject({ record: { codAmount: '1500.00' }, bookedBy: 'U1' });
      const rest = await store.remittances.unremitted({
        bookedBefore: before,
        paying,
        afterTrackingNumber: 'WB3',
      });
      expect(rest.map((b) => b.trackingNumber)).toEqual(['WB4']);
      expect(
        (await store.remittances.unremitted({ bookedBefore: new Date(start + 10 * DAY), paying })).map(
          (b) => b.trackingNumber,
        ),
      ).toEqual(['WB3', 'WB4', 'WB5']);
    });
  });
});
