// The tables as the query builder sees them (rows as stored), for both backends.
import type { Generated, Kysely } from 'kysely';
import type { AttemptState, ImportRowState, ImportRunState } from './types.js';

/*
 * Times are whole milliseconds since the epoch (INTEGER in SQLite, BIGINT in PostgreSQL, read
 * back as numbers), JSON payloads are TEXT: the same values on both backends, so every query
 * exists once.
 */

export interface DraftsTable {
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

export interface BookingsTable {
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
  /** Null only in rows written before owners: read as booked_by. */
  owner_id: string | null;
  updated_by: string | null;
  updated_at: number | null;
  /** The record's pickup time, for the manifest (null only where a record had none). */
  pickup_at: number | null;
  /** The receiver's phone as E.164 (phoneKey), for their earlier parcels; null when it cannot be dialled. */
  receiver_phone: string | null;
  /** The record's payment method, for the COD rule (null where a record has none). */
  payment_method: string | null;
  /** 'workflow' for a Workflow Builder step's booking; null when a person booked it. */
  booked_via: string | null;
}

export interface AttemptsTable {
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
  owner: string | null;
  view_id: string | null;
}

export interface AuditTable {
  id: Generated<number>;
  at: number;
  user_id: string;
  operation: string;
  tracking_number: string | null;
  outcome: string;
  request: string | null;
  response: string | null;
  detail: string | null;
}

export interface TrackingCountersTable {
  prefix: string;
  last: number;
}

export interface TrackingReservedTable {
  tracking_number: string;
  reserved_at: number;
  reserved_by: string | null;
}

export interface ReplicaLeasesTable {
  replica_id: string;
  started_at: number;
  renewed_at: number;
  expires_at: number;
}

export interface ActivityTable {
  seq: Generated<number>;
  user_id: string;
  replica_id: string;
  at: number;
}

export interface DeliveriesTable {
  id: string;
  claimed_at: number;
}

export interface PartiesTable {
  id: string;
  /** Normalised name and phone: one row per party. */
  key: string;
  name: string;
  phone: string;
  email: string;
  street: string;
  region: string;
  city: string;
  district: string;
  neighbourhood: string;
  postal: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  /** How many distinct words its name has: `namedIn` needs all of them. */
  name_words: number;
  created_at: number;
  last_used_at: number;
  uses: number;
}

/** The words a party is found by: of its name, its city, and forms of its phone number. */
export interface PartyTermsTable {
  term: string;
  /** 'name' | 'city' | 'phone' */
  field: string;
  party_id: string;
}

/** A booking's search words and filters (booking-search.ts). */
export interface BookingTermsTable {
  term: string;
  tracking_number: string;
}

export interface ImportsTable {
  file_hash: string;
  file_name: string;
  user_id: string;
  channel_id: string;
  row_count: number;
  created_at: number;
}

export interface ImportRowsTable {
  file_hash: string;
  row: number;
  tracking_number: string;
  state: ImportRowState;
  tracking_ref_no: string | null;
  message: string | null;
  updated_at: number;
}

export interface ImportRunsTable {
  id: string;
  file_hash: string;
  file_name: string;
  user_id: string;
  channel_id: string;
  view_id: string;
  state: ImportRunState;
  to_book: number;
  /** The replica posting the run's summary, once every row is done. */
  reporter: string | null;
  started_at: number;
  finished_at: number | null;
  /** Where its summary was posted, whose thread names each booking of the file. */
  summary_channel_id: string | null;
  summary_ts: string | null;
}

/** A row of a run: `queued` until a replica claims it, `done` with its result. */
export interface ImportQueueTable {
  /** `run_id:row` */
  id: string;
  run_id: string;
  row: number;
  state: 'queued' | 'claimed' | 'done';
  /** JSON: what booking the row needs (QueuedBooking); null for a row settled when the run started. */
  booking: string | null;
  claimed_by: string | null;
  outcome: string | null;
  /** JSON: the row's result, once done. */
  result: string | null;
  queued_at: number;
}

export interface RemittanceFilesTable {
  file_hash: string;
  file_name: string;
  user_id: string;
  channel_id: string;
  line_count: number;
  created_at: number;
}

export interface RemittanceLinesTable {
  file_hash: string;
  line: number;
  tracking_number: string;
  amount: string | null;
  outcome: string;
  difference: string | null;
  remitted_at: string | null;
}

/** One status of a parcel, as a dispatcher recorded it; `seq` numbers a tracking number's history 1, 2, 3, … */
export interface BookingStatusTable {
  tracking_number: string;
  seq: number;
  status: string;
  /** A failed attempt's reason. */
  reason: string | null;
  note: string | null;
  user_id: string;
  at: number;
}

/** A day whose digest a replica claimed (and so posts): one row per day. */
export interface DigestsTable {
  day: string;
  replica_id: string;
  claimed_at: number;
}

/** The columns chosen for a courier's status export with these headers (a JSON list). */
export interface StatusFileColumnsTable {
  headers: string;
  /** JSON: which header holds the tracking number, the status, the date, the remarks. */
  columns: string;
  user_id: string;
  chosen_at: number;
}

/** A channel where tracking numbers in messages are recognised: a row while it is on. */
export interface RecogniseChannelsTable {
  channel_id: string;
  user_id: string;
  at: number;
}

/** A tracking number the bot answered in a thread: one row each, so it is answered once there. */
export interface RecognisedRepliesTable {
  channel_id: string;
  thread_ts: string;
  tracking_number: string;
  at: number;
}

/** The receiver's record a booking was checked against when booked (only when they had earlier parcels). */
export interface ReceiverChecksTable {
  tracking_number: string;
  parcels: number;
  delivered: number;
  failed: number;
  returned: number;
  refused: number;
  /** 1 when the risk rule flagged the receiver. */
  flagged: number;
  /** Who said they called the receiver (a flagged COD booking). */
  confirmed_by: string | null;
}

/** An item of attention's reminder: claimed by one replica, sent once, snoozed, escalated once. */
export interface AttentionRemindersTable {
  rule: string;
  key: string;
  owner_id: string;
  since: number;
  version: number;
  claimed_by: string | null;
  claimed_at: number;
  batch: string;
  sent_at: number | null;
  dm_channel: string | null;
  dm_ts: string | null;
  snoozed_until: number | null;
  escalated_at: number | null;
  escalation_by: string | null;
  escalation_batch: string | null;
  settled_at: number | null;
}

export interface StoreMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

/** Receivers who asked not to be texted, by their phone's key, and who recorded it. */
export interface SmsOptOutsTable {
  phone_key: string;
  user_id: string;
  at: number;
}

/** Receivers' SMS, one row per booking and event (the status's seq), sent once across replicas. */
export interface SmsOutboxTable {
  tracking_number: string;
  event: string;
  occurrence: number;
  language: string | null;
  reason: string | null;
  attempt: number | null;
  phone_key: string | null;
  state: string;
  outcome: string | null;
  detail: string | null;
  message: string | null;
  due_at: number;
  held_until: number | null;
  called_at: number | null;
  tries: number;
  claimed_by: string | null;
  note: string | null;
  noted: string;
  created_at: number;
  done_at: number | null;
}

export interface Tables {
  drafts: DraftsTable;
  bookings: BookingsTable;
  attempts: AttemptsTable;
  audit: AuditTable;
  tracking_counters: TrackingCountersTable;
  tracking_reserved: TrackingReservedTable;
  replica_leases: ReplicaLeasesTable;
  deliveries: DeliveriesTable;
  activity: ActivityTable;
  parties: PartiesTable;
  party_terms: PartyTermsTable;
  booking_terms: BookingTermsTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  import_runs: ImportRunsTable;
  import_queue: ImportQueueTable;
  remittance_files: RemittanceFilesTable;
  remittance_lines: RemittanceLinesTable;
  booking_status: BookingStatusTable;
  digests: DigestsTable;
  status_file_columns: StatusFileColumnsTable;
  recognise_channels: RecogniseChannelsTable;
  recognised_replies: RecognisedRepliesTable;
  receiver_checks: ReceiverChecksTable;
  attention_reminders: AttentionRemindersTable;
  sms_outbox: SmsOutboxTable;
  sms_opt_outs: SmsOptOutsTable;
  store_migrations: StoreMigrationsTable;
}

/** The database, or one connection inside a transaction: table modules take either. */
export type Db = Kysely<Tables>;
