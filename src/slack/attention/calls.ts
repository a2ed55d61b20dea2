/** What calling about each item needs (receiver, phone, COD, last status), read for its viewer only where the access rule lets them see it. */

import type { Person, Scope } from '../../operations/access.js';
import type { AttentionItem } from '../../operations/attention.js';
import type { Store } from '../../store/index.js';
import { fieldOf, stringOf } from '../../waybill/fields.js';
import { type BookingLine, bookingLine } from '../booking/index.js';
import type { Core } from '../core.js';

/** One item's call: who to ring, on what number, for how much, and what was last recorded. */
export type ItemCall = Pick<BookingLine, 'receiver' | 'cod' | 'status'> & {
  phone: string;
  /** The receiver's country, which decides whether the phone can be dialled. */
  country: string;
};

/** What a viewer's list or DM may carry: each item's call by tracking number, and whether they may import a remittance. */
export interface ViewerCalls {
  calls: ReadonlyMap<string, ItemCall>;
  remittance: boolean;
  /** WAYBILL_TIMEZONE: the last status's date fallback. */
  timeZone: string;
}

/** Who looks at items: the bookings they see (the access rule) and whether they may import a remittance. */
export interface Viewer {
  scope: Scope;
  remittance: boolean;
}

export async function viewerOf(deps: Pick<Core, 'access'>, person: Person): Promise<Viewer> {
  const [scope, remittance] = await Promise.all([
    deps.access.scope(person),
    deps.access.allows(person, 'remittance', undefined, { channelChosenLater: true }),
  ]);
  return { scope, remittance: remittance.ok };
}

/**
 * The calls of `items` as `viewer` may see them, privately (a DM, an ephemeral list, the Home tab): a
 * booking their scope sees is shown whole, one it does not is left at its number.
 */
export async function callsFor(
  deps: Pick<Core, 'waybill' | 'access'> & { store: Pick<Store, 'bookings' | 'statuses'> },
  { scope, remittance }: Viewer,
  items: readonly AttentionItem[],
): Promise<ViewerCalls> {
  // An unknown outcome's booking may not be stored yet, and Resolve is its call: none is read.
  const numbers = items.flatMap((item) =>
    item.rule !== 'unknown' && item.trackingNumber ? [item.trackingNumber] : [],
  );
  const statuses = await deps.store.statuses.latestOf(numbers);
  const calls = new Map<string, ItemCall>();
  for (const trackingNumber of numbers) {
    const stored = await deps.store.bookings.get(trackingNumber);
    if (!stored || deps.access.sight(scope, { kind: 'private' }, stored) !== 'whole') continue;
    const { receiver, cod, status } = bookingLine(deps, stored, statuses.get(trackingNumber));
    const consignee = fieldOf(stored.record, 'consignee');
    calls.set(trackingNumber, {
      receiver,
      cod,
      ...(status ? { status } : {}),
      phone: stringOf(fieldOf(consignee, 'phone')),
      country: stringOf(fieldOf(consignee, 'country')),
    });
  }
  return { calls, remittance, timeZone: deps.waybill.timeZone };
}
