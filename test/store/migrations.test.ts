/**
 * Migrations: three processes on an empty database, newer-build refusal, files of the SQLite-only store,
 * bookings stored before owners made their booker's, stored barangays read by their name.
 */
// Migrations on both backends: applied once however many replicas start, refused from a newer build, legacy files adopted.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Backend, connectPostgres, connectSqlite } from '../../src/store/backend.js';
import { NewerSchemaError, openStore } from '../../src/store/index.js';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { describeEachBackend, type Target } from './backends.js';
import { startChild } from './child.js';

const connected: Backend[] = [];
afterEach(async () => {
  await Promise.all(connected.splice(0).map((backend) => backend.close()));
});

function connectTo(target: Target): Backend {
  const backend =
    'url' in target
      ? connectPostgres(target.url, {
          poolSize: 2,
          connectTimeoutMs: 5000,
          poolWaitMs: 10_000,
          statementTimeoutMs: 10_000,
        })
      : connectSqlite(target.path, 5000);
  connected.push(backend);
  return backend;
}

async function tablesOf(backend: Backend): Promise<string[]> {
  return (await backend.db.introspection.getTables()).map((table) => table.name).sort();
}

const latest = MIGRATIONS.length;
const allVersions = MIGRATIONS.map((migration) => migration.version);

describeEachBackend(import.meta.filename, 'migrations', (backend) => {
  it('three processes migrating one empty database at once apply each migration exactly once', async () => {
    const target = await backend.emptyDatabase();
    const children = await Promise.all([1, 2, 3].map(() => startChild('migrate', { target })));
    for (const child of children) child.send('go');
    const applied = await Promise.all(
      children.map(async (child) => JSON.parse(await child.nextLine()) as number[]),
    );
    expect(applied.flat().sort((a, b) => a - b)).toEqual(allVersions);
    expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);
    expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0, 0]);

    const db = connectTo(target);
    const rows = await db.db
      .selectFrom('store_migrations')
      .select(['version', 'name'])
      .orderBy('version')
      .execute();
    expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect(await migrate(db, Date.now())).toEqual([]);
  });

  it('reopening applies nothing and keeps the data', async () => {
    const target = await backend.emptyDatabase();
    const first = await openStore({ ...target, leaseRenewMs: 0 });
    await first.trackingNumbers.reserve('X1');
    await first.close();
    expect(await migrate(connectTo(target), Date.now())).toEqual([]);
    const second = await openStore({ ...target, leaseRenewMs: 0 });
    expect(await second.trackingNumbers.reserve('X1')).toBe(false);
    await second.close();
  });

  // SQLite's store writes its lease as it opens, which waits for any writer, a migration too.
  if (backend.name === 'postgres') {
    it('a store opens on a migrated database without waiting for a newer replica migrating it', async () => {
      const target = await backend.emptyDatabase();
      await (await openStore({ ...target, leaseRenewMs: 0 })).close();
      // The newer replica's migration holds the migration lock until the test lets it go.
      let entered = () => {};
      let letGo = () => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const newer = {
        version: latest + 1,
        name: 'held by the test',
        up: async () => {
          entered();
          await held;
        },
      };
      const migrating = migrate(connectTo(target), Date.now(), [...MIGRATIONS, newer]);
      try {
        await inside;
        const store = await Promise.race([
          openStore({ ...target, leaseRenewMs: 0 }),
          new Promise<never>((_, reject) => {
            setTimeout(() => reject(new Error('the store waited for the migration lock')), 5000).unref();
          }),
        ]);
        await store.close();
      } finally {
        letGo();
      }
      expect(await migrating).toEqual([latest + 1]);
    });
  }

  it('migrates a database at an older version forward', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    expect(await migrate(old, Date.now(), MIGRATIONS.slice(0, 1))).toEqual([1]);
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', '{"a":1}', 1, 'C1', 'U1', 0)`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      expect((await store.bookings.get('WB000001'))?.record).toEqual({ a: 1 });
      // Version 2 backfilled the booked numbers as used.
      expect(await store.trackingNumbers.reserve('WB000001')).toBe(false);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
    } finally {
      await store.close();
    }
  });

  it('gives bookings stored before the pickup manifest their pickup time, from their record', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    const before = MIGRATIONS.findIndex((migration) => migration.name.startsWith('bookings by pickup time'));
    await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', '{"pickupAt":"2026-11-23T01:30:00.250Z"}', 1, 'C1', 'U1', 0),
             ('WB000002', 'R2', '{"pickupAt":"2026-11-24T01:30:00.000Z"}', 1, 'C1', 'U1', 0)`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      const day = { from: new Date('2026-11-23T00:00:00Z'), to: new Date('2026-11-24T00:00:00Z') };
      const listed = await store.bookings.listByPickup(day);
      expect(listed.map((b) => [b.trackingNumber, b.pickupAt?.toISOString()])).toEqual([
        ['WB000001', '2026-11-23T01:30:00.250Z'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('makes each booking stored before owners its booker’s', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    const before = MIGRATIONS.findIndex((migration) => migration.name === 'bookings: their owners');
    await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', '{}', 1, 'C1', 'UANA', 0), ('WB000002', 'R2', '{}', 1, 'C1', 'UBEN', 0)`.execute(
      old.db,
    );

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      const owners = await store.bookings.ownersOf(['WB000001', 'WB000002', 'WB999999']);
      expect([...owners].sort()).toEqual([
        ['WB000001', 'UANA'],
        ['WB000002', 'UBEN'],
      ]);
      const stored = await old.db
        .selectFrom('bookings')
        .select('owner_id')
        .orderBy('tracking_number')
        .execute();
      expect(stored.map((row) => row.owner_id)).toEqual(['UANA', 'UBEN']);
    } finally {
      await store.close();
    }
  });

  it('gives bookings stored before the COD rule read it their payment method, from their record; a paid one is left out', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    const before = MIGRATIONS.findIndex((migration) =>
      migration.name.startsWith('bookings: their payment method'),
    );
    await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', '{"paymentMethod":"COD"}', 1, 'C1', 'UANA', 0),
             ('WB000002', 'R2', '{"paymentMethod":"PREPAID"}', 1, 'C1', 'UANA', 0),
             ('WB000003', 'R3', '{}', 1, 'C1', 'UANA', 0),
             ('WB000004', 'R4', '{"paymentMethod":"COD"}', 1, 'C1', 'UANA', 0)`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      for (const trackingNumber of ['WB000001', 'WB000002', 'WB000003', 'WB000004'])
        await store.statuses.record({ trackingNumber, userId: 'UANA', status: 'delivered' });
      await store.remittances.record(
        { fileHash: 'h1', fileName: 'paid.csv', userId: 'UANA', channelId: 'C1', lineCount: 2 },
        [
          { line: 1, trackingNumber: 'WB000001', outcome: 'unknown' },
          { line: 2, trackingNumber: 'WB000004', amount: '100.00', outcome: 'matched' },
        ],
      );
      const cod = await store.attention.lastStatusBefore({
        statuses: ['delivered'],
        before: new Date(Date.now() + 60_000),
        paymentMethod: 'COD',
        withoutRemittance: ['matched', 'short', 'over'],
      });
      expect(cod.map((row) => row.trackingNumber)).toEqual(['WB000001']);
    } finally {
      await store.close();
    }
  });

  it('lets find see bookings stored before its channel rule was a term, each in its own conversation', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    const before = MIGRATIONS.findIndex((migration) =>
      migration.name.startsWith('bookings found by the conversation'),
    );
    await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', '{}', 1, 'CDISPATCH', 'UANA', 0),
             ('WB000002', 'R2', '{}', 1, 'CELSEWHERE', 'UANA', 1)`.execute(old.db);
    await sql`insert into booking_terms (term, tracking_number)
      values ('maria', 'WB000001'), ('maria', 'WB000002')`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      const found = await store.bookings.find({ text: 'maria', channelIds: ['CDISPATCH'], limit: 10 });
      expect(found.map((b) => b.trackingNumber)).toEqual(['WB000001']);
    } finally {
      await store.close();
    }
  });

  it('reads the barangay of bookings and drafts stored as `neighbourhood` by its name; typed values left as typed', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    const before = MIGRATIONS.findIndex((migration) => migration.name.startsWith('the barangay by its name'));
    await migrate(old, Date.now(), MIGRATIONS.slice(0, before));
    const record = JSON.stringify({
      consignee: { city: 'Cebu City', district: 'my neighbourhood', neighbourhood: 'Lahug' },
      shipper: { neighbourhood: 'San Lorenzo' },
    });
    const draft = JSON.stringify({ values: { 'consignee.neighbourhood': 'Lahug', note: 'neighbourhood"' } });
    await sql`insert into bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
      values ('WB000001', 'R1', ${record}, 1, 'C1', 'UANA', 0)`.execute(old.db);
    await sql`insert into drafts (id, kind, user_id, channel_id, data, version, created_at, updated_at, expires_at)
      values ('d1', 'booking', 'UANA', 'C1', ${draft}, 1, 0, 0, ${Date.now() + 3_600_000})`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      expect((await store.bookings.get('WB000001'))?.record).toEqual({
        consignee: { city: 'Cebu City', district: 'my neighbourhood', barangay: 'Lahug' },
        shipper: { barangay: 'San Lorenzo' },
      });
      expect((await store.drafts.get('d1'))?.data).toEqual({
        values: { 'consignee.barangay': 'Lahug', note: 'neighbourhood"' },
      });
    } finally {
      await store.close();
    }
  });

  it('keeps the calls recorded before attempts had a view, without one', async () => {
    const target = await backend.emptyDatabase();
    const old = connectTo(target);
    expect(await migrate(old, Date.now(), MIGRATIONS.slice(0, 4))).toEqual([1, 2, 3, 4]);
    await sql`insert into attempts (key, operation, state, created_at, updated_at, user_id, owner)
      values ('book:d1:WB1', 'book', 'in-flight', 0, 0, 'U1', 'gone')`.execute(old.db);

    const store = await openStore({ ...target, leaseRenewMs: 0 });
    try {
      expect(await store.attempts.recoverAbandoned()).toEqual([
        expect.objectContaining({ key: 'book:d1:WB1', userId: 'U1', state: 'unknown' }),
      ]);
      expect(await store.attempts.get('book:d1:WB1')).not.toHaveProperty('viewId');
      await store.attempts.begin('book:d2:WB2', 'book', { viewId: 'V1' });
      expect((await store.attempts.get('book:d2:WB2'))?.viewId).toBe('V1');
    } finally {
      await store.close();
    }
  });

  it('applies all pending migrations in one transaction: a failing one leaves the database as it was', async () => {
    const target = await backend.emptyDatabase();
    const db = connectTo(target);
    const broken = [
      ...MIGRATIONS,
      {
        version: latest + 1,
        name: 'broken',
        up: async (tx: Kysely<unknown>) => void (await sql`create table oops (`.execute(tx)),
      },
    ];
    await expect(migrate(db, Date.now(), broken)).rejects.toThrow();
    expect(await tablesOf(db)).toEqual([]);
  });

  it('refuses a database migrated by a newer build, with one line naming it', async () => {
    const target = await backend.emptyDatabase();
    const db = connectTo(target);
    await migrate(db, Date.now());
    await db.db
      .insertInto('store_migrations')
      .values({ version: latest + 1, name: 'something from the future', applied_at: 0 })
      .execute();
    const refused = openStore({ ...target, leaseRenewMs: 0 });
    await expect(refused).rejects.toThrow(NewerSchemaError);
    const message = (await refused.catch((err: Error) => err)) as Error;
    expect(message.message).toMatch(/newer build of the bot/);
    expect(message.message).toContain(`migration ${latest + 1} "something from the future"`);
    expect(message.message).not.toContain('\n');
  });

  it('refuses a database whose migration of a known number has another name', async () => {
    const target = await backend.emptyDatabase();
    const db = connectTo(target);
    await migrate(db, Date.now());
    await db.db
      .updateTable('store_migrations')
      .set({ name: 'renamed elsewhere' })
      .where('version', '=', latest)
      .execute();
    await expect(openStore({ ...target, leaseRenewMs: 0 })).rejects.toThrow(/newer build.*renamed elsewhere/);
  });
});

describe('the SQLite file', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'waybill-legacy-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A file as the SQLite-only store left it at `version`, with `seed` rows written at that version. */
  function legacyFile(version: 1 | 2 | 3, seed: string): string {
    const path = join(dir, 'legacy.sqlite');
    const db = new Database(path);
    for (let step = 1; step <= version; step++) {
      db.exec(readFileSync(new URL(`./fixtures/legacy-v${step}.sql`, import.meta.url), 'utf8'));
    }
    db.exec(seed);
    db.close();
    return path;
  }

  it('adopts a file made by the SQLite-only store and migrates it forward', async () => {
    const path = legacyFile(
      3,
      `INSERT INTO bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
         VALUES ('WB000001', 'R1', '{"weight":2}', 1, 'C1', 'U1', 1000);
       INSERT INTO tracking_reserved VALUES ('WB000001', 1000);
       INSERT INTO tracking_counters VALUES ('WB', 1);
       INSERT INTO attempts (key, operation, state, result, created_at, updated_at, tracking_number, user_id, channel_id, claim)
         VALUES ('book:d1:WB000002:f1', 'book', 'in-flight', NULL, 2000, 2000, 'WB000002', 'U1', 'C1', 'book:d1:WB000002');
       INSERT INTO audit (at, user_id, operation, outcome) VALUES (3000, 'U1', 'book', 'ok');`,
    );
    const store = await openStore({ path, leaseRenewMs: 0 });
    try {
      expect(await store.bookings.get('WB000001')).toMatchObject({
        trackingRefNo: 'R1',
        record: { weight: 2 },
      });
      expect(await store.audit.list()).toEqual([expect.objectContaining({ userId: 'U1', outcome: 'ok' })]);
      // The call still holds its claim against a different attempt.
      const other = await store.attempts.begin('book:d1:WB000002:f2', 'book', { claim: 'book:d1:WB000002' });
      expect(other).toMatchObject({ started: false, attempt: { key: 'book:d1:WB000002:f1' } });
      // Made before replicas were recorded: nobody owns it, so it is recovered at once.
      expect(await store.attempts.recoverAbandoned()).toEqual([
        expect.objectContaining({
          key: 'book:d1:WB000002:f1',
          state: 'unknown',
          trackingNumber: 'WB000002',
          userId: 'U1',
        }),
      ]);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
    } finally {
      await store.close();
    }
    const db = new Database(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(latest);
      expect(db.prepare('SELECT version, name FROM store_migrations ORDER BY version').all()).toEqual(
        MIGRATIONS.map(({ version, name }) => ({ version, name })),
      );
    } finally {
      db.close();
    }
  });

  it("gives attempts written before the SQLite-only store's version 3 their tracking numbers", async () => {
    const path = legacyFile(
      2,
      `INSERT INTO attempts VALUES ('book:AAAAAAAAAAAAAAAAAAAAAA:WB-7:X', 'book', 'in-flight', NULL, 1, 0);
       INSERT INTO attempts VALUES ('update:WB000001:v3', 'update', 'in-flight', NULL, 2, 0);
       INSERT INTO attempts VALUES ('something else', 'update', 'in-flight', NULL, 3, 0);`,
    );
    const store = await openStore({ path, leaseRenewMs: 0 });
    try {
      expect(await store.attempts.recoverAbandoned()).toMatchObject([
        { operation: 'book', trackingNumber: 'WB-7:X' },
        { operation: 'update', trackingNumber: 'WB000001' },
        { key: 'something else' },
      ]);
      expect(await store.attempts.get('something else')).not.toHaveProperty('trackingNumber');
    } finally {
      await store.close();
    }
  });

  it("adopts a file at the SQLite-only store's version 1, backfilling used tracking numbers", async () => {
    const path = legacyFile(
      1,
      `INSERT INTO bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
         VALUES ('WB000001', 'R1', '{}', 1, 'C1', 'U1', 1000);`,
    );
    const store = await openStore({ path, leaseRenewMs: 0 });
    try {
      expect(await store.trackingNumbers.reserve('WB000001')).toBe(false);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
    } finally {
      await store.close();
    }
  });

  it('refuses a file whose version is beyond what the SQLite-only store made, without a migration table', async () => {
    const path = join(dir, 'odd.sqlite');
    const db = new Database(path);
    db.pragma('user_version = 7');
    db.close();
    await expect(openStore({ path, leaseRenewMs: 0 })).rejects.toThrow(/newer build.*schema version 7/);
  });

  it('creates the parent directory and uses WAL; :memory: works too', async () => {
    const path = join(dir, 'nested', 'deeper', 'bot.sqlite');
    const store = await openStore({ path, leaseRenewMs: 0 });
    await store.close();
    expect(existsSync(dirname(path))).toBe(true);
    const db = new Database(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
    const memory = await openStore({ path: ':memory:', leaseRenewMs: 0 });
    await memory.audit.record({ userId: 'U1', operation: 'quote', outcome: 'ok' });
    expect(await memory.audit.list()).toHaveLength(1);
    await memory.close();
  });
});
