// Replica leases: each running replica keeps its row alive; an expired row means the replica is gone.
import { type RawBuilder, sql } from 'kysely';
import type { Context } from './context.js';
import type { Db } from './schema.js';

export const DEFAULT_LEASE_TTL_MS = 30_000;
export const DEFAULT_LEASE_RENEW_MS = 10_000;

export function leases(db: Db, context: Context) {
  return {
    /** Takes or extends this replica's lease, and forgets leases already expired (same as absent). */
    async renew(): Promise<void> {
      const at = context.now();
      await db
        .insertInto('replica_leases')
        .values({
          replica_id: context.replicaId,
          started_at: at,
          renewed_at: at,
          expires_at: at + context.leaseTtlMs,
        })
        .onConflict((conflict) =>
          conflict.column('replica_id').doUpdateSet({ renewed_at: at, expires_at: at + context.leaseTtlMs }),
        )
        .execute();
      await db.deleteFrom('replica_leases').where('expires_at', '<=', at).execute();
    },
    /** Gives the lease up: this replica's leftover attempts become recoverable at once. */
    async release(): Promise<void> {
      await db.deleteFrom('replica_leases').where('replica_id', '=', context.replicaId).execute();
    },
  };
}

/**
 * True where the replica a column names holds no live lease at `at` (gone: expired, released, or
 * never there): what it left in flight or claimed may be taken over.
 */
export function leaseGone(
  owner:
    | 'attempts.owner'
    | 'import_queue.claimed_by'
    | 'import_runs.reporter'
    | 'attention_reminders.claimed_by'
    | 'attention_reminders.escalation_by'
    | 'sms_outbox.claimed_by',
  at: number,
): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from replica_leases where replica_leases.replica_id = ${sql.ref(owner)} and replica_leases.expires_at > ${at})`;
}
