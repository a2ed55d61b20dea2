/**
 * `store:copy`, the bundle as a process: a SQLite store with a row in every table of its schema copied row
 * for row, the next tracking number, audit id and abandoned call on PostgreSQL, a bot there booking
 * `WB000004`; refused (and the target unchanged) when the target has rows or a table not the bot's, a bot
 * holds the file's lease or write lock, either side is at another migration; a failure half-way leaves the
 * target empty; the URL's password masked.
 */
// `npm run store:copy`: a SQLite store with every kind of row copied into PostgreSQL by the bundled command, and what it refuses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { throwawayDatabases, withClient } from '../../fakes/throwaway-databases.js';
import { connectPostgres, connectSqlite } from '../../src/store/backend.js';
import { openStore, type Store } from '../../src/store/index.js';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { maria } from '../fixtures/parties.js';
import { fillToReview } from '../support/booking-flow.js';
import { startTestBot } from '../support/bot-harness.js';
import { closedPort, killStarted, spawnBundle } from '../support/bot-process.js';
import { describePostgres } from './backends.js';

type Row = Record<string, unknown>;

/** A row with its columns in name order, so both databases' rows compare as text. */
const canonical = (row: Row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort()));

function sqliteRows(path: string, table: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`select * from "${table}"`).all() as Row[]).map(canonical).sort();
  } finally {
    db.close();
  }
}

function sqliteTables(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'",
      )
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

/** BIGINT read as a number, as the store reads it. */
const numbersAsNumbers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

async function postgresRows(url: string, table: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, types: numbersAsNumbers });
  await client.connect();
  try {
    return (await client.query(`select * from "${table}"`)).rows.map(canonical).sort();
  } finally {
    await client.end();
  }
}

const postgresTables = (url: string) =>
  withClient(url, async (client) =>
    (
      await client.query<{ tablename: string }>("select tablename from pg_tables where schemaname = 'public'")
    ).rows
      .map((row) => row.tablename)
      .sort(),
  );

/** The bundled command, as `npm run store:copy -- --from … --to …` runs it. */
async function storeCopy(from: string, to: string) {
  const run = spawnBundle('store-copy', {}, { args: ['--from', from, '--to', to] });
  return { ...run, code: await run.exited };
}

const HOUR = 3_600_000;

/**
 * Every kind of row the bot writes, through the store itself: a booking updated and carded, a
 * reservation without a booking, a typed number, attempts done and unknown, audit, a draft, the
 * address book, a bulk file with its run and queue, a remittance, statuses, a digest, activity,
 * a delivery, a call left in flight; and the lease a replica killed an hour ago left behind.
 */
async function seed(path: string): Promise<void> {
  const store = await openStore({ path, replicaId: 'sqlite-bot', leaseRenewMs: 0 });
  try {
    await store.attempts.begin('book:draft-9', 'book', {
      trackingNumber: 'WB000009',
      userId: 'U2',
      channelId: 'C1',
      claim: 'draft-9',
    });
    const draft = await store.drafts.create({
      kind: 'booking',
      userId: 'U1',
      channelId: 'C1',
      data: { step: 'review', note: 'Ñino & <Co>' },
    });
    const numbers = [
      await store.trackingNumbers.next('WB', draft.id),
      await store.trackingNumbers.next('WB', draft.id),
      await store.trackingNumbers.next('WB', draft.id),
    ];
    expect(numbers).toEqual(['WB000001', 'WB000002', 'WB000003']);
    expect(await store.trackingNumbers.reserve('MANUAL-77', draft.id)).toBe(true);
    for (const trackingNumber of numbers.slice(0, 2)) {
      await store.attempts.begin(`book:${trackingNumber}`, 'book', {
        trackingNumber,
        userId: 'U1',
        channelId: 'C1',
        claim: trackingNumber,
        viewId: 'V1',
      });
      await store.bookings.insert({
        trackingNumber,
        trackingRefNo: `REF-${trackingNumber}`,
        record: { codAmount: '1500.00', consignee: { name: 'Maria Santos' } },
        channelId: 'C1',
        bookedBy: 'U1',
        bookedAt: new Date(),
        pickupAt: new Date(Date.now() + HOUR),
      });
      await store.attempts.finish(`book:${trackingNumber}`, 'succeeded', { trackingNumber });
      await store.audit.record({
        userId: 'U1',
        operation: 'book',
        trackingNumber,
        outcome: 'succeeded',
        request: { trackingNumber },
        response: { ok: true },
      });
    }
    await store.attempts.begin('update:WB000002:v1', 'update', { trackingNumber: 'WB000002' });
    await store.attempts.finish('update:WB000002:v1', 'unknown', { reason: 'timeout' });
    await store.bookings.updateRecord('WB000002', 1, { codAmount: '1450.50' }, 'U2');
    await store.bookings.setCard('WB000001', { cardChannelId: 'C1', cardTs: '1700000000.000100' });
    await store.audit.record({
      userId: 'U3',
      operation: 'quote',
      outcome: 'succeeded',
      detail: 'PHP 120.00',
    });
    await store.parties.save([maria]);
    await store.receivers.keep('WB000001', {
      parcels: 3,
      delivered: 1,
      failed: 2,
      returned: 0,
      refused: 1,
      flagged: true,
      confirmedBy: 'U1',
    });
    await store.deliveries.claim('trigger-1');
    await store.activity.record('U1');
    await store.imports.record({
      fileHash: 'h1',
      fileName: 'orders.csv',
      userId: 'U1',
      channelId: 'C1',
      rowCount: 2,
    });
    await store.imports.addRow('h1', 2, 'WB000010');
    await store.imports.setRow('h1', 2, { state: 'booked', trackingRefNo: 'REF-10' });
    await store.imports.startRun(
      {
        id: 'run-1',
        fileHash: 'h1',
        fileName: 'orders.csv',
        userId: 'U1',
        channelId: 'C1',
        viewId: 'V2',
        toBook: 2,
      },
      [
        { row: 2, booking: { n: 2 } },
        { row: 3, booking: { n: 3 } },
      ],
    );
    const claimed = await store.imports.claimRow();
    expect(claimed).toBeDefined();
    await store.remittances.record(
      { fileHash: 'r1', fileName: 'remit.csv', userId: 'U1', channelId: 'C1', lineCount: 2 },
      [
        { line: 2, trackingNumber: 'WB000001', amount: '1500.00', outcome: 'matched', difference: '0.00' },
        { line: 3, trackingNumber: 'ZZ9', outcome: 'not_ours' },
      ],
    );
    await store.statuses.record({ trackingNumber: 'WB000001', status: 'picked_up', userId: 'U1' });
    await store.statuses.record({
      trackingNumber: 'WB000001',
      status: 'failed_attempt',
      reason: 'no_one_home',
      note: 'Gate <locked>',
      userId: 'U2',
    });
    await store.digests.claim('2026-11-25');
    await store.statusColumns.put({
      headers: '["AWB","Status"]',
      columns: { trackingNumber: 'AWB', status: 'Status' },
      userId: 'U1',
    });
    await store.recognition.turn('C1', true, 'U1');
    await store.recognition.claim('C1', '1764000000.000100', ['WB000001']);
    const reminder = { rule: 'failed', key: 'WB000001', since: new Date(0), version: 0 };
    const batch = await store.reminders.claim({ ownerId: 'U1', lastDmAt: undefined, items: [reminder] });
    await store.reminders.sent(batch ?? '', [reminder], { channel: 'D1', ts: '1764000000.000200' });
    const sms = { trackingNumber: 'WB000001', event: 'failed_attempt', occurrence: 2 };
    await store.sms.enqueue({ ...sms, reason: 'not_at_home', attempt: 1, dueAt: new Date(0) });
    await store.sms.claim(1);
    await store.sms.update(sms, {
      state: 'done',
      outcome: 'sent',
      detail: '1001',
      message: 'Hindi <naihatid>',
      language: 'fil',
    });
    await store.sms.setOptedOut('+639181234567', true, 'U1');
  } finally {
    await store.close();
  }
  // A replica killed an hour ago leaves its lease behind, expired.
  const db = new Database(path);
  try {
    const at = Date.now() - HOUR;
    db.prepare('insert into replica_leases values (?, ?, ?, ?)').run(
      'killed-replica',
      at - HOUR,
      at,
      at + 30_000,
    );
  } finally {
    db.close();
  }
}

describePostgres(import.meta.filename, 'store:copy, SQLite into PostgreSQL', (adminUrl) => {
  const databases = throwawayDatabases(adminUrl);
  afterAll(() => databases.dropAll());
  let dir = '';
  let path = '';
  const opened: Store[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'waybill-copy-'));
    path = join(dir, 'waybill-bot.sqlite');
  });
  afterEach(async () => {
    killStarted();
    await Promise.all(opened.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table, row for row, and a bot on PostgreSQL books the next tracking number', async () => {
    await seed(path);
    const to = await databases.create();
    const copy = await storeCopy(path, to);
    expect(copy.stderr).toEqual([]);
    expect(copy.code).toBe(0);

    // Every table of the store's own schema has rows to copy, and has them in PostgreSQL too.
    const tables = sqliteTables(path);
    expect(await postgresTables(to)).toEqual([...tables].sort());
    for (const table of tables.filter((name) => name !== 'store_migrations')) {
      const rows = sqliteRows(path, table);
      expect(rows.length, `the seeded store has no row in ${table}: add one to seed()`).toBeGreaterThan(0);
      expect(await postgresRows(to, table), table).toEqual(rows);
    }
    // The same migrations, applied to the target when it was copied into.
    const applied = (rows: string[]) => rows.map((row) => JSON.parse(row).name).sort();
    expect(applied(await postgresRows(to, 'store_migrations'))).toEqual(
      applied(sqliteRows(path, 'store_migrations')),
    );
    // Counts before (the target empty) and after (equal), table by table.
    const before = copy.lines.indexOf('After:');
    expect(before).toBeGreaterThan(0);
    for (const table of tables.filter((name) => name !== 'store_migrations')) {
      const count = sqliteRows(path, table).length;
      const line = (target: number) => new RegExp(`^  ${table} +${count} +${target}$`);
      expect(
        copy.lines.slice(0, before).some((text) => line(0).test(text)),
        table,
      ).toBe(true);
      expect(
        copy.lines.slice(before).some((text) => line(count).test(text)),
        table,
      ).toBe(true);
    }
    expect(copy.lines.at(-1)).toMatch(/^Every table matches: \d+ tables, \d+ rows/);

    const store = await openStore({ url: to, leaseRenewMs: 0 });
    opened.push(store);
    // Numbers handed out go on; used ones stay used; the audit's ids go on after the copied ones.
    expect(await store.trackingNumbers.reserve('MANUAL-77')).toBe(false);
    expect(await store.trackingNumbers.reserve('WB000003')).toBe(false);
    const [last] = await store.audit.list({ limit: 1 });
    expect(last?.detail).toBe('PHP 120.00');
    const entry = await store.audit.record({ userId: 'U9', operation: 'quote', outcome: 'succeeded' });
    expect(entry.id).toBe((last?.id ?? 0) + 1);
    // The call left in flight is recovered on PostgreSQL: no replica holding it is alive.
    expect((await store.attempts.recoverAbandoned()).map((attempt) => attempt.key)).toEqual(['book:draft-9']);

    const bot = await startTestBot({ store });
    try {
      const review = await fillToReview(bot);
      expect(JSON.stringify(review.blocks)).toContain('WB000004');
      await bot.submit(review);
      await bot.updatedView(review.id, (view) => JSON.stringify(view.blocks).includes('Booked `WB000004`'));
      expect(await store.bookings.get('WB000004')).toMatchObject({ bookedBy: expect.any(String) });
    } finally {
      await bot.stop();
    }
  }, 60_000);

  it('refuses a target that is not empty, naming what is there, and changes nothing in it', async () => {
    await seed(path);
    const to = await databases.create();
    expect((await storeCopy(path, to)).code).toBe(0);
    const bookings = await postgresRows(to, 'bookings');
    const again = await storeCopy(path, to);
    expect(again.code).toBe(1);
    expect(again.stderr).toHaveLength(1);
    expect(again.stderr[0]).toMatch(/^store:copy: the target is not empty: .*bookings \(2 rows\)/);
    expect(await postgresRows(to, 'bookings')).toEqual(bookings);

    const foreign = await databases.create();
    await withClient(foreign, (client) => client.query('create table orders (id integer)'));
    const refused = await storeCopy(path, foreign);
    expect(refused.code).toBe(1);
    expect(refused.stderr[0]).toContain("orders (0 rows, a table the bot's store does not have)");
    // Not even the store's migration is left behind.
    expect(await postgresTables(foreign)).toEqual(['orders']);
  }, 30_000);

  it('leaves the target empty when the copy fails half-way', async () => {
    await seed(path);
    // PostgreSQL refuses text with a NUL in it: the last table copied fails after the others were written.
    const db = new Database(path);
    db.prepare(
      "update tracking_reserved set reserved_by = 'draft' || char(0) where tracking_number = 'MANUAL-77'",
    ).run();
    db.close();
    const to = await databases.create();
    const failed = await storeCopy(path, to);
    expect(failed.code).toBe(1);
    expect(failed.lines).toContain(`Both at migration ${MIGRATIONS.length}; the target is empty. Before:`);
    expect(failed.lines).not.toContain('After:');
    expect(failed.stderr).toHaveLength(1);
    expect(failed.stderr[0]).toMatch(/^store:copy: .*0x00/);
    expect(await postgresTables(to)).toEqual([]);
  }, 30_000);

  it('refuses while a bot uses the file, or holds its write lock', async () => {
    await seed(path);
    const to = await databases.create();
    const running = await openStore({ path, replicaId: 'running-bot', leaseRenewMs: 0 });
    opened.push(running);
    const refused = await storeCopy(path, to);
    expect(refused.code).toBe(1);
    expect(refused.stderr[0]).toMatch(/is in use by a running bot \(replica running-bot\): stop every bot/);
    await running.close();

    const writer = new Database(path);
    writer.exec('begin immediate');
    try {
      const locked = await storeCopy(path, to);
      expect(locked.code).toBe(1);
      expect(locked.stderr[0]).toMatch(/is being written .*: stop every bot using it first/);
    } finally {
      writer.exec('rollback');
      writer.close();
    }
    expect(await postgresTables(to)).toEqual([]);
  }, 30_000);

  it('prints a URL with its password masked, and a database it cannot reach as one line', async () => {
    await seed(path);
    const unreachable = await storeCopy(
      path,
      `postgres://waybill:s3cret-pw@127.0.0.1:${await closedPort()}/waybill`,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.lines[0]).toMatch(
      /^Copying .* into postgres:\/\/waybill:\*\*\*@127\.0\.0\.1:\d+\/waybill$/,
    );
    expect(unreachable.stderr).toEqual([
      expect.stringMatching(/^store:copy: The database did not answer: .*ECONNREFUSED/),
    ]);
    expect(unreachable.lines.join('\n')).not.toContain('s3cret-pw');
  });

  it('refuses stores at another migration than this build: an older file, a newer target', async () => {
    const older = connectSqlite(path, 5_000);
    await migrate(older, Date.now(), MIGRATIONS.slice(0, -1));
    await older.close();
    const to = await databases.create();
    const refused = await storeCopy(path, to);
    expect(refused.code).toBe(1);
    expect(refused.stderr[0]).toContain(
      `is at migration ${MIGRATIONS.length - 1} and this build at ${MIGRATIONS.length}: start this build's bot on it once`,
    );
    expect(await postgresTables(to)).toEqual([]);

    await (await openStore({ path, leaseRenewMs: 0 })).close();
    const newer = await databases.create();
    const future = { version: MIGRATIONS.length + 1, name: 'from a newer build', up: async () => {} };
    await (await openStore({ url: newer, leaseRenewMs: 0 })).close();
    const backend = connectPostgres(newer, {
      poolSize: 1,
      connectTimeoutMs: 5_000,
      poolWaitMs: 5_000,
      statementTimeoutMs: 5_000,
    });
    await migrate(backend, Date.now(), [...MIGRATIONS, future]);
    await backend.close();
    const tooNew = await storeCopy(path, newer);
    expect(tooNew.code).toBe(1);
    expect(tooNew.stderr[0]).toContain('migrated by a newer build');
  }, 30_000);
});
