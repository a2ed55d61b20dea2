// The query builder's way into a pg Pool, replacing a pooled connection the server had already ended
// and closing one the server no longer answers.
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryResult,
} from 'kysely';
import type pg from 'pg';

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * The server ended the session before running the statement (the backend was terminated or
 * crashed while the connection sat idle in the pool): the statement can be sent again elsewhere.
 */
function endedBeforeRunning(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return code === '57P01' || code === '57P02' || (err instanceof Error && /not queryable/.test(err.message));
}

/** pg's client-side `query_timeout` ran out: no answer at all, not even the server's own cancel. */
function unanswered(err: unknown): boolean {
  return err instanceof Error && err.message === 'Query read timeout';
}

/** One connection as the query builder sees it; the pooled client behind it is taken on first use. */
class PoolConnection implements DatabaseConnection {
  #client: pg.PoolClient | undefined;
  /** Once a statement has run, the session may hold state (a transaction): it is never swapped then. */
  #used = false;
  /** The server stopped answering this session: it was closed, and nothing more is sent in it. */
  #unanswered: Error | undefined;

  constructor(private readonly pool: pg.Pool) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#unanswered) throw this.#unanswered;
    for (let retried = false; ; retried = true) {
      this.#client ??= await this.pool.connect();
      try {
        const result = await this.#client.query(query.sql, [...query.parameters]);
        this.#used = true;
        return {
          rows: result.rows as R[],
          numAffectedRows: WRITES.has(result.command) ? BigInt(result.rowCount ?? 0) : undefined,
        };
      } catch (err) {
        if (unanswered(err)) {
          // The statement may still be waiting somewhere: the connection is closed, not pooled, and
          // the rest of this session (a transaction's rollback) is not sent on another one.
          this.#unanswered = err as Error;
          this.release(this.#unanswered);
          throw err;
        }
        if (this.#used || retried || !endedBeforeRunning(err)) throw err;
        this.release(err as Error);
        // Let the pool hear of any other connection that died the same way before taking one.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  streamQuery(): AsyncIterableIterator<never> {
    throw new Error('The store does not stream queries');
  }

  /** Back to the pool; with an error, the pool closes the client instead of reusing it. */
  release(err?: Error): void {
    this.#client?.release(err);
    this.#client = undefined;
  }
}

class PoolDriver implements Driver {
  constructor(private readonly pool: pg.Pool) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PoolConnection(this.pool);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PoolConnection).release();
  }
  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** PostgreSQL through `pool`, which reconnects by itself when the server is back. */
export class PoolDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    onError: (err: Error) => void = () => undefined,
  ) {
    super({ pool });
    // A connection that dies fails its query, if any, and is dropped by the pool; unheard, its
    // 'error' event would end the process. Idle ones report to the pool, the others to their own
    // listener: both are told to `onError` (the bot logs them).
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
  }

  override createDriver(): Driver {
    return new PoolDriver(this.pool);
  }
}
