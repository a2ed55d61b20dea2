// Runs a store test suite once per backend: SQLite in a temporary file, PostgreSQL in a throwaway database,
// each a copy of a database migrated once.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from 'vitest';
import { throwawayDatabases } from '../../fakes/throwaway-databases.js';
import { openStore, type Store, type StoreOptions } from '../../src/store/index.js';

/*
 * PostgreSQL tests need TEST_DATABASE_URL (a user allowed to CREATE DATABASE; the run makes its own
 * databases and drops them). Without it they are skipped with a line saying how to run them — except
 * under CI=true, where they fail instead: CI must never skip them silently.
 */

export type Target = { path: string } | { url: string };

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  /** This test's database, empty at its start: every store opened in one test shares it. */
  target(): Target;
  /** Opens a store on this test's database (no background lease renewal unless asked); closed after the test. */
  open(options?: Partial<StoreOptions>): Promise<Store>;
  /** Runs SQL directly on this test's database, around the store: to set up or inspect what it cannot. */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** A database nobody has migrated yet (dropped after the file). */
  emptyDatabase(): Promise<Target>;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const HOW_TO_RUN =
  'set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (a user allowed to CREATE DATABASE) to run them';

/** Stores opened by a test, closed after it. */
function openedStores(target: () => Target) {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  return async (options: Partial<StoreOptions> = {}) => {
    const store = await openStore({ ...target(), leaseRenewMs: 0, ...options });
    opened.push(store);
    return store;
  };
}

/**
 * A copy of the run's migrated SQLite file (test/support/sqlite-template.ts) in a directory of its own:
 * copying takes a fraction of the CPU of creating the schema, and no waiting on the disk for each
 * migration's commit. Opening and closing a store leaves no rows.
 */
export function migratedSqliteCopy(): { dir: string; path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-store-'));
  const path = join(dir, 'bot.sqlite');
  copyFileSync(inject('migratedSqlite'), path);
  return { dir, path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function sqliteBackend(): TestBackend {
  let copy: ReturnType<typeof migratedSqliteCopy> | undefined;
  let dir = '';
  let path = '';
  beforeEach(() => {
    copy = migratedSqliteCopy();
    ({ dir, path } = copy);
  });
  // Registered before openedStores' hook, so it runs after the stores are closed.
  afterEach(() => copy?.remove());
  let empties = 0;
  return {
    name: 'sqlite',
    target: () => ({ path }),
    open: openedStores(() => ({ path })),
    async query<R>(text: string, params: unknown[] = []) {
      const db = new Database(path);
      try {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all(...params) as R[];
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    },
    async emptyDatabase() {
      empties += 1;
      return { path: join(dir, `empty-${empties}.sqlite`) };
    },
  };
}

/** The tables, columns, triggers and functions of `client`'s database, as one string. */
async function schemaOf(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ schema: string }>(`
    SELECT string_agg(item, ',' ORDER BY item) AS schema FROM (
      SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) AS item
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
       WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
      UNION ALL SELECT 'index ' || relname FROM pg_class
       WHERE relnamespace = 'public'::regnamespace AND relkind = 'i'
      UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
      UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    ) items`);
  return rows[0]?.schema ?? '';
}

/**
 * This test process's copy of the run's migrated database (test/support/postgres-template.ts), shared by
 * the files it runs one after another, each test emptying its tables first. A copy per file cost the
 * server about a fifth of a second of CPU, and each drop waited for a checkpoint: the template's
 * teardown drops the copies, all at once. A file that left the schema changed (a test that renames a
 * table, stopped before renaming it back) gets the next file a new copy.
 */
let workerDatabase: { template: string; url: string; schema: string } | undefined;

async function workerDatabaseUrl(adminUrl: string, schemaAt: (url: string) => Promise<string>) {
  const template = inject('migratedTemplate');
  const kept = workerDatabase?.template === template ? workerDatabase : undefined;
  if (kept && (await schemaAt(kept.url)) === kept.schema) return kept.url;
  const url = await throwawayDatabases(() => adminUrl, { prefix: template }).create(template);
  workerDatabase = { template, url, schema: await schemaAt(url) };
  return url;
}

function postgresBackend(adminUrl: () => string): TestBackend {
  const databases = throwawayDatabases(adminUrl);
  let url = '';
  /**
   * One connection for the file, emptying the tables before each test and running `query`: a new one
   * each test cost the server about 14 ms of CPU (starting it, reading the catalog cold), 0.6 ms kept.
   */
  let connection: Promise<pg.Client> | undefined;
  const client = () => {
    if (connection) return connection;
    const opened = new pg.Client({ connectionString: url });
    const opening = opened.connect().then(() => opened);
    const forget = () => {
      if (connection === opening) connection = undefined;
    };
    // Ended by the server (a test ending the database's other connections), or never opened: the next
    // call opens another.
    opened.on('error', forget);
    opening.catch(forget);
    connection = opening;
    return opening;
  };
  const endConnection = async () => {
    const open = connection;
    connection = undefined;
    await (await open)?.end();
  };
  let emptyTables = '';
  beforeAll(async () => {
    url = await workerDatabaseUrl(adminUrl(), async (database) => {
      if (database !== url) await endConnection();
      url = database;
      return schemaOf(await client());
    });
    const { rows } = await (await client()).query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'store_migrations'",
    );
    // DELETE, not TRUNCATE: far quicker on a handful of rows.
    emptyTables = rows.map((row) => `DELETE FROM ${row.tablename};`).join(' ');
  });
  afterAll(async () => {
    await endConnection();
    await databases.dropAll();
  });
  beforeEach(async () => {
    await (await client()).query(emptyTables);
  });
  return {
    name: 'postgres',
    target: () => ({ url }),
    open: openedStores(() => ({ url })),
    query: async <R>(text: string, params: unknown[] = []) =>
      (await (await client()).query(text, params)).rows as R[],
    emptyDatabase: async () => ({ url: await databases.create() }),
  };
}

/** Where the PostgreSQL suite would have run, when it cannot. */
function missingPostgres(): never {
  throw new Error(
    `CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tests must run in CI; ${HOW_TO_RUN}`,
  );
}

const skippedLines = new Set<string>();

/**
 * `describe(title)` for tests that need PostgreSQL; `suite` gets TEST_DATABASE_URL (read it in a
 * hook or test, not while registering). Without it the suite is skipped with a line saying how to
 * run it, or fails under CI=true.
 */
export function describePostgres(file: string, title: string, suite: (adminUrl: () => string) => void): void {
  if (!TEST_DATABASE_URL && process.env.CI !== 'true') {
    const line = `PostgreSQL tests skipped (${basename(file)}: "${title}"): ${HOW_TO_RUN}`;
    if (!skippedLines.has(line)) console.warn(line);
    skippedLines.add(line);
    describe.skip(title, () => suite(missingPostgres));
    return;
  }
  describe(title, () => {
    if (!TEST_DATABASE_URL) beforeAll(missingPostgres);
    suite(() => TEST_DATABASE_URL ?? missingPostgres());
  });
}

/**
 * `describe(title)` once per backend; `suite` registers the tests given the backend. Without
 * TEST_DATABASE_URL the PostgreSQL run is skipped (a line says so), or fails under CI=true.
 */
export function describeEachBackend(
  file: string,
  title: string,
  suite: (backend: TestBackend) => void,
  backends: readonly TestBackend['name'][] = ['sqlite', 'postgres'],
): void {
  for (const name of backends) {
    if (name === 'sqlite') describe(`${title} [sqlite]`, () => suite(sqliteBackend()));
    else describePostgres(file, `${title} [postgres]`, (adminUrl) => suite(postgresBackend(adminUrl)));
  }
}
