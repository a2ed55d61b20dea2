// The store's interface: what callers may ask of it, whichever database runs underneath.

import type { Party } from '../waybill/schemas.js';

/*
 * The store knows nothing about Slack or the courier's shapes: `data`, `record`, `result`,
 * `request` and `response` are stored with `JSON.stringify` and returned with `JSON.parse`, so
 * the type parameters are the caller's claim, not checked here, and anything JSON does not
 * round-trip comes back changed — a `Date` inside them comes back as its ISO string (the caller
 * revives it), `undefined` properties disappear, and `Map`, `Set` or class instances become
 * plain objects. The store's own timestamps (`createdAt`, `bookedAt`, …) are real `Date`s.
 *
 * Every method is async and may reject with StoreUnavailableError when the database is
 * unreachable or too slow; the other errors are in ./errors.ts.
 */

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
  /** The caller's name for the screen the call was made from (a modal), to show its outcome there. */
  viewId?: string;
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
  /** The replica that began it (absent for attempts made before replicas were recorded). */
  owner?: string;
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

export interface Drafts {
  /** New draft, version 1, expiring `draftTtlMs` from now. Its id is random, URL-safe, 22 characters. */
  create<T>(input: { kind: string; userId: string; channelId: string; data: T }): Promise<Draft<T>>;
  /** Undefined when missing or expired. */
  get<T>(id: string): Promise<Draft<T> | undefined>;
  /** Replaces data, bumps version and updatedAt, extends expiry. Rejects with DraftNotFoundError if missing or expired. */
  save<T>(id: string, data: T): Promise<Draft<T>>;
  delete(id: string): Promise<void>;
  /** A person's live drafts of one kind, the most recently saved first; at most `limit` (default 20). */
  listOpen<T>(filter: { userId: string; kind: string; limit?: number }): Promise<Draft<T>[]>;
  /** Removes expired drafts; returns how many. Safe to run on every replica at once. */
  purgeExpired(): Promise<number>;
}

export interface Bookings {
  /**
   * Version 1. Rejects with DuplicateTrackingNumberError if the tracking number is already
   * booked. Also marks the tracking number as used (see trackingNumbers.reserve).
   */
  insert<T>(input: BookingInsert<T>): Promise<BookingRecord<T>>;
  get<T>(trackingNumber: string): Promise<BookingRecord<T> | undefined>;
  /**
   * Optimistic concurrency (across replicas too): applies only if the stored version is still
   * expectedVersion (then version +1, updatedBy/updatedAt set); otherwise { ok: false, current }
   * so the caller can tell the user someone else changed it (current is undefined if there is
   * no such booking).
   */
  updateRecord<T>(
    trackingNumber: string,
    expectedVersion: number,
    record: T,
    updatedBy: string,
  ): Promise<UpdateRecordResult<T>>;
  /**
   * Sets the given card locations; keys left undefined keep their stored value. Does not change
   * the version. Rejects with BookingNotFoundError if there is no such booking.
   */
  setCard(trackingNumber: string, card: CardLocation): Promise<void>;
  /** Booked at or after `from` and before `to`, the latest first; at most `limit` (default 100). */
  listBooked<T>(range: TimeRange & { limit?: number }): Promise<BookingRecord<T>[]>;
  /** How many were booked at or after `from` and before `to`. */
  countBooked(range: TimeRange): Promise<number>;
}

/** From `from` (included) to `to` (excluded). */
export interface TimeRange {
  from: Date;
  to: Date;
}

/**
 * Every attempt to call the courier, keyed by an idempotency key (the caller's; opaque here), so
 * one confirmation sends at most one request: a double click, a replayed submission or the same
 * submission delivered to two replicas sees the first attempt. A claim (also opaque) lets only one
 * of several different attempts proceed.
 */
export interface Attempts {
  /**
   * Atomically, across replicas: if an attempt with this key exists, { started: false, attempt }
   * (whatever its state), unless it is in the state `again` names: then it starts again. If
   * another attempt holds the claim, { started: false, attempt } with that one (compare keys to
   * tell), unless it is of unknown outcome and `supersedeUnknown` is set: then it is marked
   * superseded and returned as `superseded`. Otherwise the attempt is recorded in flight, owned by
   * this replica, with what it is about, and { started: true } is returned.
   */
  begin<R>(key: string, operation: string, options?: BeginOptions): Promise<BeginResult<R>>;
  /**
   * Records the outcome. Overwrites whatever state the attempt is in (a late real outcome is
   * better than 'unknown'). Rejects with AttemptNotFoundError if begin() was never called for the key.
   */
  finish<R>(key: string, state: Exclude<AttemptState, 'in-flight'>, result: R): Promise<void>;
  get<R>(key: string): Promise<Attempt<R> | undefined>;
  /**
   * In-flight attempts whose owner is gone (its lease expired or was released, or it predates
   * leases), marked 'unknown' and returned (oldest first) so the caller can tell their
   * dispatchers. Never touches this replica's attempts or those of a replica whose lease is
   * live. Run it at start-up and then periodically (e.g. at every lease renewal): each abandoned
   * attempt is returned to exactly one caller, even with several replicas recovering at once.
   */
  recoverAbandoned(): Promise<Attempt[]>;
  /**
   * On shutdown, when calls are still running after the grace period: this replica's in-flight
   * attempts, marked 'unknown' and returned (oldest first).
   */
  abandonOwn(): Promise<Attempt[]>;
}

export interface Audit {
  /** request/response stored as JSON. */
  record(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<AuditEntry>;
  /** Newest first; at most `limit` entries (default DEFAULT_AUDIT_LIMIT = 100). */
  list(filter?: {
    trackingNumber?: string;
    operation?: string;
    userId?: string;
    limit?: number;
  }): Promise<AuditEntry[]>;
  /**
   * Entries of the given operations (all when absent) written at or after `from` and before `to`,
   * oldest first, those with an id above `afterId`; at most `limit` (default 1000). Pass the last
   * id of one page as `afterId` to read the next: a long range is read in pages.
   */
  between(
    range: TimeRange & { operations?: readonly string[]; afterId?: number; limit?: number },
  ): Promise<AuditEntry[]>;
}

/** What became of one row of an imported file; `pending` until its courier call has an outcome. */
export type ImportRowState = 'pending' | 'booked' | 'failed' | 'unknown';

/** A file of bookings, known by the hash of its bytes: the same file is the same import, whoever sends it. */
export interface ImportRecord {
  fileHash: string;
  fileName: string;
  /** Who sent it first, and from where. */
  userId: string;
  channelId: string;
  rowCount: number;
  createdAt: Date;
}

export interface ImportRow {
  fileHash: string;
  /** The row in the file (the caller's numbering). */
  row: number;
  /** Given once, on the row's first run: a re-run books under the same number or not at all. */
  trackingNumber: string;
  state: ImportRowState;
  trackingRefNo?: string;
  message?: string;
  updatedAt: Date;
}

/** Bulk imports: each file once, and for each of its rows the tracking number it was given and what became of it. */
export interface Imports {
  /**
   * Records the file the first time it is seen (on any replica); later calls get that first
   * record back with `first: false`.
   */
  record(input: Omit<ImportRecord, 'createdAt'>): Promise<{ record: ImportRecord; first: boolean }>;
  get(fileHash: string): Promise<ImportRecord | undefined>;
  /**
   * The row as stored; the first call for a row stores it, `pending`, with `trackingNumber`, and
   * every later call (any replica, even at once) gets that first one back.
   */
  addRow(fileHash: string, row: number, trackingNumber: string): Promise<ImportRow>;
  /** Records what became of a row. Rejects with ImportRowNotFoundError if addRow never ran for it. */
  setRow(
    fileHash: string,
    row: number,
    outcome: { state: ImportRowState; trackingRefNo?: string; message?: string },
  ): Promise<void>;
  /** The file's rows, in row order. */
  rows(fileHash: string): Promise<ImportRow[]>;
}

/** Tracking numbers: unique across replicas, never reused, persisted. Compared exactly (case-sensitive). */
export interface TrackingNumbers {
  /**
   * `${prefix}${6-digit zero-padded counter}`, e.g. `WB000001`, from a persisted per-prefix
   * counter; skips any number already used, and marks the result as used (for `holder`, when
   * given), so it is never handed out twice, even across replicas, restarts or a counter reset.
   * Past 999999 the counter simply gets a seventh digit. The prefix may contain only letters,
   * digits, - and _ (at most 40).
   */
  next(prefix: string, holder?: string): Promise<string>;
  /**
   * Marks a number as used (also ones typed by a dispatcher), atomically across replicas, so
   * next() never hands it out and two holders never both get it. True when this call reserved
   * it, or it was already reserved by the same `holder` (e.g. the same draft retrying); false
   * when it was used already by anyone else (or by anyone, when no holder is given).
   */
  reserve(trackingNumber: string, holder?: string): Promise<boolean>;
}

/** Requests re-delivered to any replica (a sender retrying what it thinks went unanswered): the first claim wins. */
export interface Deliveries {
  /**
   * True the first time `id` is claimed by any replica within `deliveryTtlMs`; false for every
   * later claim of it.
   */
  claim(id: string): Promise<boolean>;
  /** Forgets claims older than `deliveryTtlMs`; returns how many. */
  purgeExpired(): Promise<number>;
}

/** A party in the address book: the details it was last booked (or edited) with (text not given is ''). */
export interface SavedParty extends Party {
  /** Random, URL-safe, 22 characters. */
  id: string;
  createdAt: Date;
  /** When a booking last named it. */
  lastUsedAt: Date;
  /** How many bookings named it. */
  uses: number;
}

export type PartyEditResult =
  | { ok: true; party: SavedParty }
  | { ok: false; reason: 'missing' }
  /** Another saved party has the same name and phone: editing would make two of one. */
  | { ok: false; reason: 'duplicate'; other: SavedParty };

/**
 * The address book: every party booked, one row per normalised name and phone (the name lower
 * case with its spaces collapsed, the phone's last ten digits, so `+63 918…` and `0918…` are one).
 */
export interface Parties {
  /**
   * Saves parties that were just booked: a new one is added, a known one (same key) takes these
   * details; either way it is used now (uses +1, once per call however often the list names it).
   * Parties without a name are skipped. Two replicas saving the same party at once leave one row.
   * Returns one saved party per distinct party given, in the order given.
   */
  save(parties: readonly Party[]): Promise<SavedParty[]>;
  /**
   * At most `limit` (default and most PARTY_SEARCH_LIMIT = 100) parties, most recently used first:
   * those with, for every word of `query`, a word of their name or city (or their phone's digits)
   * starting with it; a query of digits and phone punctuation looks up phones only. An empty query
   * lists the most recently used.
   */
  find(query: string, limit?: number): Promise<SavedParty[]>;
  /** The parties whose every name word is a word of `text` (e.g. a chat message), most recently used first; at most `limit` (default 20). */
  namedIn(text: string, limit?: number): Promise<SavedParty[]>;
  get(id: string): Promise<SavedParty | undefined>;
  /** Replaces a saved party's details (its key follows them); its uses and last use stay. */
  edit(id: string, details: Party): Promise<PartyEditResult>;
  /** True when it was there. */
  delete(id: string): Promise<boolean>;
}

/** Everything that can run inside one transaction. */
export interface StoreTables {
  drafts: Drafts;
  bookings: Bookings;
  attempts: Attempts;
  audit: Audit;
  trackingNumbers: TrackingNumbers;
  deliveries: Deliveries;
  parties: Parties;
  imports: Imports;
}

export interface Store extends StoreTables {
  /** The database in use, fit for a log line (a URL's password masked). */
  readonly location: string;
  /** This replica: its id (recorded on its attempts) and its lease, renewed in the background. */
  readonly replica: {
    readonly id: string;
    /** Renews the lease now (the store also does so every `leaseRenewMs`). */
    renew(): Promise<void>;
  };
  /**
   * Runs `fn` in one transaction: everything it does through `tx` is committed together or not
   * at all (on a rejection, or the database lost midway). Use only `tx` inside `fn`: with SQLite
   * the store's own methods would wait for the transaction to end.
   */
  transaction<T>(fn: (tx: StoreTables) => Promise<T>): Promise<T>;
  /** Resolves when the database answers: for a readiness check. */
  ping(): Promise<void>;
  /**
   * Stops renewing the lease, releases it (so other replicas recover this one's leftover
   * attempts at once) and closes the database; later calls reject. Calling it twice is harmless.
   */
  close(): Promise<void>;
}
