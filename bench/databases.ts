/** Where a bench run keeps the bot's data: a SQLite file, or a throwaway PostgreSQL database. */
import { join } from 'node:path';
import type { StoreTarget } from '../fakes/bulk-insert.js';
import { throwawayDatabases } from '../fakes/throwaway-databases.js';

export type Backend = 'SQLite' | 'PostgreSQL';

/**
 * A PostgreSQL server where the bench may create and drop databases (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, as `.ci/run` sets it); without one the PostgreSQL runs are left out.
 */
export const postgresAdminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

export interface BenchDatabase {
  /** The bot's settings for it. */
  env: Record<string, string>;
  /** The same database, for writing rows straight into it. */
  target: StoreTarget;
  /** Drops a PostgreSQL database (a SQLite file goes with the run's temporary directory). */
  drop(): Promise<void>;
}

/** A new, empty database for one bot start, named after its tag. */
export async function benchDatabase(backend: Backend, tmp: string, tag: string): Promise<BenchDatabase> {
  if (backend === 'SQLite') {
    const path = join(tmp, `${tag}.sqlite`);
    return { env: { DATABASE_PATH: path }, target: { path }, drop: async () => {} };
  }
  const adminUrl = postgresAdminUrl;
  if (!adminUrl) throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) for the PostgreSQL runs');
  // Commits wait for the disk, as in production.
  const databases = throwawayDatabases(() => adminUrl, { prefix: 'waybill_bench', fastCommits: false });
  const url = await databases.create();
  return { env: { DATABASE_URL: url }, target: { url }, drop: () => databases.dropAll() };
}
