import { randomBytes } from 'node:crypto';
import { openDatabase, type SqliteDatabase } from './database.js';

/**
 * The bot's persistence: drafts of forms in progress, the bookings it made, every attempt to
 * call the courier (for idempotency), an audit trail and the tracking numbers it hands out.
 *
 * Synchronous (better-sqlite3). The store knows nothing about Slack or the courier's shapes:
 * `data`, `record`, `result`, `request` and `response` are stored with `JSON.stringify` and
 * returned with `JSON.parse`, so the type parameters are the caller's claim, not checked here,
 * and anything JSON does not round-trip comes back changed — notably a `Date` inside them comes
 * back as its ISO string (the caller revives it), `undefined` properties disappear, and `Map`,
 * `Set` or class instances become plain objects. The store's own timestamps (`createdAt`,
 * `bookedAt`, …) are real `Date`s.
 */

export interface StoreOptions {
  /** SQLite file (its directory is created), or `':memory:'`. Default in the app: `./data/waybill-bot.sqlite`. */
  path: string;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /** How long a draft lives after its last save. Default 7 days. */
  draftTtlMs?: number;
}

export const DEFAULT_DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Default for `audit.list` when no limit is given. */
export const DEFAULT_AUDIT_LIMIT = 100;

/** Width of the zero-padded counter in generated tracking numbers (`WB000001`). */
export const TRACKING_COUNTER_DIGITS = 6;

export interface Draft<T = unknown> {
  id: string;
  /** 'quote' | 'booking' | 'update' */
  kind: string;
  userId: string;
  channelId: string;
  /** As JSON round-trips it: Dates inside come back as ISO strings. */
  data: T;
  /** 1 on creation, +1 on every save. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export interface BookingRecord<T = unknown> {
  trackingNumber: string;
  trackingRefNo: string;
  /** Last-known full domain booking, as JSON round-trips it: Dates inside come back as ISO strings. */
  record: T;
  /** 1 on insert, +1 on every successful updateRecord. */
  version: number;
  channelId: string;
  /** Where its card was posted. */
  cardChannelId?: string;
  cardTs?: string;
  auditCardTs?: string;
  bookedBy: string;
  bookedAt: Date;
  updatedBy?: string;
  updatedAt?: Date;
}

export type AttemptState = 'in-flight' | 'succeeded' | 'failed' | 'unknown';

/** What an attempt is about and who made it: kept with it, so an abandoned call can be reported. */
export interface AttemptAbout {
  trackingNumber?: string;
  userId?: string;
  /** Where the dispatcher was working. */
  channelId?: string;
  /**
   * Held by at most one attempt at a time: one in flight, succeeded or of unknown outcome (a
   * failed one lets go of it; an unknown one holds it until another attempt supersedes it).
   */
  claim?: string;
}

export interface Attempt<R = unknown> extends AttemptAbout {
  key: string;
  operation: string;
  state: AttemptState;
  /** As JSON round-trips it; absent while in flight (or when finished with `undefined`). */
  result?: R;
  /** The attempt that took over this one's claim after its outcome was unknown. */
  supersededBy?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface BeginOptions extends AttemptAbout {
  /**
   * An attempt with this key in this state starts again (a dispatcher's "Try again", or their
   * confirmation after checking with the courier); it needs the claim back like a new one.
   */
  again?: 'failed' | 'unknown';
  /** An attempt of unknown outcome holding the claim does not block this one: this one supersedes it. */
  supersedeUnknown?: boolean;
}

export type BeginResult<R> =
  | { started: true; superseded?: Attempt }
  | { started: false; attempt: Attempt<R> };

export interface AuditEntry {
  id: number;
  at: Date;
  userId: string;
  /** 'quote' | 'book' | 'update' | 'refused' | … */
  operation: string;
  trackingNumber?: string;
  outcome: string;
  /** As JSON round-trips it. */
  request?: unknown;
  /** As JSON round-trips it. */
  response?: unknown;
  detail?: string;
}

export type BookingInsert<T> = Omit<BookingRecord<T>, 'version' | 'updatedBy' | 'updatedAt'>;

export type UpdateRecordResult<T> =
  | { ok: true; booking: BookingRecord<T> }
  | { ok: false; current: BookingRecord<T> | undefined };

export interface CardLocation {
  cardChannelId?: string;
  cardTs?: string;
  auditCardTs?: string;
}

export interface Store {
  drafts: {
    /** New draft, version 1, expiring `draftTtlMs` from now. Its id is random, URL-safe, 22 characters. */
    create<T>(input: { kind: string; userId: string; channelId: string; data: T }): Draft<T>;
    /** Undefined when missing or expired. */
    get<T>(id: string): Draft<T> | undefined;
    /** Replaces data, bumps version and updatedAt, extends expiry. Throws DraftNotFoundError if missing or expired. */
    save<T>(id: string, data: T): Draft<T>;
    delete(id: string): void;
    /** Removes expired drafts; returns how many. */
    purgeExpired(): number;
  };
  bookings: {
    /**
     * Version 1. Throws DuplicateTrackingNumberError if the tracking number is already booked.
     * Also marks the tracking number as used (see trackingNumbers.reserve).
     */
    insert<T>(input: BookingInsert<T>): BookingRecord<T>;
    get<T>(trackingNumber: string): BookingRecord<T> | undefined;
    /**
     * Optimistic concurrency: applies only if the stored version is still expectedVersion
     * (then version +1, updatedBy/updatedAt set); otherwise returns { ok: false, current } so
     * the caller can tell the user someone else changed it (current is undefined if there is
     * no such booking).
     */
    updateRecord<T>(
      trackingNumber: string,
      expectedVersion: number,
      record: T,
      updatedBy: string,
    ): UpdateRecordResult<T>;
    /**
     * Sets the given card locations; keys left undefined keep their stored value. Does not
     * change the version. Throws BookingNotFoundError if there is no such booking.
     */
    setCard(trackingNumber: string, card: CardLocation): void;
  };
  /**
   * Every attempt to call the courier, keyed by an idempotency key (the caller's; opaque here),
   * so one confirmation sends at most one request: a double click or a replayed submission sees
   * the first attempt. A claim (also opaque) lets only one of several different attempts proceed.
   */
  attempts: {
    /**
     * Atomically (also across connections): if an attempt with this key exists, return
     * { started: false, attempt } (whatever its state), unless it is in the state `again` names:
     * then it starts again. If another attempt holds the claim, return { started: false, attempt }
     * with that one (compare keys to tell), unless it is of unknown outcome and `supersedeUnknown`
     * is set: then it is marked superseded and returned as `superseded`. Otherwise the attempt is
     * recorded in flight, with what it is about, and { started: true } is returned.
     */
    begin<R>(key: string, operation: string, options?: BeginOptions): BeginResult<R>;
    /**
     * Records the outcome. Overwrites whatever state the attempt is in (a late real outcome is
     * better than 'unknown'). Throws AttemptNotFoundError if begin() was never called for the key.
     */
    finish<R>(key: string, state: Exclude<AttemptState, 'in-flight'>, result: R): void;
    get<R>(key: string): Attempt<R> | undefined;
    /**
     * In-flight attempts left by a process that stopped mid-call: call once on start-up, before
     * handling requests. Marks them 'unknown' and returns them (with state 'unknown'), oldest first.
     */
    markAbandoned(): Attempt[];
  };
  audit: {
    /** request/response stored as JSON. */
    record(entry: Omit<AuditEntry, 'id' | 'at'>): AuditEntry;
    /** Newest first; at most `limit` entries (default DEFAULT_AUDIT_LIMIT = 100). */
    list(filter?: { trackingNumber?: string; operation?: string; limit?: number }): AuditEntry[];
  };
  /** Tracking numbers: unique, never reused, persisted. Compared exactly (case-sensitive). */
  trackingNumbers: {
    /**
     * `${prefix}${6-digit zero-padded counter}`, e.g. `WB000001`, from a persisted per-prefix
     * counter; skips any number already used, and marks the result as used, so it is never
     * handed out twice, even across restarts or if the counter were reset. Past 999999 the
     * counter simply gets a seventh digit. The prefix may contain only letters, digits, - and _.
     */
    next(prefix: string): string;
    /**
     * Marks a number as used (also ones typed by a dispatcher), so next() never hands it out.
     * Returns false if it was already used.
     */
    reserve(trackingNumber: string): boolean;
  };
  /** Closes the database; further calls throw. Calling close() twice is harmless. */
  close(): void;
}

export class StoreError extends Error {
  override name = 'StoreError';
}

export class DuplicateTrackingNumberError extends StoreError {
  override name = 'DuplicateTrackingNumberError';
  constructor(readonly trackingNumber: string) {
    super(`A booking with tracking number ${trackingNumber} already exists`);
  }
}

export class DraftNotFoundError extends StoreError {
  override name = 'DraftNotFoundError';
  constructor(readonly draftId: string) {
    super(`Draft ${draftId} does not exist or has expired`);
  }
}

export class BookingNotFoundError extends StoreError {
  override name = 'BookingNotFoundError';
  constructor(readonly trackingNumber: string) {
    super(`No booking with tracking number ${trackingNumber}`);
  }
}

export class AttemptNotFoundError extends StoreError {
  override name = 'AttemptNotFoundError';
  constructor(readonly key: string) {
    super(`No attempt with key ${key}`);
  }
}

interface DraftRow {
  id: string;
  kind: string;
  user_id: string;
  channel_id: string;
  data: string;
  version: number;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

interface BookingRow {
  tracking_number: string;
  tracking_ref_no: string;
  record: string;
  version: number;
  channel_id: string;
  card_channel_id: string | null;
  card_ts: string | null;
  audit_card_ts: string | null;
  booked_by: string;
  booked_at: number;
  updated_by: string | null;
  updated_at: number | null;
}

interface AttemptRow {
  key: string;
  operation: string;
  state: AttemptState;
  result: string | null;
  created_at: number;
  updated_at: number;
  tracking_number: string | null;
  user_id: string | null;
  channel_id: string | null;
  claim: string | null;
  superseded_by: string | null;
}

interface AuditRow {
  id: number;
  at: number;
  user_id: string;
  operation: string;
  tracking_number: string | null;
  outcome: string;
  request: string | null;
  response: string | null;
  detail: string | null;
}

/** `undefined` (and anything JSON cannot represent at the top level) is stored as NULL. */
function toJson(value: unknown): string | null {
  if (value === undefined) return null;
  return JSON.stringify(value) ?? null;
}

function fromJson<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

function toDraft<T>(row: DraftRow): Draft<T> {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.user_id,
    channelId: row.channel_id,
    data: JSON.parse(row.data) as T,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
  };
}

function toBooking<T>(row: BookingRow): BookingRecord<T> {
  const booking: BookingRecord<T> = {
    trackingNumber: row.tracking_number,
    trackingRefNo: row.tracking_ref_no,
    record: JSON.parse(row.record) as T,
    version: row.version,
    channelId: row.channel_id,
    bookedBy: row.booked_by,
    bookedAt: new Date(row.booked_at),
  };
  if (row.card_channel_id !== null) booking.cardChannelId = row.card_channel_id;
  if (row.card_ts !== null) booking.cardTs = row.card_ts;
  if (row.audit_card_ts !== null) booking.auditCardTs = row.audit_card_ts;
  if (row.updated_by !== null) booking.updatedBy = row.updated_by;
  if (row.updated_at !== null) booking.updatedAt = new Date(row.updated_at);
  return booking;
}

function toAttempt<R>(row: AttemptRow): Attempt<R> {
  const attempt: Attempt<R> = {
    key: row.key,
    operation: row.operation,
    state: row.state,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  const result = fromJson<R>(row.result);
  if (result !== undefined) attempt.result = result;
  if (row.tracking_number !== null) attempt.trackingNumber = row.tracking_number;
  if (row.user_id !== null) attempt.userId = row.user_id;
  if (row.channel_id !== null) attempt.channelId = row.channel_id;
  if (row.claim !== null) attempt.claim = row.claim;
  if (row.superseded_by !== null) attempt.supersededBy = row.superseded_by;
  return attempt;
}

function toAuditEntry(row: AuditRow): AuditEntry {
  const entry: AuditEntry = {
    id: row.id,
    at: new Date(row.at),
    userId: row.user_id,
    operation: row.operation,
    outcome: row.outcome,
  };
  if (row.tracking_number !== null) entry.trackingNumber = row.tracking_number;
  const request = fromJson(row.request);
  if (request !== undefined) entry.request = request;
  const response = fromJson(row.response);
  if (response !== undefined) entry.response = response;
  if (row.detail !== null) entry.detail = row.detail;
  return entry;
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE')
  );
}

const TRACKING_PREFIX = /^[A-Za-z0-9_-]*$/;

/** Random, URL-safe (base64url), 22 characters: 128 bits. */
function newDraftId(): string {
  return randomBytes(16).toString('base64url');
}

export function openStore(options: StoreOptions): Store {
  const db = openDatabase(options.path);
  return createStore(db, options);
}

/** Builds the store on an already opened and migrated database (which it then owns and closes). */
export function createStore(db: SqliteDatabase, options: Omit<StoreOptions, 'path'> = {}): Store {
  const now = options.now ?? (() => new Date());
  const nowMs = () => now().getTime();
  const draftTtlMs = options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS;
  if (!(draftTtlMs > 0)) throw new RangeError(`draftTtlMs must be positive, got ${draftTtlMs}`);

  const sql = {
    draftInsert: db.prepare(
      `INSERT INTO drafts (id, kind, user_id, channel_id, data, version, created_at, updated_at, expires_at)
       VALUES (@id, @kind, @userId, @channelId, @data, 1, @now, @now, @expiresAt)`,
    ),
    draftGet: db.prepare<[string, number], DraftRow>('SELECT * FROM drafts WHERE id = ? AND expires_at > ?'),
    draftSave: db.prepare<[{ id: string; data: string; now: number; expiresAt: number }], DraftRow>(
      `UPDATE drafts SET data = @data, version = version + 1, updated_at = @now, expires_at = @expiresAt
       WHERE id = @id AND expires_at > @now
       RETURNING *`,
    ),
    draftDelete: db.prepare<[string]>('DELETE FROM drafts WHERE id = ?'),
    draftPurge: db.prepare<[number]>('DELETE FROM drafts WHERE expires_at <= ?'),

    bookingInsert: db.prepare(
      `INSERT INTO bookings (tracking_number, tracking_ref_no, record, version, channel_id,
         card_channel_id, card_ts, audit_card_ts, booked_by, booked_at)
       VALUES (@trackingNumber, @trackingRefNo, @record, 1, @channelId,
         @cardChannelId, @cardTs, @auditCardTs, @bookedBy, @bookedAt)
       RETURNING *`,
    ),
    bookingGet: db.prepare<[string], BookingRow>('SELECT * FROM bookings WHERE tracking_number = ?'),
    bookingUpdate: db.prepare<
      [{ trackingNumber: string; expectedVersion: number; record: string; updatedBy: string; now: number }],
      BookingRow
    >(
      `UPDATE bookings SET record = @record, version = version + 1, updated_by = @updatedBy, updated_at = @now
       WHERE tracking_number = @trackingNumber AND version = @expectedVersion
       RETURNING *`,
    ),
    bookingSetCard: db.prepare(
      `UPDATE bookings SET
         card_channel_id = CASE WHEN @setChannel THEN @cardChannelId ELSE card_channel_id END,
         card_ts = CASE WHEN @setTs THEN @cardTs ELSE card_ts END,
         audit_card_ts = CASE WHEN @setAuditTs THEN @auditCardTs ELSE audit_card_ts END
       WHERE tracking_number = @trackingNumber`,
    ),

    attemptInsert: db.prepare(
      `INSERT INTO attempts (key, operation, state, result, created_at, updated_at,
         tracking_number, user_id, channel_id, claim)
       VALUES (@key, @operation, 'in-flight', NULL, @now, @now,
         @trackingNumber, @userId, @channelId, @claim)`,
    ),
    attemptRestart: db.prepare(
      `UPDATE attempts SET state = 'in-flight', result = NULL, updated_at = @now, superseded_by = NULL,
         tracking_number = COALESCE(@trackingNumber, tracking_number),
         user_id = COALESCE(@userId, user_id),
         channel_id = COALESCE(@channelId, channel_id),
         claim = COALESCE(@claim, claim)
       WHERE key = @key`,
    ),
    attemptGet: db.prepare<[string], AttemptRow>('SELECT * FROM attempts WHERE key = ?'),
    attemptClaimHolder: db.prepare<[string, string], AttemptRow>(
      `SELECT * FROM attempts
       WHERE claim = ? AND key <> ? AND state <> 'failed' AND superseded_by IS NULL
       ORDER BY created_at DESC LIMIT 1`,
    ),
    attemptSupersede: db.prepare<[string, number, string]>(
      'UPDATE attempts SET superseded_by = ?, updated_at = ? WHERE key = ?',
    ),
    attemptFinish: db.prepare<[string, string | null, number, string]>(
      'UPDATE attempts SET state = ?, result = ?, updated_at = ? WHERE key = ?',
    ),
    attemptAbandon: db.prepare<[number], AttemptRow>(
      `UPDATE attempts SET state = 'unknown', updated_at = ? WHERE state = 'in-flight' RETURNING *`,
    ),

    auditInsert: db.prepare(
      `INSERT INTO audit (at, user_id, operation, tracking_number, outcome, request, response, detail)
       VALUES (@at, @userId, @operation, @trackingNumber, @outcome, @request, @response, @detail)
       RETURNING *`,
    ),
    auditList: db.prepare<
      [{ trackingNumber: string | null; operation: string | null; limit: number }],
      AuditRow
    >(
      `SELECT * FROM audit
       WHERE (@trackingNumber IS NULL OR tracking_number = @trackingNumber)
         AND (@operation IS NULL OR operation = @operation)
       ORDER BY id DESC
       LIMIT @limit`,
    ),

    counterGet: db.prepare<[string], { last: number }>('SELECT last FROM tracking_counters WHERE prefix = ?'),
    counterSet: db.prepare<[string, number]>(
      `INSERT INTO tracking_counters (prefix, last) VALUES (?, ?)
       ON CONFLICT (prefix) DO UPDATE SET last = excluded.last`,
    ),
    reserve: db.prepare<[string, number]>(
      'INSERT INTO tracking_reserved (tracking_number, reserved_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ),
  };

  // One compiled transaction wrapper, reused for every generic operation below.
  const transaction = db.transaction((fn: () => unknown) => fn());
  const atomically = <T>(fn: () => T): T => transaction(fn) as T;
  /** BEGIN IMMEDIATE: takes the write lock up front, for read-then-write sequences. */
  const exclusively = <T>(fn: () => T): T => transaction.immediate(fn) as T;

  const drafts: Store['drafts'] = {
    create<T>(input: { kind: string; userId: string; channelId: string; data: T }): Draft<T> {
      const at = nowMs();
      const row: DraftRow = {
        id: newDraftId(),
        kind: input.kind,
        user_id: input.userId,
        channel_id: input.channelId,
        data: toJson(input.data) ?? 'null',
        version: 1,
        created_at: at,
        updated_at: at,
        expires_at: at + draftTtlMs,
      };
      sql.draftInsert.run({
        id: row.id,
        kind: row.kind,
        userId: row.user_id,
        channelId: row.channel_id,
        data: row.data,
        now: at,
        expiresAt: row.expires_at,
      });
      return toDraft<T>(row);
    },
    get<T>(id: string): Draft<T> | undefined {
      const row = sql.draftGet.get(id, nowMs());
      return row ? toDraft<T>(row) : undefined;
    },
    save<T>(id: string, data: T): Draft<T> {
      const at = nowMs();
      const row = sql.draftSave.get({
        id,
        data: toJson(data) ?? 'null',
        now: at,
        expiresAt: at + draftTtlMs,
      });
      if (!row) throw new DraftNotFoundError(id);
      return toDraft<T>(row);
    },
    delete(id: string): void {
      sql.draftDelete.run(id);
    },
    purgeExpired(): number {
      return sql.draftPurge.run(nowMs()).changes;
    },
  };

  const bookings: Store['bookings'] = {
    insert<T>(input: BookingInsert<T>): BookingRecord<T> {
      return atomically(() => {
        let row: BookingRow;
        try {
          row = sql.bookingInsert.get({
            trackingNumber: input.trackingNumber,
            trackingRefNo: input.trackingRefNo,
            record: toJson(input.record) ?? 'null',
            channelId: input.channelId,
            cardChannelId: input.cardChannelId ?? null,
            cardTs: input.cardTs ?? null,
            auditCardTs: input.auditCardTs ?? null,
            bookedBy: input.bookedBy,
            bookedAt: input.bookedAt.getTime(),
          }) as BookingRow;
        } catch (error) {
          if (isUniqueViolation(error)) throw new DuplicateTrackingNumberError(input.trackingNumber);
          throw error;
        }
        sql.reserve.run(input.trackingNumber, nowMs());
        return toBooking<T>(row);
      });
    },
    get<T>(trackingNumber: string): BookingRecord<T> | undefined {
      const row = sql.bookingGet.get(trackingNumber);
      return row ? toBooking<T>(row) : undefined;
    },
    updateRecord<T>(
      trackingNumber: string,
      expectedVersion: number,
      record: T,
      updatedBy: string,
    ): UpdateRecordResult<T> {
      return atomically(() => {
        const row = sql.bookingUpdate.get({
          trackingNumber,
          expectedVersion,
          record: toJson(record) ?? 'null',
          updatedBy,
          now: nowMs(),
        });
        if (row) return { ok: true, booking: toBooking<T>(row) };
        const current = sql.bookingGet.get(trackingNumber);
        return { ok: false, current: current ? toBooking<T>(current) : undefined };
      });
    },
    setCard(trackingNumber: string, card: CardLocation): void {
      const { changes } = sql.bookingSetCard.run({
        trackingNumber,
        setChannel: card.cardChannelId !== undefined ? 1 : 0,
        cardChannelId: card.cardChannelId ?? null,
        setTs: card.cardTs !== undefined ? 1 : 0,
        cardTs: card.cardTs ?? null,
        setAuditTs: card.auditCardTs !== undefined ? 1 : 0,
        auditCardTs: card.auditCardTs ?? null,
      });
      if (changes === 0) throw new BookingNotFoundError(trackingNumber);
    },
  };

  const attempts: Store['attempts'] = {
    begin<R>(key: string, operation: string, options: BeginOptions = {}): BeginResult<R> {
      // BEGIN IMMEDIATE: the reads below and the write decide together, across connections too.
      return exclusively((): BeginResult<R> => {
        const at = nowMs();
        const existing = sql.attemptGet.get(key);
        if (existing && existing.state !== options.again) {
          return { started: false, attempt: toAttempt<R>(existing) };
        }
        const claim = options.claim ?? existing?.claim ?? null;
        const holder = claim === null ? undefined : sql.attemptClaimHolder.get(claim, key);
        if (holder && !(holder.state === 'unknown' && options.supersedeUnknown)) {
          return { started: false, attempt: toAttempt<R>(holder) };
        }
        if (holder) sql.attemptSupersede.run(key, at, holder.key);
        const row = {
          key,
          operation,
          now: at,
          trackingNumber: options.trackingNumber ?? null,
          userId: options.userId ?? null,
          channelId: options.channelId ?? null,
          claim,
        };
        if (existing) sql.attemptRestart.run(row);
        else sql.attemptInsert.run(row);
        return holder
          ? { started: true, superseded: { ...toAttempt(holder), supersededBy: key } }
          : { started: true };
      });
    },
    finish<R>(key: string, state: Exclude<AttemptState, 'in-flight'>, result: R): void {
      const { changes } = sql.attemptFinish.run(state, toJson(result), nowMs(), key);
      if (changes === 0) throw new AttemptNotFoundError(key);
    },
    get<R>(key: string): Attempt<R> | undefined {
      const row = sql.attemptGet.get(key);
      return row ? toAttempt<R>(row) : undefined;
    },
    markAbandoned(): Attempt[] {
      return atomically(() => sql.attemptAbandon.all(nowMs()))
        .map((row) => toAttempt(row))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.key.localeCompare(b.key));
    },
  };

  const audit: Store['audit'] = {
    record(entry: Omit<AuditEntry, 'id' | 'at'>): AuditEntry {
      const row = sql.auditInsert.get({
        at: nowMs(),
        userId: entry.userId,
        operation: entry.operation,
        trackingNumber: entry.trackingNumber ?? null,
        outcome: entry.outcome,
        request: toJson(entry.request),
        response: toJson(entry.response),
        detail: entry.detail ?? null,
      }) as AuditRow;
      return toAuditEntry(row);
    },
    list(filter = {}): AuditEntry[] {
      const limit = filter.limit ?? DEFAULT_AUDIT_LIMIT;
      if (!Number.isInteger(limit) || limit < 0)
        throw new RangeError(`limit must be a whole number ≥ 0, got ${limit}`);
      return sql.auditList
        .all({ trackingNumber: filter.trackingNumber ?? null, operation: filter.operation ?? null, limit })
        .map(toAuditEntry);
    },
  };

  const trackingNumbers: Store['trackingNumbers'] = {
    next(prefix: string): string {
      if (!TRACKING_PREFIX.test(prefix) || prefix.length > 40) {
        throw new RangeError(
          `Tracking number prefix must be at most 40 letters, digits, - or _; got "${prefix}"`,
        );
      }
      return exclusively(() => {
        const at = nowMs();
        let counter = sql.counterGet.get(prefix)?.last ?? 0;
        for (;;) {
          counter += 1;
          const candidate = `${prefix}${String(counter).padStart(TRACKING_COUNTER_DIGITS, '0')}`;
          // Skips numbers already used (typed by a dispatcher, or handed out before a counter reset).
          if (sql.reserve.run(candidate, at).changes === 1) {
            sql.counterSet.run(prefix, counter);
            return candidate;
          }
        }
      });
    },
    reserve(trackingNumber: string): boolean {
      return sql.reserve.run(trackingNumber, nowMs()).changes === 1;
    },
  };

  return {
    drafts,
    bookings,
    attempts,
    audit,
    trackingNumbers,
    close(): void {
      if (db.open) db.close();
    },
  };
}
