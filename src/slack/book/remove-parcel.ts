/** "Remove a parcel…" on the parcels step. */
import type { App, BlockAction, StaticSelectAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import { removeParcel } from './changes.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** "Remove a parcel…": that row goes; the rows after it move up (and are renumbered). */
export function register(app: App, deps: Core): void {
  app.action<BlockAction<StaticSelectAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingRemoveParcel,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, (draft, action) => removeParcel(draft.data, action.selected_option?.value)),
  );
}
