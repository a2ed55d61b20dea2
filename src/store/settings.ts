/** Where the bot keeps its state (DATABASE_*), and how its replica shows it is alive (REPLICA_LEASE_*). */
import * as z from 'zod';
import {
  type Env,
  envSettings,
  filePath,
  milliseconds,
  optionalSetting,
  wholeNumber,
} from '../settings/env.js';
import { passwordEndsHostEarly } from './errors.js';

export interface DatabaseConfig {
  /** Set: PostgreSQL, shared by every replica. Unset: SQLite at `path`. */
  url?: string;
  /** SQLite file for drafts, bookings and the audit log (`:memory:` keeps nothing). */
  path: string;
  /** PostgreSQL: connections per replica. */
  poolSize: number;
  /** PostgreSQL: how long opening a connection may take. */
  connectTimeoutMs: number;
  /** PostgreSQL: how long a request may wait for a pooled connection while all are busy. */
  poolWaitMs: number;
  /** PostgreSQL: longer statements are cancelled. */
  statementTimeoutMs: number;
  /** A replica not heard from for this long is gone: its courier calls in flight are reported as outcome unknown. */
  leaseTtlMs: number;
  /** How often a replica renews its lease, and looks for calls abandoned by replicas that are gone. */
  leaseRenewMs: number;
}

const databaseEnvSchema = z.object({
  DATABASE_PATH: optionalSetting(filePath()).default('./data/waybill-bot.sqlite'),
  // The value is never echoed: it may hold a password.
  DATABASE_URL: optionalSetting(
    z
      .string()
      .trim()
      .refine(
        (value) => /^postgres(ql)?:\/\//i.test(value) && URL.canParse(value) && !passwordEndsHostEarly(value),
        'a PostgreSQL URL such as postgres://user:password@host:5432/waybill, its password percent-encoded (@ as %40, / as %2F, # as %23, ? as %3F, % as %25) (unset: SQLite at DATABASE_PATH)',
      ),
  ),
  DATABASE_POOL_SIZE: optionalSetting(wholeNumber(1, 100, 'a whole number of connections')).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: optionalSetting(milliseconds(100, 60_000)).default(2500),
  DATABASE_POOL_WAIT_MS: optionalSetting(milliseconds(100, 600_000)).default(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: optionalSetting(milliseconds(100, 600_000)).default(10_000),
  REPLICA_LEASE_TTL_MS: optionalSetting(milliseconds(1000, 600_000)).default(30_000),
  REPLICA_LEASE_RENEW_MS: optionalSetting(milliseconds(100, 300_000)).default(10_000),
});

/** The password inside DATABASE_URL, as written (percent-encoded) and as sent, if it has one; and PGPASSWORD. */
function databasePasswords(env: Env): string[] {
  // PostgreSQL's own variable: the password of a DATABASE_URL that has none (compose.yaml).
  const pgPassword = env.PGPASSWORD?.trim() ?? '';
  const url = env.DATABASE_URL?.trim() ?? '';
  if (!URL.canParse(url)) return [pgPassword];
  const { password } = new URL(url);
  try {
    return [pgPassword, password, decodeURIComponent(password)];
  } catch {
    return [pgPassword, password];
  }
}

export const databaseEnv = envSettings(
  databaseEnvSchema,
  (settings, problems): { database: DatabaseConfig } => {
    // Renewing at most every half lease: one late renewal never lets a live replica's lease lapse.
    if (settings.REPLICA_LEASE_RENEW_MS * 2 > settings.REPLICA_LEASE_TTL_MS) {
      problems.add(
        ['REPLICA_LEASE_RENEW_MS', 'REPLICA_LEASE_TTL_MS'],
        `REPLICA_LEASE_RENEW_MS must be at most half of REPLICA_LEASE_TTL_MS (${settings.REPLICA_LEASE_TTL_MS} ms), so one late renewal does not end a live replica's lease`,
      );
    }
    // A wait for a pooled connection may include opening one, so it is never the shorter bound.
    if (settings.DATABASE_POOL_WAIT_MS < settings.DATABASE_CONNECT_TIMEOUT_MS) {
      problems.add(
        ['DATABASE_POOL_WAIT_MS', 'DATABASE_CONNECT_TIMEOUT_MS'],
        `DATABASE_POOL_WAIT_MS must be at least DATABASE_CONNECT_TIMEOUT_MS (${settings.DATABASE_CONNECT_TIMEOUT_MS} ms): waiting for a pooled connection may include opening one`,
      );
    }
    return {
      database: {
        url: settings.DATABASE_URL,
        path: settings.DATABASE_PATH,
        poolSize: settings.DATABASE_POOL_SIZE,
        connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
        poolWaitMs: settings.DATABASE_POOL_WAIT_MS,
        statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
        leaseTtlMs: settings.REPLICA_LEASE_TTL_MS,
        leaseRenewMs: settings.REPLICA_LEASE_RENEW_MS,
      },
    };
  },
  databasePasswords,
);
