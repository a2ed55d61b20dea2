// Who booked or updated, in order, for every replica: each one redraws the Home tabs it keeps current.
import type { Context, Scope } from './context.js';
import type { ActivityLog } from './types.js';

/** Replicas read new changes every few seconds; an hour of them is kept for one that was busy or slow. */
export const ACTIVITY_TTL_MS = 60 * 60 * 1000;

/** At most this many changes per read: a replica far behind catches up over a few reads. */
const READ_LIMIT = 500;

export function activity({ db }: Scope, context: Context): ActivityLog {
  return {
    async record(userId) {
      await db
        .insertInto('activity')
        .values({ user_id: userId, replica_id: context.replicaId, at: context.now() })
        .execute();
    },
    async latest() {
      const row = await db
        .selectFrom('activity')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      return Number(row?.seq ?? 0);
    },
    async since(seq) {
      const rows = await db
        .selectFrom('activity')
        .select(['seq', 'user_id', 'replica_id'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(READ_LIMIT)
        .execute();
      return rows.map((row) => ({
        seq: Number(row.seq),
        userId: row.user_id,
        byThisReplica: row.replica_id === context.replicaId,
      }));
    },
    async purgeExpired() {
      const deleted = await db
        .deleteFrom('activity')
        .where('at', '<=', context.now() - ACTIVITY_TTL_MS)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}
