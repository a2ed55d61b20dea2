// Re-delivered requests: the first replica to claim a delivery id handles it, the others drop it.
import type { Context, Scope } from './context.js';
import type { Deliveries } from './types.js';

/** Senders retry within minutes; an hour covers every retry with room to spare. */
export const DEFAULT_DELIVERY_TTL_MS = 60 * 60 * 1000;

export function deliveries({ db }: Scope, context: Context): Deliveries {
  return {
    async claim(id) {
      const at = context.now();
      // Insert-if-absent; a claim older than the TTL that the purge has not removed yet is taken over.
      const claimed = await db
        .insertInto('deliveries')
        .values({ id, claimed_at: at })
        .onConflict((conflict) =>
          conflict
            .column('id')
            .doUpdateSet({ claimed_at: at })
            .where('deliveries.claimed_at', '<=', at - context.deliveryTtlMs),
        )
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },
    async purgeExpired() {
      const deleted = await db
        .deleteFrom('deliveries')
        .where('claimed_at', '<=', context.now() - context.deliveryTtlMs)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}
