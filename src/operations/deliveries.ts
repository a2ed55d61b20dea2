/**
 * A request received once across replicas: the first to claim its id does it, every later one (a
 * re-delivery, another replica's copy) finds it taken. The same once rule as post-once.ts, for what
 * arrives rather than what goes out; the ids are the caller's (Slack's event or view, a file's run).
 */
import type { Store } from '../store/index.js';

/** True the first time `id` is claimed by any replica (within the store's delivery TTL). */
export function firstDelivery(store: Pick<Store, 'deliveries'>, id: string): Promise<boolean> {
  return store.deliveries.claim(id);
}
