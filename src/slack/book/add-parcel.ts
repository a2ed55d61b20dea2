/** "+ Add parcel" on the parcels step. */
import type { App, ButtonAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { onBookingModalAction } from './modal-action.js';

/** "+ Add parcel": one more row, up to MAX_PARCELS; the new row starts with one of the first unit. */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingAddParcel, (draft) => {
    if (draft.data.parcels >= deps.bot.maxParcels) return undefined;
    const rows = Array.isArray(draft.data.input.childWaybills) ? [...draft.data.input.childWaybills] : [];
    rows[draft.data.parcels] = { quantity: '1', uom: deps.waybill.catalog.units[0]?.value };
    return {
      data: {
        ...draft.data,
        parcels: draft.data.parcels + 1,
        input: { ...draft.data.input, childWaybills: rows },
      },
      step: 'parcels',
    };
  });
}
