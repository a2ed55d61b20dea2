// The schema's history, one list for both backends, and the runner that applies it once.
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Backend, BackendKind } from './backend.js';
import { BOOKED, bookingTerms, channelTerm, statusTerm } from './booking-search.js';
import { NewerSchemaError, StoreUnavailableError } from './errors.js';
import { receiverPhoneOf } from './receivers.js';
import type { Db, Tables } from './schema.js';

/*
 * Append-only: never edit a migration that has shipped, add a new one. Each migration is
 * recorded by version and name in `store_migrations`; all pending ones are applied in one
 * transaction, so a failure leaves the database as it was.
 */

export interface Migration {
  /** 1, 2, 3, … with no gaps. */
  version: number;
  name: string;
  up(db: Kysely<unknown>, kind: BackendKind): Promise<void>;
}

/** Milliseconds since the epoch: INTEGER is 64-bit in SQLite, PostgreSQL needs BIGINT. */
const epochMs = (kind: BackendKind) => (kind === 'sqlite' ? 'integer' : 'bigint');

/** SQLite tables are STRICT (types enforced, as PostgreSQL does anyway). */
const strict =
  (kind: BackendKind) =>
  <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    kind === 'sqlite' ? table.modifyEnd(sql`strict`) : table;

export const MIGRATIONS: readonly Migration[] = [
  {
    // Versions 1 to 3 are what the SQLite-only store made, with the same names.
    version: 1,
    name: 'drafts, bookings, attempts, audit',
    async up(db, kind) {
      const time = epochMs(kind);
      await db.schema
        .createTable('drafts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('drafts_expires_at').on('drafts').column('expires_at').execute();

      await db.schema
        .createTable('bookings')
        .addColumn('tracking_number', 'text', (c) => c.primaryKey())
        .addColumn('tracking_ref_no', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('card_channel_id', 'text')
        .addColumn('card_ts', 'text')
        .addColumn('audit_card_ts', 'text')
        .addColumn('booked_by', 'text', (c) => c.notNull())
        .addColumn('booked_at', time, (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addColumn('updated_at', time)
        .$call(strict(kind))
        .execute();

      await db.schema
        .createTable('attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addCheckConstraint('attempts_state', sql`state in ('in-flight', 'succeeded', 'failed', 'unknown')`)
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('attempts_state').on('attempts').column('state').execute();

      await db.schema
        .createTable('audit')
        .addColumn('id', time, (c) =>
          kind === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
        )
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('tracking_number', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('request', 'text')
        .addColumn('response', 'text')
        .addColumn('detail', 'text')
        .$call(strict(kind))
        .execute();
      await db.schema
        .createIndex('audit_tracking_number')
        .on('audit')
        .columns(['tracking_number', 'id'])
        .execute();
      await db.schema.createIndex('audit_operation').on('audit').columns(['operation', 'id']).execute();
    },
  },
  {
    version: 2,
    name: 'tracking number counters and reservations',
    async up(db, kind) {
      const time = epochMs(kind);
      await db.schema
        .createTable('tracking_counters')
        .addColumn('prefix', 'text', (c) => c.primaryKey())
        .addColumn('last', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema
        .createTable('tracking_reserved')
        .addColumn('tracking_number', 'text', (c) => c.primaryKey())
        .addColumn('reserved_at', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      // Numbers already booked are used: never hand them out. (`where true`: SQLite's upsert-after-SELECT rule.)
      await sql`insert into tracking_reserved (tracking_number, reserved_at)
        select tracking_number, booked_at from bookings where true
        on conflict do nothing`.execute(db);
    },
  },
  {
    version: 3,
    name: 'attempts: waybill, person, conversation and claim',
    async up(db) {
      // SQLite adds one column per statement.
      for (const column of ['tracking_number', 'user_id', 'channel_id', 'claim', 'superseded_by']) {
        await db.schema.alterTable('attempts').addColumn(column, 'text').execute();
      }
      await db.schema
        .createIndex('attempts_claim')
        .on('attempts')
        .column('claim')
        .where(sql.ref('claim'), 'is not', null)
        .execute();
      // Rows written before this version had the tracking number only inside their key, in one of
      // these two shapes; later keys are never read apart.
      const legacy = [/^book:[^:]+:(.+)$/, /^update:(.+):v\d+$/];
      const { rows } = await sql<{ key: string }>`select key from attempts`.execute(db);
      for (const { key } of rows) {
        const trackingNumber = legacy.map((shape) => shape.exec(key)?.[1]).find(Boolean);
        if (trackingNumber) {
          await sql`update attempts set tracking_number = ${trackingNumber} where key = ${key}`.execute(db);
        }
      }
    },
  },
  {
    version: 4,
    name: 'replicas: attempt owners, leases, deliveries, reservation holders',
    async up(db, kind) {
      const time = epochMs(kind);
      await db.schema.alterTable('attempts').addColumn('owner', 'text').execute();
      await db.schema.alterTable('tracking_reserved').addColumn('reserved_by', 'text').execute();
      await db.schema
        .createTable('replica_leases')
        .addColumn('replica_id', 'text', (c) => c.primaryKey())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('renewed_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema
        .createTable('deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('claimed_at', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('deliveries_claimed_at').on('deliveries').column('claimed_at').execute();
    },
  },
  {
    version: 5,
    name: 'attempts: the view they were made from',
    async up(db) {
      await db.schema.alterTable('attempts').addColumn('view_id', 'text').execute();
    },
  },
  {
    version: 6,
    name: 'address book: parties and the words they are found by',
    async up(db, kind) {
      const time = epochMs(kind);
      const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
      await db.schema
        .createTable('parties')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', text)
        .addColumn('phone', 'text', text)
        .addColumn('email', 'text', text)
        .addColumn('street', 'text', text)
        .addColumn('region', 'text', text)
        .addColumn('city', 'text', text)
        .addColumn('district', 'text', text)
        .addColumn('neighbourhood', 'text', text)
        .addColumn('postal', 'text', text)
        .addColumn('country', 'text', text)
        .addColumn('latitude', kind === 'sqlite' ? 'real' : 'double precision')
        .addColumn('longitude', kind === 'sqlite' ? 'real' : 'double precision')
        .addColumn('name_words', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time, (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('parties_last_used_at').on('parties').column('last_used_at').execute();
      await db.schema
        .createTable('party_terms')
        // Byte order in PostgreSQL too, so a prefix is one range of the index whatever the database's collation.
        .addColumn('term', kind === 'sqlite' ? 'text' : sql`text collate "C"`, (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('party_terms_pk', ['term', 'field', 'party_id'])
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('party_terms_party_id').on('party_terms').column('party_id').execute();
    },
  },
  {
    version: 7,
    name: 'bulk imports; bookings, drafts and audit by time and person',
    async up(db, kind) {
      const time = epochMs(kind);
      await db.schema
        .createTable('imports')
        .addColumn('file_hash', 'text', (c) => c.primaryKey())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('row_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema
        .createTable('import_rows')
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('tracking_ref_no', 'text')
        .addColumn('message', 'text')
        .addColumn('updated_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('import_rows_pk', ['file_hash', 'row'])
        .addCheckConstraint('import_rows_state', sql`state in ('pending', 'booked', 'failed', 'unknown')`)
        .$call(strict(kind))
        .execute();
      // The home tab (today's bookings, a person's drafts and quotes) and exports (a date range).
      await db.schema.createIndex('bookings_booked_at').on('bookings').column('booked_at').execute();
      await db.schema
        .createIndex('drafts_user_kind')
        .on('drafts')
        .columns(['user_id', 'kind', 'updated_at'])
        .execute();
      await db.schema.createIndex('audit_at').on('audit').columns(['at', 'id']).execute();
      await db.schema
        .createIndex('audit_user_operation')
        .on('audit')
        .columns(['user_id', 'operation', 'id'])
        .execute();
    },
  },
  {
    version: 8,
    name: 'activity: who booked or updated, read by every replica for its Home tabs',
    async up(db, kind) {
      await db.schema
        .createTable('activity')
        .addColumn('seq', epochMs(kind), (c) =>
          kind === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
        )
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('replica_id', 'text', (c) => c.notNull())
        .addColumn('at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('activity_at').on('activity').column('at').execute();
    },
  },
  {
    version: 9,
    name: 'bookings by pickup time, for the pickup manifest',
    async up(db, kind) {
      await db.schema.alterTable('bookings').addColumn('pickup_at', epochMs(kind)).execute();
      // Bookings stored before this: their record's pickupAt, an ISO instant as JSON keeps it.
      await sql`update bookings set pickup_at = ${
        kind === 'sqlite'
          ? sql`cast(round((julianday(json_extract(record, '$.pickupAt')) - 2440587.5) * 86400000) as integer)`
          : sql`(extract(epoch from ((record::jsonb) ->> 'pickupAt')::timestamptz) * 1000)::bigint`
      }`.execute(db);
      await db.schema
        .createIndex('bookings_pickup_at')
        .on('bookings')
        .columns(['pickup_at', 'tracking_number'])
        .execute();
    },
  },
  {
    version: 10,
    name: 'bulk runs and the queue of their rows',
    async up(db, kind) {
      const time = epochMs(kind);
      await db.schema
        .createTable('import_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('view_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('to_book', 'integer', (c) => c.notNull())
        .addColumn('reporter', 'text')
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('finished_at', time)
        .addCheckConstraint('import_runs_state', sql`state in ('running', 'reporting', 'done')`)
        .$call(strict(kind))
        .execute();
      // One run of a file at a time, whoever starts it, on any replica.
      await db.schema
        .createIndex('import_runs_one_per_file')
        .on('import_runs')
        .column('file_hash')
        .unique()
        .where(sql.ref('state'), '<>', 'done')
        .execute();
      await db.schema
        .createTable('import_queue')
        // `run_id:row`: a claim finds its row by one key (a tuple IN makes SQLite scan the queue).
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('run_id', 'text', (c) => c.notNull().references('import_runs.id').onDelete('cascade'))
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('booking', 'text')
        .addColumn('claimed_by', 'text')
        .addColumn('outcome', 'text')
        .addColumn('result', 'text')
        .addColumn('queued_at', time, (c) => c.notNull())
        .addUniqueConstraint('import_queue_run_row', ['run_id', 'row'])
        .addCheckConstraint('import_queue_state', sql`state in ('queued', 'claimed', 'done')`)
        .$call(strict(kind))
        .execute();
      // The next row to claim: oldest run first, in row order.
      await db.schema
        .createIndex('import_queue_next')
        .on('import_queue')
        .columns(['state', 'queued_at', 'run_id', 'row'])
        .execute();
    },
  },
  {
    version: 11,
    name: 'COD remittance files and their lines',
    async up(db, kind) {
      // A file once by the hash of its bytes; a correcting file is another file, beside it.
      await db.schema
        .createTable('remittance_files')
        .addColumn('file_hash', 'text', (c) => c.primaryKey())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('line_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      // Amounts are two-place decimal text, as the bookings hold them: never a float.
      await db.schema
        .createTable('remittance_lines')
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('line', 'integer', (c) => c.notNull())
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addColumn('amount', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('difference', 'text')
        .addColumn('remitted_at', 'text')
        .addPrimaryKeyConstraint('remittance_lines_pk', ['file_hash', 'line'])
        .$call(strict(kind))
        .execute();
      await db.schema
        .createIndex('remittance_lines_tracking_number')
        .on('remittance_lines')
        .columns(['tracking_number', 'outcome'])
        .execute();
    },
  },
  {
    version: 12,
    name: 'address book: parties in the order the type-ahead lists them',
    async up(db) {
      // A common word's matches are read from here, most recent first, until a page is full.
      await db.schema.dropIndex('parties_last_used_at').execute();
      await db.schema
        .createIndex('parties_recent')
        .on('parties')
        .columns(['last_used_at desc', 'id'])
        .execute();
      // A party's own terms, checked for the query's other words, are one range of this index.
      await db.schema.dropIndex('party_terms_party_id').execute();
      await db.schema
        .createIndex('party_terms_party_term')
        .on('party_terms')
        .columns(['party_id', 'term'])
        .execute();
    },
  },
  {
    version: 13,
    name: 'parcel statuses recorded by dispatchers',
    async up(db, kind) {
      await db.schema
        .createTable('booking_status')
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('note', 'text')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('at', epochMs(kind), (c) => c.notNull())
        // One entry per place in a history: two replicas can never both write the same one.
        .addPrimaryKeyConstraint('booking_status_pk', ['tracking_number', 'seq'])
        .$call(strict(kind))
        .execute();
      // The day's statuses, for the digest.
      await db.schema.createIndex('booking_status_at').on('booking_status').column('at').execute();
    },
  },
  {
    version: 14,
    name: 'daily digests, each day claimed once',
    async up(db, kind) {
      await db.schema
        .createTable('digests')
        // YYYY-MM-DD in WAYBILL_TIMEZONE: the key is the claim, whichever replica makes it first.
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('replica_id', 'text', (c) => c.notNull())
        .addColumn('claimed_at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
    },
  },
  {
    version: 15,
    name: 'bookings found by their words and filters',
    async up(db, kind) {
      await db.schema
        .createTable('booking_terms')
        // Byte order, as the address book's terms: a typed word's prefix is one range of the index.
        .addColumn('term', kind === 'sqlite' ? 'text' : sql`text collate "C"`, (c) => c.notNull())
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('booking_terms_pk', ['term', 'tracking_number'])
        .$call(strict(kind))
        .execute();
      // A booking's own terms, checked for a query's other words, and replaced when it changes.
      await db.schema
        .createIndex('booking_terms_tracking_number')
        .on('booking_terms')
        .columns(['tracking_number', 'term'])
        .execute();
      // Bookings stored before this, with their latest status.
      const { rows } = await sql<{
        tracking_number: string;
        record: string;
        booked_by: string;
        status: string | null;
      }>`
        select b.tracking_number, b.record, b.booked_by,
          (select s.status from booking_status s where s.tracking_number = b.tracking_number order by s.seq desc limit 1) as status
        from bookings b`.execute(db);
      for (const row of rows) {
        const terms = [
          ...bookingTerms(JSON.parse(row.record), row.booked_by),
          statusTerm(row.status ?? BOOKED),
        ];
        await (db as Kysely<Tables>)
          .insertInto('booking_terms')
          .values(terms.map((term) => ({ term, tracking_number: row.tracking_number })))
          .execute();
      }
    },
  },
  {
    version: 16,
    name: 'bookings: their owners',
    async up(db) {
      await db.schema.alterTable('bookings').addColumn('owner_id', 'text').execute();
      // Until now a booking was its booker's.
      await sql`update bookings set owner_id = booked_by`.execute(db);
      // A person's bookings, latest first: their Home tab and reminders.
      await db.schema
        .createIndex('bookings_owner')
        .on('bookings')
        .columns(['owner_id', 'booked_at desc'])
        .execute();
    },
  },
  {
    version: 17,
    name: 'what needs attention: statuses by kind and time',
    async up(db) {
      // Each status rule reads one range of this: a failed attempt, or picked up, before its cutoff.
      await db.schema
        .createIndex('booking_status_status_at')
        .on('booking_status')
        .columns(['status', 'at'])
        .execute();
    },
  },
  {
    version: 18,
    name: 'tracking numbers recognised in channel messages',
    async up(db, kind) {
      // A channel is in the table while recognition is on in it.
      await db.schema
        .createTable('recognise_channels')
        .addColumn('channel_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
      // The key is the claim: a number answered once in a thread, whichever replica sees it first.
      await db.schema
        .createTable('recognised_replies')
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('thread_ts', 'text', (c) => c.notNull())
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addColumn('at', epochMs(kind), (c) => c.notNull())
        .addPrimaryKeyConstraint('recognised_replies_pk', ['channel_id', 'thread_ts', 'tracking_number'])
        .$call(strict(kind))
        .execute();
    },
  },
  {
    version: 19,
    name: "receivers' records: bookings by receiver phone, and the record each was checked against",
    async up(db, kind) {
      await db.schema.alterTable('bookings').addColumn('receiver_phone', 'text').execute();
      // A receiver's parcels, latest first: the record is one range of this.
      await db.schema
        .createIndex('bookings_receiver_phone')
        .on('bookings')
        .columns(['receiver_phone', 'booked_at desc'])
        .execute();
      const rows = await (db as Kysely<Tables>)
        .selectFrom('bookings')
        .select(['tracking_number', 'record'])
        .execute();
      for (const row of rows) {
        const phone = receiverPhoneOf(JSON.parse(row.record));
        if (!phone) continue;
        await (db as Kysely<Tables>)
          .updateTable('bookings')
          .set({ receiver_phone: phone })
          .where('tracking_number', '=', row.tracking_number)
          .execute();
      }
      await db.schema
        .createTable('receiver_checks')
        .addColumn('tracking_number', 'text', (c) => c.primaryKey())
        .addColumn('parcels', 'integer', (c) => c.notNull())
        .addColumn('delivered', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('returned', 'integer', (c) => c.notNull())
        .addColumn('refused', 'integer', (c) => c.notNull())
        .addColumn('flagged', 'integer', (c) => c.notNull())
        .addColumn('confirmed_by', 'text')
        .$call(strict(kind))
        .execute();
    },
  },
  {
    version: 20,
    name: 'bookings: their payment method, for the COD rule',
    async up(db, kind) {
      // The COD rule reads it with the delivered status, instead of each booking's record.
      await db.schema.alterTable('bookings').addColumn('payment_method', 'text').execute();
      await sql`update bookings set payment_method = ${
        kind === 'sqlite'
          ? sql`json_extract(record, '$.paymentMethod')`
          : sql`(record::jsonb) ->> 'paymentMethod'`
      }`.execute(db);
      // What the status rules read of each booking they join, without its row: on SQLite the row's
      // record spills onto overflow pages that reading any later column walks (COD rule 18 → 7.5 ms CPU).
      await db.schema
        .createIndex('bookings_attention')
        .on('bookings')
        .columns(['tracking_number', 'payment_method', 'owner_id', 'booked_by'])
        .execute();
    },
  },
  {
    version: 21,
    name: 'reminders of what needs attention, claimed once',
    async up(db, kind) {
      const time = epochMs(kind);
      // The key is the claim: one row per item and rule, whichever replica writes it first.
      await db.schema
        .createTable('attention_reminders')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('since', time, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_at', time, (c) => c.notNull())
        .addColumn('batch', 'text', (c) => c.notNull())
        .addColumn('sent_at', time)
        .addColumn('dm_channel', 'text')
        .addColumn('dm_ts', 'text')
        .addColumn('snoozed_until', time)
        .addColumn('escalated_at', time)
        .addPrimaryKeyConstraint('attention_reminders_pk', ['key', 'rule'])
        .$call(strict(kind))
        .execute();
      // A person's last DM: at most one per ATTENTION_BATCH_EVERY.
      await db.schema
        .createIndex('attention_reminders_owner')
        .on('attention_reminders')
        .columns(['owner_id', 'claimed_at'])
        .execute();
      await db.schema
        .createIndex('attention_reminders_batch')
        .on('attention_reminders')
        .column('batch')
        .execute();
    },
  },
  {
    version: 22,
    name: 'escalations claimed by a replica, taken over when it is gone',
    async up(db) {
      // Set while a replica posts the escalation; its batch is in the post's metadata.
      await db.schema.alterTable('attention_reminders').addColumn('escalation_by', 'text').execute();
      await db.schema.alterTable('attention_reminders').addColumn('escalation_batch', 'text').execute();
    },
  },
  {
    version: 23,
    name: 'bookings keep how they were booked when no person typed them',
    async up(db) {
      // The card says so each time it is drawn, not only when first posted.
      await db.schema.alterTable('bookings').addColumn('booked_via', 'text').execute();
    },
  },
  {
    version: 24,
    name: 'bookings found by the conversation they were booked in',
    async up(db) {
      // Find's channel rule is a term like a status, so the search's index serves it: one per booking.
      await sql`insert into booking_terms (term, tracking_number)
        select ${channelTerm('')} || channel_id, tracking_number from bookings`.execute(db);
    },
  },
  {
    version: 25,
    name: 'the barangay by its name in stored bookings and drafts',
    async up(db) {
      // A party's `neighbourhood` (and a form's `consignee.neighbourhood`) is its `barangay` now. JSON as
      // stored has no spaces, and `"` inside a value is escaped: `neighbourhood":` ends a key only.
      for (const [table, column] of [
        ['bookings', 'record'],
        ['drafts', 'data'],
      ] as const) {
        await sql`update ${sql.table(table)} set ${sql.ref(column)} = replace(${sql.ref(column)}, 'neighbourhood":', 'barangay":')
          where ${sql.ref(column)} like '%neighbourhood":%'`.execute(db);
      }
    },
  },
  {
    version: 26,
    name: "an import's summary keeps where it was posted",
    async up(db) {
      // A booking from a file has no card: its statuses and changes go in its import's thread.
      await db.schema.alterTable('import_runs').addColumn('summary_channel_id', 'text').execute();
      await db.schema.alterTable('import_runs').addColumn('summary_ts', 'text').execute();
      await db.schema
        .createIndex('import_rows_tracking_number')
        .on('import_rows')
        .column('tracking_number')
        .execute();
    },
  },
  {
    version: 27,
    name: 'reminder DMs redrawn once their item is settled',
    async up(db, kind) {
      // Set by the replica that redraws the DM: each settled item's line is redrawn once.
      await db.schema.alterTable('attention_reminders').addColumn('settled_at', epochMs(kind)).execute();
    },
  },
  {
    version: 28,
    name: 'receivers texted once per booking and event, through an outbox',
    async up(db, kind) {
      const time = epochMs(kind);
      // The key is the "once": a booking's event (the status's seq; 0 for the booking) has one row.
      await db.schema
        .createTable('sms_outbox')
        .addColumn('tracking_number', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('occurrence', 'integer', (c) => c.notNull())
        .addColumn('language', 'text')
        .addColumn('reason', 'text')
        .addColumn('attempt', 'integer')
        .addColumn('phone_key', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('detail', 'text')
        .addColumn('message', 'text')
        .addColumn('due_at', time, (c) => c.notNull())
        .addColumn('held_until', time)
        .addColumn('called_at', time)
        .addColumn('tries', 'integer', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('note', 'text')
        .addColumn('noted', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('done_at', time)
        .addPrimaryKeyConstraint('sms_outbox_pk', ['tracking_number', 'event', 'occurrence'])
        .addCheckConstraint('sms_outbox_state', sql`state in ('queued', 'calling', 'done')`)
        .$call(strict(kind))
        .execute();
      await db.schema.createIndex('sms_outbox_due').on('sms_outbox').columns(['state', 'due_at']).execute();
      await db.schema.createIndex('sms_outbox_note').on('sms_outbox').column('note').execute();
      await db.schema.createIndex('sms_outbox_called').on('sms_outbox').column('called_at').execute();
      await db.schema
        .createIndex('sms_outbox_phone')
        .on('sms_outbox')
        .columns(['phone_key', 'outcome'])
        .execute();
    },
  },
  {
    version: 29,
    name: "the columns chosen for a courier's status export, by its headers",
    async up(db, kind) {
      await db.schema
        .createTable('status_file_columns')
        .addColumn('headers', 'text', (c) => c.primaryKey())
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('chosen_at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
    },
  },
  {
    version: 30,
    name: 'receivers who asked not to be texted',
    async up(db, kind) {
      // By the phone's key (phones.ts): the same receiver however their number was typed.
      await db.schema
        .createTable('sms_opt_outs')
        .addColumn('phone_key', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('at', epochMs(kind), (c) => c.notNull())
        .$call(strict(kind))
        .execute();
    },
  },
];

/** The SQLite-only store kept its version (1 to 3) in PRAGMA user_version, and no migration table. */
const LEGACY_VERSIONS = 3;

/** Any constant both backends' replicas agree on: the key of the PostgreSQL advisory lock. */
const MIGRATION_LOCK = 720_451_903;

interface Applied {
  version: number;
  name: string;
}

/** The migrations recorded in the database, in order. */
const appliedIn = (db: Db): Promise<Applied[]> =>
  db.selectFrom('store_migrations').select(['version', 'name']).orderBy('version').execute();

/** Whether `migrations` holds a recorded migration, at its number and by its name. */
const isKnown = (migrations: readonly Migration[], row: Applied) =>
  migrations[row.version - 1]?.name === row.name;

function newerBuild(found: string, known: number): NewerSchemaError {
  return new NewerSchemaError(
    `The database was migrated by a newer build of the bot (${found}; this build knows ${known} migrations): run that build or a newer one, or restore a backup made with this one`,
  );
}

/** A file from the SQLite-only store: record its versions as applied, so only the rest run. */
async function adoptLegacy(db: Db, migrations: readonly Migration[], at: number): Promise<Applied[]> {
  const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(db);
  const version = rows[0]?.user_version ?? 0;
  if (version > LEGACY_VERSIONS) throw newerBuild(`schema version ${version}`, migrations.length);
  const adopted = migrations.slice(0, version).map(({ version, name }) => ({ version, name }));
  if (adopted.length > 0) {
    await db
      .insertInto('store_migrations')
      .values(adopted.map((migration) => ({ ...migration, applied_at: at })))
      .execute();
  }
  return adopted;
}

/**
 * Whether the database holds exactly these migrations, read without a lock or a transaction: each is
 * committed with its row, so a complete list means `migrate` has nothing to do, and a store opening on
 * a migrated database skips its lock, table check and transaction. Anything else (no table yet, fewer
 * rows, a name this build does not know) is for `migrate`, which looks again under the lock.
 */
export async function isMigrated(
  backend: Pick<Backend, 'db' | 'translate'>,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<boolean> {
  const applied = await appliedIn(backend.db).catch((err: unknown) => {
    // No table yet is for `migrate` to see to; a database that does not answer is said at once.
    const translated = backend.translate(err);
    if (translated instanceof StoreUnavailableError) throw translated;
    return undefined;
  });
  // Versions are unique: as many rows as migrations, each known, is every one of them.
  return applied?.length === migrations.length && applied.every((row) => isKnown(migrations, row));
}

/**
 * Applies every migration the database lacks; returns the versions applied. Replicas starting
 * together on one database apply each migration exactly once: PostgreSQL serialises them with
 * an advisory lock, SQLite with BEGIN IMMEDIATE. Rejects with NewerSchemaError if the database
 * has a migration this build does not know.
 */
export async function migrate(
  backend: Backend,
  at: number,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration list out of order: expected version ${index + 1}, got ${migration.version}`);
    }
  });
  return backend.transaction(async (db) => {
    if (backend.kind === 'postgres') {
      // Migrating may take longer than an ordinary statement, and so may waiting for another replica's.
      await sql`set local statement_timeout = 0`.execute(db);
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(db);
    }
    await db.schema
      .createTable('store_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', epochMs(backend.kind), (c) => c.notNull())
      .execute();
    let applied = await appliedIn(db);
    if (applied.length === 0 && backend.kind === 'sqlite') applied = await adoptLegacy(db, migrations, at);
    const unknown = applied.find((row) => !isKnown(migrations, row));
    if (unknown) throw newerBuild(`migration ${unknown.version} "${unknown.name}"`, migrations.length);

    const done = new Set(applied.map((row) => row.version));
    const pending = migrations.filter((migration) => !done.has(migration.version));
    for (const migration of pending) {
      await migration.up(db as Kysely<unknown>, backend.kind);
      await db
        .insertInto('store_migrations')
        .values({ version: migration.version, name: migration.name, applied_at: at })
        .execute();
    }
    // An older build reads only user_version: a number beyond its own makes it refuse the file.
    if (backend.kind === 'sqlite' && pending.length > 0) {
      await sql.raw(`pragma user_version = ${migrations.length}`).execute(db);
    }
    return pending.map((migration) => migration.version);
  });
}
