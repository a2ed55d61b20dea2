// The store's interface: what callers may ask of it, whichever database runs underneath.

import type { StatusColumns } from '../waybill/csv/read-statuses.js';
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
  /** Who answers for it now: whoever booked it, until it is assigned to someone else. */
  ownerId: string;
  updatedBy?: string;
  updatedAt?: Date;
  /** When the parcels are picked up: the caller's, kept apart from `record` so bookings can be listed by it. */
  pickupAt?: Date;
  /** How it was booked when no person typed it. */
  bookedVia?: BookedVia;
}

/** A booking no person typed: a Workflow Builder step's. */
export type BookedVia = 'workflow';

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

/** A new booking is its booker's. */
export type BookingInsert<T> = Omit<BookingRecord<T>, 'version' | 'ownerId' | 'updatedBy' | 'updatedAt'>;

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
  /**
   * A draft under an id the caller derives from something Slack may send again (a workflow step's
   * execution): made by the first call, on any replica; each later call gets that draft, as it is
   * now, with `created` false. Undefined when it has expired.
   */
  createOnce<T>(
    id: string,
    input: { kind: string; userId: string; channelId: string; data: T },
  ): Promise<{ draft: Draft<T>; created: boolean } | undefined>;
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
    /** The record's pickup time, when it has one. */
    pickupAt?: Date,
  ): Promise<UpdateRecordResult<T>>;
  /**
   * Sets the given card locations; keys left undefined keep their stored value. Does not change
   * the version. Rejects with BookingNotFoundError if there is no such booking.
   */
  setCard(trackingNumber: string, card: CardLocation): Promise<void>;
  /** Booked at or after `from` and before `to`, the latest first; at most `limit` (default 100). */
  listBooked<T>(range: TimeRange & InChannels & { limit?: number }): Promise<BookingRecord<T>[]>;
  /** How many were booked at or after `from` and before `to`. */
  countBooked(range: TimeRange & InChannels): Promise<number>;
  /**
   * Picked up at or after `from` and before `to`, by tracking number, those after `after`; at most
   * `limit` (default 100). Pass the last number of one page as `after` to read the next.
   */
  listByPickup<T>(
    range: TimeRange & InChannels & { after?: string; limit?: number },
  ): Promise<BookingRecord<T>[]>;
  /** Bookings matching every word and filter of `search`, newest first; at most `search.limit`. */
  find<T>(search: BookingSearch): Promise<BookingRecord<T>[]>;
  /**
   * Makes `ownerId` its owner, across replicas one change at a time; the owner it had before, or
   * `changed: false` when it was theirs already. Rejects with BookingNotFoundError if there is no such booking.
   */
  setOwner<T>(trackingNumber: string, ownerId: string): Promise<OwnerChange<T>>;
  /** The owners of the bookings with these tracking numbers (those we have). */
  ownersOf(trackingNumbers: readonly string[]): Promise<Map<string, string>>;
}

/**
 * What `bookings.find` looks for. Each word of `text` begins a word of a booking's parties, places,
 * references, description or tracking numbers, or its phones' digits; each filter given narrows.
 */
export interface BookingSearch {
  text: string;
  /** Its latest status is one of these (`booked`: none recorded). */
  statuses?: readonly string[];
  /** Owned by this person (its booker, until it is handed over). */
  owner?: string;
  payment?: 'cod' | 'prepaid';
  /** Booked at or after `from`, before `to`. */
  from?: Date;
  to?: Date;
  /** Only bookings whose card (or, without one, whose booking) is in one of these channels. */
  channelIds?: readonly string[];
  /** The last booking of the page before: those after it in the order. */
  after?: { bookedAt: Date; trackingNumber: string };
  limit: number;
}

/**
 * Where the searches change strategy, in rows counted (`StoreOptions.searchThresholds`): production's
 * suit a big store; tests seed small ones against small thresholds, so that every strategy is walked.
 */
export interface SearchThresholds {
  bookings: {
    /**
     * The rarest condition decides how to search: up to `many` bookings are fetched by its terms and
     * sorted; when every condition matches more, walking the bookings newest first fills a page soon.
     */
    many: number;
    /** Conditions matching up to `sparse` bookings are fetched and intersected when every one is common. */
    sparse: number;
    /** The newest bookings walked first when every condition is common. */
    recent: number;
  };
  /**
   * SQLite's address book: a word matching fewer terms than `few` is rare, its parties few enough to
   * fetch and sort; a common word's parties are dense enough that walking the most recent ones fills a
   * page soon. Several words may each be common but seldom together (`maria juan`), and walking would
   * read every party: so only the `recent` most recent are walked, then one word's parties fetched,
   * up to `many`.
   */
  parties: { few: number; recent: number; many: number };
}

export type OwnerChange<T = unknown> =
  | { changed: true; previous: string; booking: BookingRecord<T> }
  | { changed: false; booking: BookingRecord<T> };

/** From `from` (included) to `to` (excluded). */
export interface TimeRange {
  from: Date;
  to: Date;
}

/** Only the bookings booked in these conversations (the access rule's scope); undefined: every one. */
export interface InChannels {
  channelIds?: readonly string[] | undefined;
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
   * This store's begins whose commit went unanswered (the connection was lost) and that nobody
   * took over since: those the database holds in flight are marked failed with `result` (no call
   * was made for them, so they may be tried again, by any replica) and returned.
   */
  releaseUnanswered<R>(result: R): Promise<Attempt[]>;
  /**
   * In-flight attempts whose owner is gone (its lease expired or was released, or it predates
   * leases), marked 'unknown' and returned (oldest first) so the caller can tell their
   * dispatchers. Never touches this replica's attempts or those of a replica whose lease is
   * live. Run it at start-up and then periodically (e.g. at every lease renewal): each abandoned
   * attempt is returned to exactly one caller, even with several replicas recovering at once.
   */
  recoverAbandoned(): Promise<Attempt[]>;
  /** Attempts of `operation` whose outcome is still unknown (none superseded them), oldest first; at most `limit` (default 1000). */
  listUnknown(operation: string, limit?: number): Promise<Attempt[]>;
  /**
   * On shutdown, when calls are still running after the grace period: this replica's in-flight
   * attempts, marked 'unknown' and returned (oldest first).
   */
  abandonOwn(): Promise<Attempt[]>;
  /**
   * A person settles an unknown outcome by hand (they checked with the courier): the attempt takes
   * `state` and `result` if it is still unknown and not superseded, and is returned; otherwise
   * nothing changes and undefined is returned (someone settled it first, on any replica).
   */
  settleUnknown<R>(key: string, state: 'succeeded' | 'failed', result: R): Promise<Attempt<R> | undefined>;
  /** Calls whose outcome is unknown and not settled since (by a later outcome), every replica's. */
  countUnknown(): Promise<number>;
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
   * oldest first (by time, then id), those after `after`; at most `limit` (default 1000). Pass the
   * last entry of one page as `after` to read the next: a long range is read in pages, each one a
   * walk along the (at, id) index from where the last ended, never a sort of the whole range. With
   * `channelIds`, only entries of bookings booked in those conversations.
   */
  between(
    range: TimeRange &
      InChannels & {
        operations?: readonly string[];
        after?: Pick<AuditEntry, 'at' | 'id'>;
        limit?: number;
      },
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
  /**
   * Starts a run of the file with its rows queued (those settled already stored done, with their
   * result), unless a run of the same file is under way: then that run is returned, untouched.
   */
  startRun(
    run: NewImportRun,
    rows: readonly NewQueuedRow[],
  ): Promise<{ started: true } | { started: false; running: ImportRun }>;
  run(id: string): Promise<ImportRun | undefined>;
  /** The run of a file still under way, if any. */
  runningOf(fileHash: string): Promise<ImportRun | undefined>;
  /**
   * Claims the next queued row of any run under way for this replica, or none. With several
   * replicas claiming at once each row goes to one (PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claimRow(): Promise<ClaimedRow | undefined>;
  /** A claimed row done, with its result; false if this replica no longer held it. */
  finishRow(runId: string, row: number, outcome: string, result: unknown): Promise<boolean>;
  /** A claimed row back in the queue, not started (this replica stops, or the courier asked to slow down). */
  releaseRow(runId: string, row: number): Promise<void>;
  /** Rows claimed by replicas that are gone (lease expired or released) back in the queue; returns how many. */
  requeueAbandoned(): Promise<number>;
  /**
   * Rows this replica claimed back in the queue, for when it holds none in hand: a claim whose
   * answer was lost with its connection, a release that could not be written. Returns how many.
   */
  releaseClaimed(): Promise<number>;
  /** Whether any run is under way (rows to book or a summary to post). */
  anyRunning(): Promise<boolean>;
  /** How many rows of a run are done, by outcome (the queued and claimed ones under `''`). */
  runCounts(runId: string): Promise<Record<string, number>>;
  /**
   * Takes the posting of a summary: of a run whose rows are all done, or whose reporter is gone.
   * Each such run is returned to one replica.
   */
  takeReports(): Promise<ImportRun[]>;
  /** The results of a run's rows, in row order. */
  runResults<R>(runId: string): Promise<R[]>;
  /** The run's summary is posted (`at`, where Slack took it): it is over, and the file may be run again. */
  closeRun(runId: string, at?: { channelId: string; ts: string }): Promise<void>;
  /**
   * The thread of the latest import summary that names this booking, booked from its file (a booking
   * from a file has no card of its own).
   */
  threadOf(trackingNumber: string): Promise<{ channelId: string; ts: string } | undefined>;
}

export type ImportRunState = 'running' | 'reporting' | 'done';

/** One "Book N rows" of a file: who, where, and the modal showing its progress. */
export interface ImportRun {
  id: string;
  fileHash: string;
  fileName: string;
  userId: string;
  channelId: string;
  viewId: string;
  state: ImportRunState;
  /** Rows queued to be sent when it started. */
  toBook: number;
  startedAt: Date;
}

export type NewImportRun = Omit<ImportRun, 'state' | 'startedAt'>;

/** A row of a new run: to book (`booking`), or settled already (`result`). */
export type NewQueuedRow =
  | { row: number; booking: unknown }
  | { row: number; outcome: string; result: unknown };

export interface ClaimedRow {
  runId: string;
  row: number;
  booking: unknown;
}

/** A COD remittance file, known by the hash of its bytes: the same content is the same file, whoever sends it. */
export interface RemittanceFileRecord {
  fileHash: string;
  fileName: string;
  /** Who sent it first, and where its result was posted. */
  userId: string;
  channelId: string;
  lineCount: number;
  createdAt: Date;
}

/** One line of a remittance file as reconciled when the file was recorded (the outcome is the caller's word). */
export interface RemittanceLineRecord {
  fileHash: string;
  /** The line in the file (the caller's numbering). */
  line: number;
  trackingNumber: string;
  /** Two-place decimal text; absent when the file's amount could not be read. */
  amount?: string;
  outcome: string;
  /** Signed two-place decimal text. */
  difference?: string;
  /** As the file wrote it. */
  remittedAt?: string;
}

/** A line that named a booking, with the file it came in. */
export interface BookingRemittance extends RemittanceLineRecord {
  fileName: string;
  /** When its file was recorded. */
  recordedAt: Date;
}

/**
 * COD remittance files and their lines. A file is recorded once, with all its lines, and never
 * changed: a file correcting an earlier one is another file, and the history of what was paid stays.
 */
export interface Remittances {
  /**
   * Records the file and its lines in one transaction the first time its hash is seen (on any
   * replica); later calls change nothing and get that first record back with `first: false`.
   */
  record(
    file: Omit<RemittanceFileRecord, 'createdAt'>,
    lines: readonly Omit<RemittanceLineRecord, 'fileHash'>[],
  ): Promise<{ record: RemittanceFileRecord; first: boolean }>;
  get(fileHash: string): Promise<RemittanceFileRecord | undefined>;
  /** The file's lines, in line order. */
  lines(fileHash: string): Promise<RemittanceLineRecord[]>;
  /** Every recorded line naming one of these tracking numbers, oldest file first, then by line. */
  ofBookings(trackingNumbers: readonly string[]): Promise<BookingRemittance[]>;
  /** The bookings with these tracking numbers (those we have), in no particular order. */
  bookingsNamed<T>(trackingNumbers: readonly string[]): Promise<BookingRecord<T>[]>;
  /**
   * Bookings booked before `bookedBefore` that no line with one of the `paying` outcomes names,
   * by tracking number, those after `afterTrackingNumber`; at most `limit` (default 500): read
   * a long list in pages.
   */
  unremitted<T>(input: {
    bookedBefore: Date;
    paying: readonly string[];
    afterTrackingNumber?: string;
    limit?: number;
  }): Promise<BookingRecord<T>[]>;
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
  /** The party was changed since the revision the edit was made on: `current` is how it is now. */
  | { ok: false; reason: 'changed'; current: SavedParty }
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
  /**
   * Replaces a saved party's details (its key follows them); its uses and last use stay. With
   * `revision` (partyRevision of the details the edit was made on), only if they are still those:
   * optimistic concurrency, as for bookings, across replicas too.
   */
  edit(id: string, details: Party, revision?: string): Promise<PartyEditResult>;
  /** True when it was there. */
  delete(id: string): Promise<boolean>;
}

/** Everything that can run inside one transaction. */
/** Who booked or updated, in order, shared by the replicas (the Home tab redraws on it). */
export interface ActivityLog {
  /** `userId` booked or updated something, through this replica. */
  record(userId: string): Promise<void>;
  /** The newest change's number (0 when none): where a replica starting now begins to read. */
  latest(): Promise<number>;
  /** Changes numbered above `seq`, oldest first, a few hundred at most. */
  since(seq: number): Promise<{ seq: number; userId: string; byThisReplica: boolean }[]>;
  /** Deletes changes older than an hour; returns how many. */
  purgeExpired(): Promise<number>;
}

/** A parcel's status as someone recorded it (nothing here comes from the courier). */
export interface StatusEntry {
  trackingNumber: string;
  /** Its place in the tracking number's history: 1, 2, 3, … */
  seq: number;
  status: string;
  reason?: string;
  note?: string;
  userId: string;
  at: Date;
}

export interface Statuses {
  /**
   * Appends a status to the tracking number's history, unless it already has that status (and
   * reason): then nothing is written and `current` says what it is. Concurrent calls, on any replica,
   * are numbered in the order they commit. `at`: when it happened, as a courier's file says (never
   * later than now); by default, now.
   */
  record(
    input: Omit<StatusEntry, 'seq' | 'at'> & { at?: Date },
  ): Promise<{ recorded: true; entry: StatusEntry } | { recorded: false; current: StatusEntry }>;
  /** The tracking number's status now: the last one recorded. */
  latest(trackingNumber: string): Promise<StatusEntry | undefined>;
  /** Every status recorded for it, oldest first. */
  history(trackingNumber: string): Promise<StatusEntry[]>;
  /** The latest status of each of these tracking numbers that has one. */
  latestOf(trackingNumbers: readonly string[]): Promise<Map<string, StatusEntry>>;
  /** Statuses recorded in the range, oldest first. */
  between(range: TimeRange): Promise<StatusEntry[]>;
}

export interface Digests {
  /** Claims the digest of `day` (YYYY-MM-DD) for this replica: true for the first claim of that day, by any replica; false after. */
  claim(day: string): Promise<boolean>;
  /** Gives this replica's claim of `day` back (its digest could not be posted), so the next look tries again. */
  release(day: string): Promise<void>;
}

/** A booking a rule of attention found: its owner, and the moment the rule counts from. */
export interface AttentionRow {
  trackingNumber: string;
  ownerId: string;
  /** The conversation it was booked in: who may see the item (the access rule). */
  channelId: string;
  since: Date;
}

/** The queries behind the attention rules, each one range of an index. */
export interface AttentionQueries {
  /**
   * Bookings whose latest status is one of `statuses`, recorded at or before `before` (`since`: when), oldest
   * first; at most `limit` (default 1000). Only those paid by `paymentMethod`, and with no remittance line
   * of an outcome in `withoutRemittance`, when given; with `counting`, how many entries of that status
   * each booking's history has (`counted`).
   */
  lastStatusBefore(input: {
    statuses: readonly string[];
    before: Date;
    paymentMethod?: string;
    withoutRemittance?: readonly string[];
    counting?: string;
    limit?: number;
  }): Promise<(AttentionRow & { status: string; counted?: number })[]>;
  /** Bookings to be picked up before `pickupBefore` (`since`: then) with no status recorded, oldest first. */
  notPickedUp(input: { pickupBefore: Date; limit?: number }): Promise<AttentionRow[]>;
}

/** An item's reminder as the database holds it: who claimed it, when it was sent, snoozed, escalated. */
export interface ReminderRow {
  rule: string;
  key: string;
  /** Who was (or is being) reminded. */
  ownerId: string;
  /** The `since` of the item reminded: a later one is a new episode, reminded again. */
  since: Date;
  /** Changes with every write: a claim is made on the row as it was read. */
  version: number;
  /** The replica sending it now; undefined once sent or given back. */
  claimedBy?: string;
  /** True when that replica holds no live lease: another may take it over. */
  claimGone: boolean;
  claimedAt: Date;
  /** The claim's DM, found by it in the DM's metadata when another replica takes over. */
  batch: string;
  sentAt?: Date;
  dmChannel?: string;
  dmTs?: string;
  snoozedUntil?: Date;
  /** When its DM was redrawn saying the item is settled (no longer needs attention). */
  settledAt?: Date;
  /** When the escalation was claimed; posted once `escalationBy` is gone. */
  escalatedAt?: Date;
  /** The replica posting the escalation now. */
  escalationBy?: string;
  /** True when that replica holds no live lease: another may take it over. */
  escalationGone: boolean;
  /** The claim's escalation, found by it in the post's metadata when another replica takes over. */
  escalationBatch?: string;
}

/** What a DM claims: the item, and the version of its row that was read (0 when it had none). */
export interface ReminderClaim {
  rule: string;
  key: string;
  since: Date;
  version: number;
}

/** Reminders of what needs attention, each item's sent once across replicas (the database decides). */
export interface Reminders {
  /** The rows of these items (by rule and key), with whether their claimer is gone. */
  of(items: readonly { rule: string; key: string }[]): Promise<ReminderRow[]>;
  /** When each of these people was last claimed a DM for. */
  lastDmAt(ownerIds: readonly string[]): Promise<Map<string, Date>>;
  /**
   * Claims these items for one DM to `ownerId` by this replica, all or none: none when another
   * replica claimed a DM for that person after `lastDmAt` or changed any row since it was read.
   * Returns the claim's batch id.
   */
  claim(input: {
    ownerId: string;
    lastDmAt: Date | undefined;
    items: readonly ReminderClaim[];
  }): Promise<string | undefined>;
  /** The batch's DM was posted (or found posted): recorded, its claim ended. */
  sent(
    batch: string,
    items: readonly { rule: string; key: string }[],
    dm: { channel: string; ts: string },
  ): Promise<void>;
  /** The batch's DM could not be posted: its claim given back, so a later turn tries again. */
  release(batch: string): Promise<void>;
  /**
   * The rows whose DM was sent and whose item is no longer among `open` (or is another owner's now),
   * not yet settled: marked settled now, each by one replica, which redraws their DM.
   */
  settle(open: readonly { rule: string; key: string; ownerId: string }[]): Promise<ReminderRow[]>;
  /** Every row whose reminder is this DM. */
  ofDm(dm: { channel: string; ts: string }): Promise<ReminderRow[]>;
  /** Until when the item's reminder waits; false when it was never sent. */
  snooze(item: { rule: string; key: string }, until: Date): Promise<boolean>;
  /**
   * Claims the escalation of the item as it was read, in `batch`: true once, for one replica (again
   * for another once this one's claim is gone or stale).
   */
  claimEscalation(item: { rule: string; key: string; version: number }, batch: string): Promise<boolean>;
  /** The batch's escalation was posted (or found posted): its claim ended. */
  escalated(batch: string): Promise<void>;
  /** The escalation could not be posted: a later turn tries again. */
  releaseEscalation(item: { rule: string; key: string }): Promise<void>;
  /** Deletes the rows of items not among `open` with nothing claimed, sent, escalated or snoozed since `before`; how many. */
  purgeClosed(open: readonly { rule: string; key: string }[], before: Date): Promise<number>;
}

export interface Recognition {
  /** Turns recognition of tracking numbers on or off in a channel (`userId` turned it on). */
  turn(channelId: string, on: boolean, userId: string): Promise<void>;
  isOn(channelId: string): Promise<boolean>;
  /** The bookings among these tracking numbers, none unless recognition is on in the channel: one lookup. */
  bookingsIn(channelId: string, trackingNumbers: readonly string[]): Promise<BookingRecord[]>;
  /** Those of the numbers not yet answered in the thread, now marked answered, across replicas. */
  claim(channelId: string, threadTs: string, trackingNumbers: readonly string[]): Promise<string[]>;
  /** Gives claimed numbers back when their reply could not be posted, so the thread's next mention answers. */
  release(channelId: string, threadTs: string, trackingNumbers: readonly string[]): Promise<void>;
}

/** A receiver's earlier parcels, counted from our own records: statuses dispatchers recorded, remittances. */
export interface ReceiverCounts {
  parcels: number;
  /** Delivered as last recorded, or COD money remitted on it (and not returned since). */
  delivered: number;
  /** Failed delivery attempts recorded, over all their parcels. */
  failed: number;
  /** Returned to sender as last recorded. */
  returned: number;
  /** COD parcels with a failed attempt the receiver refused. */
  refused: number;
}

/** A receiver's record, with what their latest parcels (the risk rule's windows) hold. */
export interface ReceiverHistory extends ReceiverCounts {
  /** Parcels returned or refused among the latest `windows.returns`; failed attempts among the latest `windows.failed`. */
  recent: { returns: number; failed: number };
}

/** The record a booking was checked against when booked, and who confirmed a flagged one. */
export interface ReceiverCheck extends ReceiverCounts {
  flagged: boolean;
  confirmedBy?: string;
}

export interface Receivers {
  /** The record of the receiver whose phone key (phoneKey) this is: one query along bookings_receiver_phone. */
  history(
    phone: string,
    windows: { returns: number; failed: number },
    where?: InChannels,
  ): Promise<ReceiverHistory>;
  /** Kept with a booking, in its transaction. */
  keep(trackingNumber: string, check: ReceiverCheck): Promise<void>;
  checksOf(trackingNumbers: readonly string[]): Promise<Map<string, ReceiverCheck>>;
  /** Bookings booked in the range whose receiver the rule flagged. */
  countFlagged(range: TimeRange): Promise<number>;
}

/** Which SMS: a booking's event, and which of its kind (the status's seq; 0 for the booking). */
export interface SmsKey {
  trackingNumber: string;
  event: string;
  occurrence: number;
}

/** A thread line an SMS row waits to have posted: held for quiet hours, waiting for the gateway, or its outcome. */
export type SmsNote = 'held' | 'waiting' | 'done';

/** An SMS in the outbox, as the sender reads it. */
export interface SmsRow extends SmsKey {
  /** The language it was written in, once it was. */
  language?: string;
  reason?: string;
  attempt?: number;
  phoneKey?: string;
  /** `calling`: a replica began the gateway call and has not recorded what came of it. */
  state: 'queued' | 'calling' | 'done';
  /** sent, logged, refused, unknown, not_mobile, off, expired. */
  outcome?: string;
  detail?: string;
  message?: string;
  dueAt: Date;
  heldUntil?: Date;
  tries: number;
  /** The line to post in the booking's thread, if one waits. */
  note?: SmsNote;
  /** The lines posted so far: each kind once. */
  noted: SmsNote[];
}

/** What a change to a claimed row may set. */
export type SmsChange = Partial<
  Pick<
    SmsRow,
    'state' | 'outcome' | 'detail' | 'message' | 'language' | 'dueAt' | 'heldUntil' | 'note' | 'noted'
  >
>;

/** The receivers' SMS outbox: one row per booking and event, claimed by one replica at a time. */
export interface SmsOutbox {
  /** Queues an SMS unless that booking's event has one already: true when queued now. */
  enqueue(
    row: SmsKey & { reason?: string; attempt?: number; phoneKey?: string; dueAt: Date },
  ): Promise<boolean>;
  /**
   * Claims for this replica up to `limit` rows with work now: due to be sent, a thread line to post,
   * or a call a replica that is gone began. Rows another live replica holds are left to it.
   */
  claim(limit: number): Promise<SmsRow[]>;
  /**
   * Marks a claimed row as being sent, unless `perMinute` calls were begun in the last minute (by any
   * replica): false then, and it waits for the next turn.
   */
  startCall(key: SmsKey, perMinute: number): Promise<boolean>;
  /** Changes a row this replica holds; false when it no longer does. */
  update(key: SmsKey, change: SmsChange): Promise<boolean>;
  /** Gives back every row this replica holds (its turn is over). */
  release(): Promise<void>;
  /** The booking's SMS, in the order they were queued. */
  of(trackingNumber: string): Promise<SmsRow[]>;
  /**
   * Texts to a receiver's phone (phoneKey) that the gateway refused or that may not have arrived, of all
   * finished; of bookings in these channels only, when given (the access rule's scope).
   */
  failuresTo(phoneKey: string, where?: InChannels): Promise<{ texts: number; failed: number }>;
  /** The receiver with this phone key asked not to be texted (`optedOut`), or may be again; true when it changed. */
  setOptedOut(phoneKey: string, optedOut: boolean, userId: string): Promise<boolean>;
  /** Whether the receiver with this phone key asked not to be texted. */
  isOptedOut(phoneKey: string): Promise<boolean>;
}

/** The columns a person chose for a courier's status export, kept by the file's headers (as JSON). */
export interface StatusColumnsTable {
  get(headers: string): Promise<StatusColumns | undefined>;
  put(input: { headers: string; columns: StatusColumns; userId: string }): Promise<void>;
}

export interface StoreTables {
  drafts: Drafts;
  bookings: Bookings;
  attempts: Attempts;
  audit: Audit;
  trackingNumbers: TrackingNumbers;
  deliveries: Deliveries;
  parties: Parties;
  imports: Imports;
  activity: ActivityLog;
  remittances: Remittances;
  statuses: Statuses;
  statusColumns: StatusColumnsTable;
  digests: Digests;
  attention: AttentionQueries;
  recognition: Recognition;
  receivers: Receivers;
  reminders: Reminders;
  sms: SmsOutbox;
  /** The weekly report's claims, keyed on the day it is due (YYYY-MM-DD). */
  weeklyReports: Digests;
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
  /** PostgreSQL: this replica's pool, connections in use and callers waiting (undefined on SQLite). */
  pool(): { inUse: number; waiting: number } | undefined;
  /**
   * Stops renewing the lease, releases it (so other replicas recover this one's leftover
   * attempts at once) and closes the database; later calls reject. Calling it twice is harmless.
   */
  close(): Promise<void>;
}
