// A SQLite store copied into an empty PostgreSQL database: every table, in one transaction.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { connectPostgres, isPostgresUrl } from './backend.js';
import { redactUrl, StoreError } from './errors.js';
import { MIGRATIONS, migrate } from './migrations.js';
import type { Db } from './schema.js';

export interface CopyOptions {
  /** The SQLite file (DATABASE_PATH). */
  from: string;
  /** The PostgreSQL database (DATABASE_URL): empty, or migrated with no rows. */
  to: string;
  /** Each line of the report. */
  say: (line: string) => void;
  /** How long to wait for the source's write lock. */
  busyTimeoutMs?: number;
  now?: () => number;
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** PostgreSQL takes at most 65,535 parameters a statement; the widest table has 18 columns. */
const ROWS_PER_INSERT = 500;

const require = createRequire(import.meta.url);

/** The store's tables in the source: its own schema, so a table a migration adds is copied too. */
interface SourceTable {
  name: string;
  columns: string[];
  /** Tables its foreign keys name: copied before it. */
  references: string[];
}

function sourceTables(source: BetterSqlite3.Database): SourceTable[] {
  const names = source
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> 'store_migrations' order by name",
    )
    .pluck()
    .all() as string[];
  return names.map((name) => ({
    name,
    columns: (source.pragma(`table_info("${name}")`) as { name: string }[]).map((column) => column.name),
    references: (source.pragma(`foreign_key_list("${name}")`) as { table: string }[]).map((fk) => fk.table),
  }));
}

/** Referenced tables first, else by name. */
function inCopyOrder(tables: SourceTable[]): SourceTable[] {
  const ordered: SourceTable[] = [];
  const place = (table: SourceTable) => {
    if (ordered.includes(table)) return;
    for (const name of table.references) {
      const referenced = tables.find((other) => other.name === name && other !== table);
      if (referenced) place(referenced);
    }
    ordered.push(table);
  };
  tables.forEach(place);
  return ordered;
}

/** The source must be at this build's migration, as the target will be. */
function checkSourceVersion(source: BetterSqlite3.Database, from: string): void {
  const hasList = source
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'store_migrations'")
    .get();
  const applied = hasList
    ? (source.prepare('select version, name from store_migrations order by version').all() as {
        version: number;
        name: string;
      }[])
    : [];
  const version = hasList ? applied.length : (source.pragma('user_version', { simple: true }) as number);
  if (version === 0) throw new StoreError(`${from} is not the bot's store (no migration recorded in it)`);
  const known = applied.every(({ version, name }) => MIGRATIONS[version - 1]?.name === name);
  if (!known || version > MIGRATIONS.length) {
    throw new StoreError(
      `${from} was migrated by a newer build of the bot (migration ${version}; this build knows ${MIGRATIONS.length}): copy it with that build`,
    );
  }
  if (version < MIGRATIONS.length) {
    throw new StoreError(
      `${from} is at migration ${version} and this build at ${MIGRATIONS.length}: start this build's bot on it once (it migrates the file), stop it, then copy`,
    );
  }
}

/** A bot using the file holds a lease it renews; a clean stop gives it up. */
function checkNoBot(source: BetterSqlite3.Database, from: string, now: number): void {
  const live = source
    .prepare(
      'select replica_id, expires_at from replica_leases where expires_at > ? order by expires_at desc',
    )
    .all(now) as { replica_id: string; expires_at: number }[];
  const [latest] = live;
  if (latest) {
    throw new StoreError(
      `${from} is in use by a running bot (replica ${live.map((lease) => lease.replica_id).join(', ')}): stop every bot using it first; one that was killed holds its lease until ${new Date(latest.expires_at).toISOString()}`,
    );
  }
}

/** Opens the file and holds its write lock until closed, so no bot writes to it meanwhile. */
function openSource(from: string, busyTimeoutMs: number): BetterSqlite3.Database {
  if (!existsSync(from)) throw new StoreError(`--from ${from}: no such file`);
  const Database: typeof BetterSqlite3 = require('better-sqlite3');
  const source = new Database(from, { fileMustExist: true, timeout: busyTimeoutMs });
  try {
    source.exec('begin immediate');
  } catch (err) {
    source.close();
    const busy = /^SQLITE_BUSY/.test(String((err as { code?: unknown }).code));
    if (!busy) throw err;
    throw new StoreError(
      `${from} is being written (another process held its write lock for ${busyTimeoutMs} ms): stop every bot using it first`,
    );
  }
  return source;
}

async function countRows(db: Db, tables: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts.set(table, Number(rows[0]?.n ?? 0));
  }
  return counts;
}

async function insertRows(db: Db, table: SourceTable, rows: Record<string, unknown>[]): Promise<void> {
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const values = rows.map((row) => sql`(${sql.join(table.columns.map((column) => row[column]))})`);
  await sql`insert into ${sql.table(table.name)} (${columns}) values ${sql.join(values)}`.execute(db);
}

async function copyTable(source: BetterSqlite3.Database, db: Db, table: SourceTable): Promise<void> {
  let batch: Record<string, unknown>[] = [];
  for (const row of source.prepare(`select * from "${table.name}"`).iterate()) {
    batch.push(row as Record<string, unknown>);
    if (batch.length === ROWS_PER_INSERT) {
      await insertRows(db, table, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insertRows(db, table, batch);
}

/**
 * Identity columns (the audit's id, the activity's seq) go on from SQLite's: the highest ever
 * given out, which sqlite_sequence keeps even once those rows are purged.
 */
async function continueIdentities(source: BetterSqlite3.Database, db: Db): Promise<void> {
  const given = new Map(
    (source.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map(
      (row) => [row.name, row.seq],
    ),
  );
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES'`.execute(db);
  for (const { table_name, column_name } of rows) {
    const { rows: top } = await sql<{ n: number | null }>`
      select max(${sql.ref(column_name)}) as n from ${sql.table(table_name)}`.execute(db);
    const last = Math.max(Number(top[0]?.n ?? 0), given.get(table_name) ?? 0);
    if (last > 0) {
      await sql`select setval(pg_get_serial_sequence(${table_name}, ${column_name}), ${last})`.execute(db);
    }
  }
}

function countsTable(tables: readonly TableCount[]): string[] {
  const width = Math.max(...tables.map(({ table }) => table.length), 'table'.length);
  const line = (table: string, source: string, target: string) =>
    `  ${table.padEnd(width)}  ${source.padStart(8)}  ${target.padStart(8)}`;
  return [
    line('table', 'SQLite', 'Postgres'),
    ...tables.map(({ table, source, target }) => line(table, String(source), String(target))),
  ];
}

/**
 * Copies every table of the SQLite store `from` into the PostgreSQL database `to` in one
 * transaction, after checking: no bot uses the file (its write lock is held throughout), both are
 * at this build's migration (an empty target is migrated in the same transaction), the target
 * holds no row. A failure leaves the target as it was. Returns the counts after the copy.
 */
export async function copyStore(options: CopyOptions): Promise<TableCount[]> {
  const { from, to, say } = options;
  if (!isPostgresUrl(to)) throw new StoreError('--to must be a postgres:// or postgresql:// URL');
  say(`Copying ${from} into ${redactUrl(to)}`);
  const now = options.now ?? Date.now;
  const source = openSource(from, options.busyTimeoutMs ?? 5_000);
  const target = connectPostgres(to, {
    poolSize: 1,
    connectTimeoutMs: 5_000,
    poolWaitMs: 10_000,
    statementTimeoutMs: 10_000,
  });
  try {
    checkSourceVersion(source, from);
    checkNoBot(source, from, now());
    const tables = inCopyOrder(sourceTables(source));
    const names = tables.map((table) => table.name).sort();
    const sourceCounts = new Map(
      names.map((name) => [name, source.prepare(`select count(*) from "${name}"`).pluck().get() as number]),
    );
    const counted = (targetCounts: Map<string, number>) =>
      names.map((table) => ({
        table,
        source: sourceCounts.get(table) ?? 0,
        target: targetCounts.get(table) ?? 0,
      }));
    return await target.transaction(async (db) => {
      // In this transaction: a refusal or a failure rolls the migration back with the rest.
      await migrate({ ...target, transaction: (fn) => fn(db) }, now());
      const { rows } = await sql<{ tablename: string }>`
        select tablename from pg_tables where schemaname = current_schema() order by tablename`.execute(db);
      const present = rows.map((row) => row.tablename).filter((name) => name !== 'store_migrations');
      const missing = names.filter((name) => !present.includes(name));
      if (missing.length > 0) throw new StoreError(`the target has no table ${missing.join(', ')}`);
      const before = await countRows(db, present);
      const there = present.flatMap((table) => {
        const known = names.includes(table);
        const count = before.get(table) ?? 0;
        if (known && count === 0) return [];
        const rows = `${count} ${count === 1 ? 'row' : 'rows'}`;
        return [`${table} (${rows}${known ? '' : ", a table the bot's store does not have"})`];
      });
      if (there.length > 0) {
        throw new StoreError(
          `the target is not empty: ${there.join(', ')}; copy only into an empty database`,
        );
      }
      say(`Both at migration ${MIGRATIONS.length}; the target is empty. Before:`);
      countsTable(counted(before)).forEach(say);
      for (const table of tables) await copyTable(source, db, table);
      await continueIdentities(source, db);
      const after = counted(await countRows(db, names));
      say('After:');
      countsTable(after).forEach(say);
      const differing = after.filter(({ source, target }) => source !== target);
      if (differing.length > 0) {
        throw new StoreError(
          `counts differ after the copy (${differing.map(({ table }) => table).join(', ')}): nothing was copied`,
        );
      }
      const total = after.reduce((sum, { source }) => sum + source, 0);
      say(`Every table matches: ${after.length} tables, ${total} rows, copied in one transaction.`);
      return after;
    });
  } catch (err) {
    throw target.translate(err);
  } finally {
    source.close();
    await target.close();
  }
}
