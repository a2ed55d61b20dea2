/**
 * On SQLite and PostgreSQL: a receiver's earlier parcels by phone however typed (delivered by status or by
 * remittance, failed attempts, returned, COD refused, the latest ones for the rule), an update moving a
 * booking to another phone, checks kept once and counted by the day booked, bookings stored before the
 * migration found; on SQLite, the plans that count a parcel's failed attempts read its own statuses.
 */
// Receivers' records on SQLite and PostgreSQL: a receiver's earlier parcels by phone key, counted from
// statuses and remittances, the latest ones for the risk rule; bookings stored before it found too.
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { connectPostgres, connectSqlite } from '../../src/store/backend.js';
import type { Store } from '../../src/store/index.js';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { phoneKey } from '../../src/waybill/phones.js';
import { describeEachBackend } from './backends.js';

const MARIA = phoneKey('0917 123 4567', 'PH') ?? '';

const record = (trackingNumber: string, phone: string, codAmount = '1500.00') => ({
  trackingNumber,
  codAmount,
  consignee: { name: 'Maria Santos', phone, country: 'PH' },
});

/** A booking to `phone`, booked `minute` minutes into the day. */
async function book(store: Store, trackingNumber: string, phone: string, minute: number, codAmount?: string) {
  await store.bookings.insert({
    trackingNumber,
    trackingRefNo: `R-${trackingNumber}`,
    record: record(trackingNumber, phone, codAmount),
    channelId: 'C1',
    bookedBy: 'UANA',
    bookedAt: new Date(Date.UTC(2026, 10, 23, 0, minute)),
  });
}

const status = (store: Store, trackingNumber: string, status: string, reason?: string) =>
  store.statuses.record({ trackingNumber, status, userId: 'UANA', ...(reason ? { reason } : {}) });

describeEachBackend(import.meta.filename, 'receivers', (backend) => {
  it('counts the earlier parcels of one phone however typed: delivered (recorded or COD remitted), failed attempts, returned, COD refused; the latest ones for the rule', async () => {
    const store = await backend.open();
    // Oldest first. Only WB1..WB6 are Maria's; her phone is typed three ways.
    await book(store, 'WB1', '0917 123 4567', 1);
    await book(store, 'WB2', '+63 917 123 4567', 2);
    await book(store, 'WB3', '(0917) 123-4567', 3, '0.00');
    await book(store, 'WB4', '0917 123 4567', 4);
    await book(store, 'WB5', '0917 123 4567', 5);
    await book(store, 'WB6', '0917 123 4567', 6);
    await book(store, 'WB7', '0918 765 4321', 7);
    await status(store, 'WB1', 'returned');
    await status(store, 'WB2', 'failed_attempt', 'refused');
    await status(store, 'WB2', 'delivered');
    // A refusal of a prepaid parcel is a failed attempt, not a COD refusal.
    await status(store, 'WB3', 'failed_attempt', 'refused');
    await status(store, 'WB4', 'failed_attempt', 'not_at_home');
    await status(store, 'WB4', 'failed_attempt', 'wrong_address');
    await status(store, 'WB7', 'returned');
    // WB5's COD remitted with no status recorded: delivered. WB1's remittance line paid nothing.
    await store.remittances.record(
      { fileHash: 'h1', fileName: 'r.csv', userId: 'UANA', channelId: 'C1', lineCount: 2 },
      [
        { line: 1, trackingNumber: 'WB5', amount: '1450.00', outcome: 'matched' },
        { line: 2, trackingNumber: 'WB1', amount: '0.00', outcome: 'matched' },
      ],
    );

    const history = await store.receivers.history(MARIA, { returns: 5, failed: 3 });
    expect(history).toEqual({
      parcels: 6,
      delivered: 2,
      failed: 4,
      returned: 1,
      refused: 1,
      // The latest five (WB2..WB6) hold WB2's refusal, not WB1's return; the latest three (WB4..WB6) two failed attempts.
      recent: { returns: 1, failed: 2 },
    });
    expect(await store.receivers.history(MARIA, { returns: 0, failed: 0 })).toMatchObject({
      recent: { returns: 0, failed: 0 },
    });
    expect(
      await store.receivers.history(phoneKey('0919 000 0000', 'PH') ?? '', { returns: 5, failed: 5 }),
    ).toEqual({
      parcels: 0,
      delivered: 0,
      failed: 0,
      returned: 0,
      refused: 0,
      recent: { returns: 0, failed: 0 },
    });
  });

  it('an update that changes the phone moves the booking to the new receiver; checks kept once, counted by the day booked', async () => {
    const store = await backend.open();
    await book(store, 'WB1', '0917 123 4567', 1);
    await store.bookings.updateRecord('WB1', 1, record('WB1', '0918 765 4321'), 'UBEN');
    expect((await store.receivers.history(MARIA, { returns: 5, failed: 5 })).parcels).toBe(0);
    expect(
      (await store.receivers.history(phoneKey('0918 765 4321', 'PH') ?? '', { returns: 5, failed: 5 }))
        .parcels,
    ).toBe(1);

    const check = { parcels: 3, delivered: 1, failed: 2, returned: 1, refused: 0, flagged: true };
    await store.receivers.keep('WB1', { ...check, confirmedBy: 'UANA' });
    await store.receivers.keep('WB1', { ...check, flagged: false });
    expect([...(await store.receivers.checksOf(['WB1', 'WB2']))]).toEqual([
      ['WB1', { ...check, confirmedBy: 'UANA' }],
    ]);
    const day = { from: new Date(Date.UTC(2026, 10, 23)), to: new Date(Date.UTC(2026, 10, 24)) };
    expect(await store.receivers.countFlagged(day)).toBe(1);
    expect(await store.receivers.countFlagged({ from: day.to, to: new Date(Date.UTC(2026, 10, 25)) })).toBe(
      0,
    );
  });

  it('bookings stored before the migration are found by their receiver phone', async () => {
    const target = await backend.emptyDatabase();
    const old =
      'url' in target
        ? connectPostgres(target.url, {
            poolSize: 1,
            connectTimeoutMs: 5000,
            poolWaitMs: 10_000,
            statementTimeoutMs: 10_000,
          })
        : connectSqlite(target.path, 5000);
    const before = MIGRATIONS.findIndex((migration) => migration.name.startsWith("receivers' records"));
    try {
      await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
      const json = (phone: string) => JSON.stringify(record('x', phone));
      await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
        values ('WB1', 'R1', ${json('+63 917 123 4567')}, 1, 'C1', 'UANA', 0),
          ('WB2', 'R2', ${json('not a phone')}, 1, 'C1', 'UANA', 1), ('WB3', 'R3', 'null', 1, 'C1', 'UANA', 2)`.execute(
        old.db,
      );
    } finally {
      await old.close();
    }
    const store = await backend.open(target);
    expect((await store.receivers.history(MARIA, { returns: 5, failed: 5 })).parcels).toBe(1);
  });

  if (backend.name === 'sqlite') {
    it("counts each parcel's failed attempts from its own statuses, not from every failed attempt in the store (SQLite's plans)", async () => {
      // The statements the store prepares while it reads a receiver's record and the attention rule's
      // failed attempts; SQLite chose the status index for them once, a walk over the whole store.
      const prepared: string[] = [];
      const prepare = Database.prototype.prepare;
      Database.prototype.prepare = function (this: Database.Database, text: string) {
        prepared.push(text);
        return prepare.call(this, text);
      } as typeof prepare;
      try {
        const store = await backend.open();
        await book(store, 'WB1', '0917 123 4567', 1);
        await status(store, 'WB1', 'failed_attempt', 'refused');
        await store.receivers.history(MARIA, { returns: 5, failed: 5 });
        const [row] = await store.attention.lastStatusBefore({
          statuses: ['failed_attempt'],
          before: new Date(Date.UTC(2030, 0, 1)),
          counting: 'failed_attempt',
        });
        expect(row?.counted).toBe(1);
      } finally {
        Database.prototype.prepare = prepare;
      }
      const counting = prepared.filter(
        (text) =>
          text.includes('receiver_phone = ?') ||
          /from "booking_status" .*group by "tracking_number"/s.test(text),
      );
      expect(counting).toHaveLength(2);
      for (const text of counting) {
        const parameters = Array.from(text.matchAll(/\?/g), () => null);
        const plan = await backend.query<{ detail: string }>(`explain query plan ${text}`, parameters);
        const statusReads = plan
          .map((step) => step.detail)
          .filter((detail) => / s\b| booking_status\b/.test(detail));
        expect(statusReads.length, text).toBeGreaterThan(0);
        for (const detail of statusReads) expect(detail, text).not.toMatch(/booking_status_status_at/);
      }
    });
  }
});
