/** The sender-profile select on the sender step. */
import type { App, BlockAction, StaticSelectAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import { chooseProfile } from './changes.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** Choosing a sender profile fills the sender and return party on screen. */
export function register(app: App, deps: Core): void {
  app.action<BlockAction<StaticSelectAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingProfile,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, (draft, action) =>
      chooseProfile(draft.data, deps.profiles.read(), action.selected_option?.value),
    ),
  );
}
