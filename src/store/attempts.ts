// Courier call attempts, keyed for idempotency, owned by the replica that makes the call.
import type { Selectable } from 'kysely';
import { type Context, checkedLimit, fromJson, present, type Scope, toJson } from './context.js';
import { AttemptNotFoundError } from './errors.js';
import { leaseGone } from './leases.js';
import type { AttemptsTable } from './schema.js';
import type { Attempt, Attempts, BeginOptions, BeginResult } from './types.js';

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
      claim: row.claim,
      supersededBy: row.superseded_by,
      owner: row.owner,
      viewId: row.view_id,
    }),
  };
}

function oldestFirst(rows: Selectable<AttemptsTable>[]): Attempt[] {
  return rows
    .map((row) => toAttempt(row))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.key.localeCompare(b.key));
}

export function attempts({ db, atomically, lock }: Scope, context: Context): Attempts {
  const get = async <R>(key: string) => {
    const row = await db.selectFrom('attempts').selectAll().where('key', '=', key).executeTakeFirst();
    return row && toAttempt<R>(row);
  };
  return {
    begin: async <R>(key: string, operation: string, options: BeginOptions = {}) => {
      /** Set once this begin has written its attempt: from then on, its commit decides. */
      let writing = false;
      const begun = atomically(async (tx): Promise<BeginResult<R>> => {
        const at = context.now();
        // The reads below and the write decide together: begins of one key, then of one claim,
        // queue here, whichever replica they run on.
        await lock(tx, `attempt:${key}`);
        const existing = await tx
          .selectFrom('attempts')
          .selectAll()
          .where('key', '=', key)
          .executeTakeFirst();
        // Ours, in flight, but its begin never heard back: no call was made, so it starts now.
        const unanswered =
          existing?.state === 'in-flight' &&
          existing.owner === context.replicaId &&
          context.unansweredBegins.has(key);
        if (existing && existing.state !== options.again && !unanswered)
          return { started: false, attempt: toAttempt<R>(existing) };
        const claim = options.claim ?? existing?.claim ?? null;
        let holder: Selectable<AttemptsTable> | undefined;
        if (claim !== null) {
          await lock(tx, `claim:${claim}`);
          holder = await tx
            .selectFrom('attempts')
            .selectAll()
            .where('claim', '=', claim)
            .where('key', '<>', key)
            .where('state', '<>', 'failed')
            .where('superseded_by', 'is', null)
            .orderBy('created_at', 'desc')
            .limit(1)
            .executeTakeFirst();
        }
        if (holder && !(holder.state === 'unknown' && options.supersedeUnknown)) {
          return { started: false, attempt: toAttempt<R>(holder) };
        }
        writing = true;
        context.unansweredBegins.delete(key);
        if (holder) {
          await tx
            .updateTable('attempts')
            .set({ superseded_by: key, updated_at: at })
            .where('key', '=', holder.key)
            .execute();
        }
        if (existing) {
          await tx
            .updateTable('attempts')
            .set((eb) => ({
              state: 'in-flight',
              result: null,
              updated_at: at,
              superseded_by: null,
              tracking_number: options.trackingNumber ?? eb.ref('tracking_number'),
              user_id: options.userId ?? eb.ref('user_id'),
              channel_id: options.channelId ?? eb.ref('channel_id'),
              view_id: options.viewId ?? eb.ref('view_id'),
              claim,
              owner: context.replicaId,
            }))
            .where('key', '=', key)
            .execute();
        } else {
          await tx
            .insertInto('attempts')
            .values({
              key,
              operation,
              state: 'in-flight',
              result: null,
              created_at: at,
              updated_at: at,
              tracking_number: options.trackingNumber ?? null,
              user_id: options.userId ?? null,
              channel_id: options.channelId ?? null,
              view_id: options.viewId ?? null,
              claim,
              superseded_by: null,
              owner: context.replicaId,
            })
            .execute();
        }
        return holder
          ? { started: true, superseded: { ...toAttempt(holder), supersededBy: key } }
          : { started: true };
      });
      return begun.catch((err: unknown) => {
        // The commit may have reached the database, and its answer not us.
        if (writing) context.unansweredBegins.add(key);
        throw err;
      });
    },
    async finish(key, state, result) {
      context.unansweredBegins.delete(key);
      const updated = await db
        .updateTable('attempts')
        .set({ state, result: toJson(result), updated_at: context.now() })
        .where('key', '=', key)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new AttemptNotFoundError(key);
    },
    get,
    async releaseUnanswered(result) {
      const released: Attempt[] = [];
      for (const key of [...context.unansweredBegins]) {
        const row = await atomically(async (tx) => {
          // Queued with begins of the key: one taking the attempt over has removed it from the set.
          await lock(tx, `attempt:${key}`);
          if (!context.unansweredBegins.has(key)) return undefined;
          return tx
            .updateTable('attempts')
            .set({ state: 'failed', result: toJson(result), updated_at: context.now() })
            .where('key', '=', key)
            .where('state', '=', 'in-flight')
            .where('owner', '=', context.replicaId)
            .returningAll()
            .executeTakeFirst();
        });
        context.unansweredBegins.delete(key);
        if (row) released.push(toAttempt(row));
      }
      return released;
    },
    async listUnknown(operation, limit = 1000) {
      const rows = await db
        .selectFrom('attempts')
        .selectAll()
        .where('state', '=', 'unknown')
        .where('operation', '=', operation)
        .where('superseded_by', 'is', null)
        .orderBy('created_at')
        .orderBy('key')
        .limit(checkedLimit(limit))
        .execute();
      return rows.map((row) => toAttempt(row));
    },
    async recoverAbandoned() {
      const at = context.now();
      // One UPDATE: when replicas recover at once, each row changes (and is returned) once.
      const rows = await db
        .updateTable('attempts')
        .set({ state: 'unknown', updated_at: at })
        .where('state', '=', 'in-flight')
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '!=', context.replicaId)]))
        .where(leaseGone('attempts.owner', at))
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
    async settleUnknown(key, state, result) {
      // One conditional UPDATE: of two people settling it at once, on any replica, one does.
      const row = await db
        .updateTable('attempts')
        .set({ state, result: toJson(result), updated_at: context.now() })
        .where('key', '=', key)
        .where('state', '=', 'unknown')
        .where('superseded_by', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row ? toAttempt(row) : undefined;
    },
    async countUnknown() {
      const row = await db
        .selectFrom('attempts')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('state', '=', 'unknown')
        .where('superseded_by', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}
