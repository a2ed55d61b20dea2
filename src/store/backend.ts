// Connecting to SQLite or PostgreSQL: the one place that knows which database runs.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  type Driver,
  Kysely,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  sql,
} from 'kysely';
import type pg from 'pg';
import { StoreError, StoreUnavailableError } from './errors.js';
import { PoolDialect } from './postgres-driver.js';
import type { Db, Tables } from './schema.js';

export type BackendKind = 'sqlite' | 'postgres';

export interface Backend {
  kind: BackendKind;
  db: Db;
  /** Runs `fn` on one connection inside BEGIN … COMMIT (ROLLBACK when it rejects). */
  transaction<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction holds `name`, and holds it until this
   * one ends. (SQLite's transactions hold the whole database already.)
   */
  lock(db: Db, name: string): Promise<void>;
  /** A driver error that means the database is out of reach becomes a StoreUnavailableError. */
  translate(err: unknown): unknown;
  /** PostgreSQL: the pool's connections in use and the callers waiting for one. */
  pool?: () => PoolUse;
  close(): Promise<void>;
}

export interface PoolUse {
  inUse: number;
  waiting: number;
}

export interface PostgresOptions {
  /** Connections per replica. */
  poolSize: number;
  /** How long opening a new connection may take. */
  connectTimeoutMs: number;
  /** How long a query may wait for a pooled connection while all are busy. */
  poolWaitMs: number;
  /** The server cancels any statement running longer. */
  statementTimeoutMs: number;
  /** A pooled connection failed (the server ended it, the network dropped it). */
  onPoolError?: (err: Error) => void;
}

export const DEFAULT_DATABASE_PATH = './data/waybill-bot.sqlite';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The message of an error, or of the first error inside an AggregateError (a refused dual-stack connect). */
function reasonOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return reasonOf(err.errors[0] ?? err.name);
  if (err instanceof Error) return err.message || String((err as { code?: unknown }).code ?? err.name);
  return String(err);
}

function codeOf(err: unknown): string {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}

/** One line, whatever the driver put in the message. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `phrase` turns the driver's reason into the one the error gives (secrets masked). */
function translator(isUnavailable: (err: unknown) => boolean, phrase: (text: string) => string) {
  return (err: unknown): unknown => {
    if (err instanceof StoreError || !isUnavailable(err)) return err;
    return new StoreUnavailableError(phrase(oneLine(reasonOf(err))), { cause: err });
  };
}

function backend(
  kind: BackendKind,
  db: Db,
  begin: string,
  translate: (err: unknown) => unknown,
  lock: Backend['lock'],
): Backend {
  return {
    kind,
    db,
    translate,
    lock,
    transaction: (fn) =>
      db.connection().execute(async (connection) => {
        await sql.raw(begin).execute(connection);
        try {
          const result = await fn(connection);
          await sql.raw('commit').execute(connection);
          return result;
        } catch (err) {
          // A lost connection cannot roll back; the server discards the transaction itself.
          await sql
            .raw('rollback')
            .execute(connection)
            .catch(() => undefined);
          throw err;
        }
      }),
    close: () => db.destroy(),
  };
}

const require = createRequire(import.meta.url);

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

/** Per file in this process: the promise the next user of that file waits for. */
const fileTurns = new Map<string, Promise<void>>();

/**
 * Waits for this process's turn at `file` (at most `timeoutMs`, as SQLite's own busy timeout)
 * and returns the function that ends the turn.
 */
async function takeTurn(file: string, timeoutMs: number): Promise<() => void> {
  const previous = fileTurns.get(file) ?? Promise.resolve();
  let end = () => {};
  const turn = new Promise<void>((resolve) => {
    end = resolve;
  });
  const tail = previous.then(() => turn);
  fileTurns.set(file, tail);
  const done = () => {
    if (fileTurns.get(file) === tail) fileTurns.delete(file);
    end();
  };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ready = await Promise.race([previous.then(() => true), timedOut]);
  clearTimeout(timer);
  if (!ready) {
    // Give the turn up at once, so those queued behind are not held up by it.
    done();
    throw Object.assign(new Error('database is locked (by this process)'), { code: 'SQLITE_BUSY' });
  }
  return done;
}

/**
 * better-sqlite3 waits for another connection's lock by blocking the thread, so two stores on
 * one file in one process would stall each other inside a transaction (the holder cannot run
 * while the waiter blocks). They take turns instead: the file is used by one store at a time.
 */
class TurnTakingSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly file: string,
    private readonly timeoutMs: number,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    // The driver hands out its one connection to one user at a time, so turns end in order.
    const turns: (() => void)[] = [];
    return {
      init: () => driver.init(),
      acquireConnection: async () => {
        turns.push(await takeTurn(this.file, this.timeoutMs));
        return driver.acquireConnection();
      },
      beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
      commitTransaction: (connection) => driver.commitTransaction(connection),
      rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
      releaseConnection: async (connection) => {
        await driver.releaseConnection(connection);
        turns.shift()?.();
      },
      destroy: () => driver.destroy(),
    };
  }
}

/** How many prepared statements are kept: the store's queries are a few dozen texts. */
const STATEMENTS_KEPT = 200;

/**
 * Each statement prepared once and kept by its SQL text. The query builder prepares one for every
 * query it runs otherwise: SQLite compiles it again each time, and each lives until it is collected
 * (with better-sqlite3 13 that held 14 MB of the bot's peak on Node 24, measured by npm run bench).
 * `in (…)` lists make the texts open-ended, so the least recently used go first; a statement still
 * being iterated is not handed out again.
 */
export function preparingOnce(database: BetterSqlite3.Database): SqliteDatabase {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(text) {
      const statement = kept.get(text);
      if (statement?.busy) return database.prepare(text);
      kept.delete(text);
      const fresh = statement ?? database.prepare(text);
      kept.set(text, fresh);
      if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
      return fresh;
    },
  };
}

/**
 * Switching a file to WAL needs it to itself. Processes opening a new file at once can be refused
 * with SQLITE_BUSY straight away, without SQLite's busy timeout (it would risk a deadlock), so the
 * switch is tried again, briefly apart, within that timeout.
 */
function switchToWal(database: BetterSqlite3.Database, timeoutMs: number): void {
  const giveUpAt = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (codeOf(err) !== 'SQLITE_BUSY' || Date.now() >= giveUpAt) throw err;
      // Start-up only, before anything else runs: a blocking 10 ms wait costs nobody.
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/**
 * Creates `directory` and its missing parents, one level at a time. Node's recursive mkdir tries again
 * for ever where a file system answers ENOENT under a parent that exists (/proc): here that error ends it.
 */
function makeDirectory(directory: string): void {
  const isDirectory = (dir: string) => existsSync(dir) && statSync(dir).isDirectory();
  const missing: string[] = [];
  for (let dir = directory; !isDirectory(dir); dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (err) {
      // Another replica starting at the same time may have made it first; a file there is in the way.
      if (codeOf(err) !== 'EEXIST' || !isDirectory(dir)) throw err;
    }
  }
}

/**
 * Opens (creating it and its directory if needed) the SQLite file at `path`, or an in-memory
 * database for `':memory:'`, with WAL and a busy timeout so several processes can share a file.
 */
export function connectSqlite(path: string, busyTimeoutMs: number): Backend {
  const inMemory = path === ':memory:' || path === '';
  const translate = translator(
    (err) => SQLITE_UNAVAILABLE.test(codeOf(err)),
    (text) => text,
  );
  let database: BetterSqlite3.Database;
  try {
    if (!inMemory) makeDirectory(dirname(resolve(path)));
    // Loaded on first use: a PostgreSQL deployment never loads the native driver.
    const Database: typeof BetterSqlite3 = require('better-sqlite3');
    database = new Database(path, { timeout: busyTimeoutMs });
    switchToWal(database, busyTimeoutMs);
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
  } catch (err) {
    throw translate(err);
  }
  const preparing = preparingOnce(database);
  const db = new Kysely<Tables>({
    dialect: inMemory
      ? new SqliteDialect({ database: preparing })
      : new TurnTakingSqliteDialect({ database: preparing }, resolve(path), busyTimeoutMs),
  });
  // IMMEDIATE takes the write lock up front, so a transaction that reads first cannot deadlock another process.
  return backend('sqlite', db, 'begin immediate', translate, async () => {});
}

const PG_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown: the backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout
]);

// pg reports a dropped or timed-out connection with a plain Error and no code: "timeout expired"
// is a connection that did not open in time, "timeout exceeded…" a wait for a pooled one, "Query
// read timeout" a statement nobody answered.
const PG_UNAVAILABLE_MESSAGES =
  /connection terminated|^timeout expired$|timeout exceeded when trying to connect|not queryable|^query read timeout$/i;

function isPostgresUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  return (
    PG_UNAVAILABLE_CODES.has(code) ||
    code.startsWith('08') || // connection_exception class
    (err instanceof Error && PG_UNAVAILABLE_MESSAGES.test(err.message)) ||
    (err instanceof AggregateError && err.errors.some(isPostgresUnavailable))
  );
}

/** pg's Client, giving up on opening its connection after `timeoutMs` (the password is in the URL, which the copy keeps). */
function clientOpeningWithin(driver: typeof pg, timeoutMs: number): typeof pg.Client {
  return class extends driver.Client {
    constructor(config: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: timeoutMs });
    }
  };
}

/** A pool of connections to the PostgreSQL database at `url`; nothing is connected until the first query. */
export function connectPostgres(url: string, options: PostgresOptions): Backend {
  // Loaded on first use: a SQLite deployment never loads the PostgreSQL driver.
  const driver: typeof pg = require('pg');
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    throw new StoreError('not a valid URL (postgres://user:password@host:5432/database)');
  }
  // pg's words for its timeouts, in ours, naming the bound that ran out: a connection that did not
  // open (the database is away), a pool that stayed busy, a statement nobody answered.
  const timeouts: Record<string, string> = {
    'timeout expired': `no connection opened within ${options.connectTimeoutMs} ms`,
    'timeout exceeded when trying to connect': `all ${options.poolSize} connections stayed in use for ${options.poolWaitMs} ms`,
    'Query read timeout': `no answer to a statement within ${options.statementTimeoutMs + options.connectTimeoutMs} ms`,
  };
  const reason = (text: string) => {
    const said = timeouts[text] ?? text;
    return password ? said.replaceAll(password, '***') : said;
  };
  const pool = new driver.Pool({
    connectionString: url,
    max: options.poolSize,
    // pg-pool bounds opening a connection and waiting for a busy pool's with this one timeout.
    // Only a connection that does not open says the database is away; a full pool only says it
    // is busy, so its queue gets the longer bound and each connection the short one of its own.
    connectionTimeoutMillis: options.poolWaitMs,
    Client: clientOpeningWithin(driver, options.connectTimeoutMs),
    statement_timeout: options.statementTimeoutMs,
    // A server that answers cancels a statement at statement_timeout; one that has not even said so
    // a connect timeout later is gone (a host that hangs, a network that loses everything), and
    // TCP alone would take minutes to tell.
    query_timeout: options.statementTimeoutMs + options.connectTimeoutMs,
    keepAlive: true,
    application_name: 'waybill-bot',
    // Times are BIGINT milliseconds: read them as numbers (exact below 2^53), not strings.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === driver.types.builtins.INT8
          ? Number
          : driver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Tables>({ dialect: new PoolDialect(pool, options.onPoolError) });
  const lock = async (connection: Db, name: string) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(connection);
  };
  return {
    ...backend('postgres', db, 'begin', translator(isPostgresUnavailable, reason), lock),
    pool: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
  };
}
