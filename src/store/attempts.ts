// Courier call attempts, keyed for idempotency, owned by the replica that makes the call.
import type { Selectable } from 'kysely';
import { type Context, fromJson, present, type Scope, toJson } from './context.js';
import { AttemptNotFoundError, StoreError } from './errors.js';
import type { AttemptsTable } from './schema.js';
import type { Attempt, AttemptSubject, Attempts, BeginResult } from './types.js';

function toAttempt<R>(row: Selectable<AttemptsTable>): Attempt<R> {
  return {
    key: row.key,
    operation: row.operation,
    state: row.state,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    ...present({
      result: fromJson<R>(row.result),
      trackingNumber: row.tracking_number,
      userId: row.user_id,
      channelId: row.channel_id,
      owner: row.owner,
    }),
  };
}

function oldestFirst(rows: Selectable<AttemptsTable>[]): Attempt[] {
  return rows
    .map((row) => toAttempt(row))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.key.localeCompare(b.key));
}

/** begin() retries when the attempt it collided with is cleared in between; more than this is a bug. */
const BEGIN_TRIES = 3;

export function attempts({ db }: Scope, context: Context): Attempts {
  const get = async <R>(key: string) => {
    const row = await db.selectFrom('attempts').selectAll().where('key', '=', key).executeTakeFirst();
    return row && toAttempt<R>(row);
  };
  return {
    async begin<R>(key: string, operation: string, subject: AttemptSubject = {}): Promise<BeginResult<R>> {
      for (let tries = 0; tries < BEGIN_TRIES; tries++) {
        const at = context.now();
        // Insert-if-absent is one statement: of any number of concurrent begins, one inserts.
        const inserted = await db
          .insertInto('attempts')
          .values({
            key,
            operation,
            state: 'in-flight',
            result: null,
            created_at: at,
            updated_at: at,
            tracking_number: subject.trackingNumber ?? null,
            user_id: subject.userId ?? null,
            channel_id: subject.channelId ?? null,
            owner: context.replicaId,
          })
          .onConflict((conflict) => conflict.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        if (inserted) return { started: true };
        const existing = await get<R>(key);
        if (existing) return { started: false, attempt: existing };
      }
      throw new StoreError(`Attempt ${key} kept disappearing while it was being begun`);
    },
    async finish(key, state, result) {
      const updated = await db
        .updateTable('attempts')
        .set({ state, result: toJson(result), updated_at: context.now() })
        .where('key', '=', key)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new AttemptNotFoundError(key);
    },
    get,
    async clearFailed(key) {
      const deleted = await db
        .deleteFrom('attempts')
        .where('key', '=', key)
        .where('state', '=', 'failed')
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },
    async recoverAbandoned() {
      const at = context.now();
      // One UPDATE: when replicas recover at once, each row changes (and is returned) once.
      const rows = await db
        .updateTable('attempts')
        .set({ state: 'unknown', updated_at: at })
        .where('state', '=', 'in-flight')
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '!=', context.replicaId)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('replica_leases')
                .select('replica_leases.replica_id')
                .whereRef('replica_leases.replica_id', '=', 'attempts.owner')
                .where('replica_leases.expires_at', '>', at),
            ),
          ),
        )
        .returningAll()
        .execute();
      return oldestFirst(rows);
    },
    async abandonOwn() {
      const rows = await db
        .updateTable('attempts')
        .set({ state: 'unknown', updated_at: context.now() })
        .where('state', '=', 'in-flight')
        .where('owner', '=', context.replicaId)
        .returningAll()
        .execute();
      return oldestFirst(rows);
    },
  };
}
