/** "Remove a parcel…" on the parcels step. */
import type { App, StaticSelectAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { onBookingModalAction } from './modal-action.js';

/** "Remove a parcel…": that row goes; the rows after it move up (and are renumbered). */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction<StaticSelectAction>(app, deps, ids.bookingRemoveParcel, (draft, action) => {
    const index = Number(action.selected_option?.value);
    if (!Number.isInteger(index) || index < 0 || index >= draft.data.parcels) return undefined;
    const rows = Array.isArray(draft.data.input.childWaybills) ? [...draft.data.input.childWaybills] : [];
    rows.splice(index, 1);
    return {
      data: {
        ...draft.data,
        parcels: draft.data.parcels - 1,
        input: { ...draft.data.input, childWaybills: rows },
      },
      step: 'parcels',
    };
  });
}
