/** "+ Add parcel" on the parcels step. */
import type { App, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ids } from '../kit/ids.js';
import { addParcel } from './changes.js';
import { onBookingModalAction } from './modal-action.js';

/** "+ Add parcel": one more row, up to MAX_PARCELS; the new row starts with one of the first unit. */
export function register(app: App, deps: Core): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingAddParcel, requires(deps, 'book'), (draft) =>
    addParcel(draft.data, deps.bot.maxParcels, deps.waybill.catalog.units[0]?.value),
  );
}
