/** "+ Add parcel" on the parcels step. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import { addParcel } from './changes.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** "+ Add parcel": one more row, up to MAX_PARCELS; the new row starts with one of the first unit. */
export function register(app: App, deps: Core): void {
  app.action<BlockAction<ButtonAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingAddParcel,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, (draft) =>
      addParcel(draft.data, deps.bot.maxParcels, deps.waybill.catalog.units[0]?.value),
    ),
  );
}
