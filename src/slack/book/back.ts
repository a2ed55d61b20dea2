/** "← Back" on a booking step. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import { stepBack } from './changes.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** "← Back": the previous step, with what was typed on this one kept (not validated). */
export function register(app: App, deps: Core): void {
  app.action<BlockAction<ButtonAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingBack,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, (draft) => stepBack(draft.data)),
  );
}
