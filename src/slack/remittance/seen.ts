/** COD rows as the access rule lets them be shown: a booking not seen whole where they go keeps its number and money, not its parties. */
import type { Access, Place, Scope } from '../../operations/access.js';
import type { OutstandingBooking } from '../../waybill/csv/remittance-results.js';

/**
 * The rows, each whole where `place` may show its booking to a viewer with `scope`, else without its
 * sender and receiver: the money owed is the team's figure, the same on every surface, whoever sees it.
 */
export function seenRows(
  access: Access,
  scope: Scope,
  place: Place,
  rows: readonly OutstandingBooking[],
): OutstandingBooking[] {
  return rows.map((row) =>
    access.sight(scope, place, row) === 'whole' ? row : { ...row, sender: '', receiver: '' },
  );
}
