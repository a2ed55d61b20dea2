// Opening the store: SQLite by default, PostgreSQL for a postgres:// URL, migrated and leased.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { activity } from './activity.js';
import { attempts } from './attempts.js';
import { attention } from './attention.js';
import { audit } from './audit.js';
import {
  type Backend,
  connectPostgres,
  connectSqlite,
  DEFAULT_DATABASE_PATH,
  isPostgresUrl,
} from './backend.js';
import { BOOKING_THRESHOLDS } from './booking-search.js';
import { bookings } from './bookings.js';
import type { Context, Scope } from './context.js';
import { DEFAULT_DELIVERY_TTL_MS, deliveries } from './deliveries.js';
import { DEFAULT_DRAFT_TTL_MS, drafts } from './drafts.js';
import { NewerSchemaError, redactUrl, StoreError, StoreUnavailableError } from './errors.js';
import { imports } from './imports.js';
import { DEFAULT_LEASE_RENEW_MS, DEFAULT_LEASE_TTL_MS, leases } from './leases.js';
import { isMigrated, migrate } from './migrations.js';
import { PARTY_THRESHOLDS, parties } from './parties.js';
import { receivers } from './receivers.js';
import { recognition } from './recognition.js';
import { reminders } from './reminders.js';
import { remittances } from './remittances.js';
import type { Db } from './schema.js';
import { smsOutbox } from './sms-outbox.js';
import { statusColumns } from './status-columns.js';
import { digests, statuses } from './statuses.js';
import { trackingNumbers } from './tracking-numbers.js';
import type { SearchThresholds, Store, StoreTables } from './types.js';

export { DEFAULT_AUDIT_LIMIT, DEFAULT_AUDIT_PAGE } from './audit.js';
export { DEFAULT_DATABASE_PATH, isPostgresUrl } from './backend.js';
export { BOOKING_THRESHOLDS } from './booking-search.js';
export { DEFAULT_DELIVERY_TTL_MS } from './deliveries.js';
export { DEFAULT_DRAFT_TTL_MS } from './drafts.js';
export * from './errors.js';
export { DEFAULT_LEASE_RENEW_MS, DEFAULT_LEASE_TTL_MS } from './leases.js';
export { PARTY_SEARCH_LIMIT, PARTY_THRESHOLDS, partyKey, partyRevision, wordsOf } from './parties.js';
export { TRACKING_COUNTER_DIGITS } from './tracking-numbers.js';
export type * from './types.js';

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_POOL_WAIT_MS = 10_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** How long SQLite waits for another process's write lock before failing. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface StoreOptions {
  /** `postgres://…` (or `postgresql://…`): keep everything in that PostgreSQL database. */
  url?: string;
  /** Without `url`: the SQLite file (its directory is created), or `':memory:'`. Default DEFAULT_DATABASE_PATH. */
  path?: string;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /** How long a draft lives after its last save. Default 7 days. */
  draftTtlMs?: number;
  /** How long a claimed delivery id is remembered. Default 1 hour. */
  deliveryTtlMs?: number;
  /** Unique per running process; default host name, process id and a random suffix. */
  replicaId?: string;
  /** A replica not heard from for this long is gone: its in-flight attempts become recoverable. Default 30 s. */
  leaseTtlMs?: number;
  /** How often the lease is renewed in the background; 0 turns that off (tests). Default 10 s. */
  leaseRenewMs?: number;
  /** A background lease renewal failed (the database is unreachable, say); the next one retries. */
  onBackgroundError?: (err: unknown) => void;
  /** PostgreSQL: a pooled connection failed; the pool replaces it by itself. */
  onPoolError?: (err: Error) => void;
  /** PostgreSQL: connections per replica. Default 10. */
  poolSize?: number;
  /** PostgreSQL: how long opening a connection may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** PostgreSQL: how long a call may wait for a pooled connection while all are busy. Default 10 s. */
  poolWaitMs?: number;
  /** PostgreSQL: the server cancels statements running longer. Default 10 s. */
  statementTimeoutMs?: number;
  /** SQLite: how long to wait for another process's write lock. Default 5 s. */
  busyTimeoutMs?: number;
  /** Row counts where the searches change strategy, for tests on small stores. Default BOOKING_THRESHOLDS, PARTY_THRESHOLDS. */
  searchThresholds?: Partial<SearchThresholds>;
}

/** The backend the options ask for; nothing is connected yet for PostgreSQL. */
function connect(options: StoreOptions): Backend {
  if (!options.url) {
    const busyTimeoutMs = positive('busyTimeoutMs', options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    return connectSqlite(options.path ?? DEFAULT_DATABASE_PATH, busyTimeoutMs);
  }
  if (!isPostgresUrl(options.url))
    throw new StoreError('the URL must start with postgres:// or postgresql://');
  return connectPostgres(options.url, {
    poolSize: positive('poolSize', options.poolSize ?? DEFAULT_POOL_SIZE),
    connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
    poolWaitMs: positive('poolWaitMs', options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS),
    statementTimeoutMs: positive(
      'statementTimeoutMs',
      options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    ),
    ...(options.onPoolError ? { onPoolError: options.onPoolError } : {}),
  });
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be positive, got ${value}`);
  return value;
}

function defaultReplicaId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

function tablesOf(scope: Scope, context: Context): StoreTables {
  return {
    drafts: drafts(scope, context),
    bookings: bookings(scope, context),
    attempts: attempts(scope, context),
    audit: audit(scope, context),
    trackingNumbers: trackingNumbers(scope, context),
    deliveries: deliveries(scope, context),
    parties: parties(scope, context),
    imports: imports(scope, context),
    activity: activity(scope, context),
    remittances: remittances(scope, context),
    statuses: statuses(scope, context),
    statusColumns: statusColumns(scope, context),
    digests: digests(scope, context),
    attention: attention(scope, context),
    recognition: recognition(scope, context),
    receivers: receivers(scope),
    reminders: reminders(scope, context),
    sms: smsOutbox(scope, context),
    weeklyReports: digests(scope, context, 'week'),
  };
}

/** Every method of every table checks the store is open and turns "database gone" into StoreUnavailableError. */
function guarded(tables: StoreTables, guard: <T>(run: () => Promise<T>) => Promise<T>): StoreTables {
  const wrap = (group: object) =>
    Object.fromEntries(
      Object.entries(group).map(([name, method]) => [
        name,
        (...args: unknown[]) => guard(() => (method as (...a: unknown[]) => Promise<unknown>)(...args)),
      ]),
    );
  return Object.fromEntries(
    Object.entries(tables).map(([name, group]) => [name, wrap(group)]),
  ) as unknown as StoreTables;
}

/** The reason an open failed, as one line that names the database (password masked). */
function openFailure(location: string, err: unknown): StoreError {
  if (err instanceof NewerSchemaError)
    return new NewerSchemaError(`${location}: ${err.message}`, { cause: err });
  if (err instanceof StoreUnavailableError) {
    return new StoreUnavailableError(err.reason, { cause: err }, `Cannot reach the database ${location}`);
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new StoreError(`Cannot open the database ${location}: ${reason.replace(/\s+/g, ' ')}`, {
    cause: err,
  });
}

/**
 * Opens the store: connects, migrates (once, however many replicas start together), takes this
 * replica's lease and keeps renewing it. Rejects with StoreUnavailableError when the database
 * cannot be reached, NewerSchemaError when a newer build migrated it, StoreError otherwise; each
 * message is one line naming the database, a URL's password masked.
 */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const clock = options.now ?? (() => new Date());
  const context: Context = {
    now: () => clock().getTime(),
    draftTtlMs: positive('draftTtlMs', options.draftTtlMs ?? DEFAULT_DRAFT_TTL_MS),
    deliveryTtlMs: positive('deliveryTtlMs', options.deliveryTtlMs ?? DEFAULT_DELIVERY_TTL_MS),
    leaseTtlMs: positive('leaseTtlMs', options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS),
    searchThresholds: {
      bookings: options.searchThresholds?.bookings ?? BOOKING_THRESHOLDS,
      parties: options.searchThresholds?.parties ?? PARTY_THRESHOLDS,
    },
    replicaId: options.replicaId ?? defaultReplicaId(),
    unansweredBegins: new Set(),
  };
  const renewMs = options.leaseRenewMs ?? DEFAULT_LEASE_RENEW_MS;
  if (!(renewMs >= 0 && renewMs < context.leaseTtlMs)) {
    throw new RangeError(`leaseRenewMs must be 0 or less than leaseTtlMs, got ${renewMs}`);
  }

  const location = options.url ? redactUrl(options.url) : (options.path ?? DEFAULT_DATABASE_PATH);
  let backend: Backend;
  try {
    backend = connect(options);
  } catch (err) {
    throw openFailure(location, err);
  }

  const lease = leases(backend.db, context);
  try {
    if (!(await isMigrated(backend))) await migrate(backend, context.now());
    await lease.renew();
  } catch (err) {
    await backend.close().catch(() => undefined);
    throw openFailure(location, backend.translate(err));
  }

  let closed = false;
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    if (closed) throw new StoreError('The store is closed');
    try {
      return await run();
    } catch (err) {
      throw backend.translate(err);
    }
  };
  const scoped = (db: Db, atomically: Scope['atomically']) =>
    guarded(tablesOf({ db, atomically, lock: backend.lock, kind: backend.kind }, context), guard);

  let renewing: Promise<void> | undefined;
  const renew = () => {
    // One renewal at a time: a slow database does not pile them up.
    renewing ??= guard(() => lease.renew()).finally(() => {
      renewing = undefined;
    });
    return renewing;
  };
  const heartbeat =
    renewMs > 0
      ? setInterval(() => renew().catch((err: unknown) => options.onBackgroundError?.(err)), renewMs)
      : undefined;
  heartbeat?.unref();

  return {
    ...scoped(backend.db, backend.transaction),
    location,
    replica: { id: context.replicaId, renew },
    transaction: (fn) => guard(() => backend.transaction((db) => fn(scoped(db, (inner) => inner(db))))),
    ping: () => guard(async () => void (await sql`select 1`.execute(backend.db))),
    pool: () => backend.pool?.(),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      await renewing?.catch(() => undefined);
      await lease.release().catch(() => undefined);
      await backend.close();
    },
  };
}
