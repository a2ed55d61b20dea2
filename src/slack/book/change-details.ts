/** "Change details" after a failed booking. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import { changeDetails } from './changes.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** "Change details" after a failed booking: back to the first step, everything kept. */
export function register(app: App, deps: Core): void {
  app.action<BlockAction<ButtonAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingEdit,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, (draft) => changeDetails(draft.data)),
  );
}
