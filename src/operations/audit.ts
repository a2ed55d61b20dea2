/** The audit trail's entries for something done on a booking, or refused: one shape each. */
import type { Store } from '../store/index.js';
import type { Operation, Refusal } from './access.js';

/** `userId` did `operation` (on `trackingNumber`): `detail` says what, in the trail's words. */
export async function recordDone(
  store: Pick<Store, 'audit'>,
  entry: { userId: string; operation: string; trackingNumber?: string; detail: string },
): Promise<void> {
  await store.audit.record({ ...entry, outcome: 'ok' });
}

/** `userId` was refused `operation` (on `trackingNumber`) for `reason`, asked in `where`. */
export async function recordRefusal(
  store: Pick<Store, 'audit'>,
  entry: { userId: string; operation: Operation; trackingNumber?: string; reason: Refusal; where: string },
): Promise<void> {
  const { reason, where, ...who } = entry;
  await store.audit.record({ ...who, outcome: 'refused', detail: `not allowed (${reason}) in ${where}` });
}
