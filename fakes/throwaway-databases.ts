/** PostgreSQL databases made for one test file or bench run and dropped after it, on a server the caller names. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** `postgres://…/admin` → the same server, another database. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One connection for `run`, closed after it. */
export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface ThrowawayOptions {
  /**
   * Start of each database's name (a random suffix follows). Default: the test run's own prefix
   * (WAYBILL_TEST_DATABASES, set by test/support/postgres-template.ts, whose teardown drops them
   * all, whatever failed), else `waybill_test`.
   */
  prefix?: string;
  /** Commit without waiting for the disk (`synchronous_commit = off`): quicker tests. Default true; the bench measures with false. */
  fastCommits?: boolean;
}

/**
 * Databases on the server of `adminUrl` (a user allowed to CREATE DATABASE; read when first
 * needed), each created empty and all dropped, connections and all, by `dropAll`.
 */
export function throwawayDatabases(adminUrl: () => string, options: ThrowawayOptions = {}) {
  const { prefix = process.env.WAYBILL_TEST_DATABASES ?? 'waybill_test', fastCommits = true } = options;
  const created: string[] = [];
  return {
    /** An empty database, or a copy of `template` (a database nobody is connected to). */
    async create(template?: string): Promise<string> {
      const name = `${prefix}_${randomBytes(6).toString('hex')}`;
      await withClient(adminUrl(), async (client) => {
        await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        if (fastCommits) await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
      });
      created.push(name);
      return databaseUrl(adminUrl(), name);
    },
    dropAll: () => dropDatabases(adminUrl(), created.splice(0)),
  };
}

/**
 * Drops `names` at once, each on its own connection: every drop waits for a checkpoint, and drops
 * waiting together share one (one after another, a file's eight drops took seconds on a busy disk).
 */
async function dropDatabases(adminUrl: string, names: string[]): Promise<void> {
  await Promise.all(
    names.map((name) =>
      withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
    ),
  );
}

/** Drops every database on the server of `adminUrl` whose name starts with `prefix`. */
export async function dropDatabasesNamed(adminUrl: string, prefix: string): Promise<void> {
  const { rows } = await withClient(adminUrl, (client) =>
    client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      prefix,
    ]),
  );
  await dropDatabases(
    adminUrl,
    rows.map((row) => row.datname),
  );
}
