/** Rows written straight into a migrated store's tables in one transaction (SQLite or PostgreSQL): the seeders' shared writer. */
import Database from 'better-sqlite3';
import type { Insertable } from 'kysely';
import pg from 'pg';
import { openStore } from '../src/store/index.js';
import type { Tables } from '../src/store/schema.js';

export type StoreTarget = { path: string } | { url: string };

/** PostgreSQL takes at most 65,535 parameters a statement, SQLite 32,766; a batch stays under both. */
const MAX_PARAMETERS = 30_000;

/** `rows` in statements of up to MAX_PARAMETERS values: each one's values clause (`placeholder(n)` the nth value's) and values. */
function* batches(rows: object[], columns: string[], placeholder: (n: number) => string) {
  const batch = Math.floor(MAX_PARAMETERS / columns.length);
  for (let from = 0; from < rows.length; from += batch) {
    const slice = rows.slice(from, from + batch);
    yield {
      values: slice
        .map((_, j) => `(${columns.map((_, k) => placeholder(j * columns.length + k + 1)).join(', ')})`)
        .join(', '),
      parameters: slice.flatMap((row) => columns.map((c) => (row as Record<string, unknown>)[c])),
    };
  }
}

export interface BulkWriter {
  /** Appends rows (shaped by the store's own schema) to `table`; rows of one call share their columns. */
  insert<T extends keyof Tables>(table: T, rows: Insertable<Tables[T]>[]): Promise<void>;
  /** Commits; on PostgreSQL, then vacuums and analyzes the tables written, as autovacuum leaves a store in use. */
  commit(): Promise<void>;
  /** Rolls back what is not committed and lets go of the connection. */
  close(): Promise<void>;
}

/** Creates (or migrates) the store at `target`, then opens one transaction on it for bulk inserts. */
export async function bulkWriter(target: StoreTarget): Promise<BulkWriter> {
  await (await openStore({ ...target, leaseRenewMs: 0 })).close();
  const columnsOf = (rows: object[]) => Object.keys(rows[0] ?? {});
  if ('path' in target) {
    const db = new Database(target.path);
    db.exec('begin');
    return {
      async insert(table, rows) {
        const columns = columnsOf(rows);
        if (columns.length === 0) return;
        // Many rows a statement: one a statement cost several times the CPU.
        for (const { values, parameters } of batches(rows, columns, () => '?'))
          db.prepare(`insert into ${table} (${columns.join(', ')}) values ${values}`).run(parameters);
      },
      async commit() {
        db.exec('commit');
      },
      async close() {
        if (db.inTransaction) db.exec('rollback');
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  await client.query('begin');
  const written = new Set<string>();
  let open = true;
  return {
    async insert(table, rows) {
      const columns = columnsOf(rows);
      if (columns.length === 0) return;
      written.add(table);
      for (const { values, parameters } of batches(rows, columns, (n) => `$${n}`))
        await client.query(`insert into ${table} (${columns.join(', ')}) values ${values}`, parameters);
    },
    async commit() {
      await client.query('commit');
      open = false;
      if (written.size > 0) await client.query(`vacuum analyze ${[...written].join(', ')}`);
    },
    async close() {
      if (open) await client.query('rollback');
      await client.end();
    },
  };
}

/** One transaction around `write`, committed when it returns. */
export async function writeRows(
  target: StoreTarget,
  write: (writer: BulkWriter) => Promise<void>,
): Promise<void> {
  const writer = await bulkWriter(target);
  try {
    await write(writer);
    await writer.commit();
  } finally {
    await writer.close();
  }
}
