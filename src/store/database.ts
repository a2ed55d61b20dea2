import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opening the bot's SQLite database and bringing its schema up to date.
 *
 * The schema version lives in `PRAGMA user_version`. Every migration below with a higher
 * number than the stored version is applied, in order, inside one IMMEDIATE transaction
 * (so two processes starting together cannot both migrate), and the version is bumped in
 * that same transaction: a failed migration leaves the database as it was. Reopening an
 * up-to-date database applies nothing.
 *
 * Migrations are append-only: never edit one that has shipped, add a new one.
 */

export type SqliteDatabase = Database.Database;

export interface Migration {
  /** 1, 2, 3, … with no gaps. */
  version: number;
  name: string;
  up: string | ((db: SqliteDatabase) => void);
}

export const DEFAULT_DATABASE_PATH = './data/waybill-bot.sqlite';

/** Milliseconds a writer waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'drafts, bookings, attempts, audit',
    up: `
      CREATE TABLE drafts (
        id          TEXT    PRIMARY KEY,
        kind        TEXT    NOT NULL,
        user_id     TEXT    NOT NULL,
        channel_id  TEXT    NOT NULL,
        data        TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX drafts_expires_at ON drafts (expires_at);

      CREATE TABLE bookings (
        tracking_number  TEXT    PRIMARY KEY,
        tracking_ref_no  TEXT    NOT NULL,
        record           TEXT    NOT NULL,
        version          INTEGER NOT NULL,
        channel_id       TEXT    NOT NULL,
        card_channel_id  TEXT,
        card_ts          TEXT,
        audit_card_ts    TEXT,
        booked_by        TEXT    NOT NULL,
        booked_at        INTEGER NOT NULL,
        updated_by       TEXT,
        updated_at       INTEGER
      ) STRICT;

      CREATE TABLE attempts (
        key         TEXT    PRIMARY KEY,
        operation   TEXT    NOT NULL,
        state       TEXT    NOT NULL CHECK (state IN ('in-flight', 'succeeded', 'failed', 'unknown')),
        result      TEXT,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX attempts_state ON attempts (state);

      CREATE TABLE audit (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        at               INTEGER NOT NULL,
        user_id          TEXT    NOT NULL,
        operation        TEXT    NOT NULL,
        tracking_number  TEXT,
        outcome          TEXT    NOT NULL,
        request          TEXT,
        response         TEXT,
        detail           TEXT
      ) STRICT;
      CREATE INDEX audit_tracking_number ON audit (tracking_number, id);
      CREATE INDEX audit_operation ON audit (operation, id);
    `,
  },
  {
    version: 2,
    name: 'tracking number counters and reservations',
    up: `
      CREATE TABLE tracking_counters (
        prefix  TEXT    PRIMARY KEY,
        last    INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE tracking_reserved (
        tracking_number  TEXT    PRIMARY KEY,
        reserved_at      INTEGER NOT NULL
      ) STRICT;

      -- Numbers already booked before this table existed are used: never hand them out.
      INSERT OR IGNORE INTO tracking_reserved (tracking_number, reserved_at)
        SELECT tracking_number, booked_at FROM bookings;
    `,
  },
  {
    version: 3,
    name: 'attempts: waybill, person, conversation and claim',
    up: (db) => {
      db.exec(`
        ALTER TABLE attempts ADD COLUMN tracking_number TEXT;
        ALTER TABLE attempts ADD COLUMN user_id TEXT;
        ALTER TABLE attempts ADD COLUMN channel_id TEXT;
        ALTER TABLE attempts ADD COLUMN claim TEXT;
        ALTER TABLE attempts ADD COLUMN superseded_by TEXT;
        CREATE INDEX attempts_claim ON attempts (claim) WHERE claim IS NOT NULL;
      `);
      // Rows written before this version had the tracking number only inside their key, in one of
      // these two shapes; later keys are never read apart.
      const legacy = [/^book:[^:]+:(.+)$/, /^update:(.+):v\d+$/];
      const rows = db.prepare<[], { key: string }>('SELECT key FROM attempts').all();
      const set = db.prepare<[string, string]>('UPDATE attempts SET tracking_number = ? WHERE key = ?');
      for (const { key } of rows) {
        const trackingNumber = legacy.map((shape) => shape.exec(key)?.[1]).find(Boolean);
        if (trackingNumber) set.run(trackingNumber, key);
      }
    },
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration newer than the database's version; returns the versions applied.
 * Throws if the database was written by a newer build (its version is beyond the list).
 */
export function migrate(db: SqliteDatabase, migrations: readonly Migration[] = MIGRATIONS): number[] {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration list out of order: expected version ${index + 1}, got ${migration.version}`);
    }
  });
  const latest = migrations.length;
  const run = db.transaction((): number[] => {
    const current = schemaVersion(db);
    if (current > latest) {
      throw new Error(
        `Database schema version ${current} is newer than this build knows (${latest}); refusing to open it`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations.slice(current)) {
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db);
      applied.push(migration.version);
    }
    if (applied.length > 0) db.pragma(`user_version = ${latest}`);
    return applied;
  });
  return run.immediate();
}

export interface OpenDatabaseOptions {
  /** For tests: migrate only this far (defaults to every migration). */
  migrations?: readonly Migration[];
}

/**
 * Opens (creating it and its parent directory if needed) the database at `path`, or an
 * in-memory one for `':memory:'`, sets WAL, busy_timeout and foreign keys, and migrates it.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
