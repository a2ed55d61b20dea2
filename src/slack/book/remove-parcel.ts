/** "Remove a parcel…" on the parcels step. */
import type { App, StaticSelectAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ids } from '../kit/ids.js';
import { removeParcel } from './changes.js';
import { onBookingModalAction } from './modal-action.js';

/** "Remove a parcel…": that row goes; the rows after it move up (and are renumbered). */
export function register(app: App, deps: Core): void {
  onBookingModalAction<StaticSelectAction>(
    app,
    deps,
    ids.bookingRemoveParcel,
    requires(deps, 'book'),
    (draft, action) => removeParcel(draft.data, action.selected_option?.value),
  );
}
