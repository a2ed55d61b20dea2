/** A booking handed to a new owner: stored once, audited, the Home tab of whoever did it told. */
import type { OwnerChange, Store } from '../store/index.js';
import { recordDone } from './audit.js';
import type { OperationDeps } from './call-once.js';

/**
 * Makes `ownerId` the owner of the booking `userId` found and may update (the caller checked who
 * may own it); unchanged when it is theirs already, and then nothing is recorded.
 */
export async function handOver(
  deps: { store: Pick<Store, 'bookings' | 'audit'>; activity: OperationDeps['activity'] },
  input: { userId: string; trackingNumber: string; ownerId: string },
): Promise<OwnerChange> {
  const { userId, trackingNumber, ownerId } = input;
  const change = await deps.store.bookings.setOwner(trackingNumber, ownerId);
  if (!change.changed) return change;
  await recordDone(deps.store, {
    userId,
    operation: 'assign',
    trackingNumber,
    detail: `owner ${change.previous} to ${ownerId}`,
  });
  deps.activity.changed(userId);
  return change;
}
