/** The sender-profile select on the sender step. */
import type { App, StaticSelectAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ids } from '../kit/ids.js';
import { chooseProfile } from './changes.js';
import { onBookingModalAction } from './modal-action.js';

/** Choosing a sender profile fills the sender and return party on screen. */
export function register(app: App, deps: Core): void {
  onBookingModalAction<StaticSelectAction>(
    app,
    deps,
    ids.bookingProfile,
    requires(deps, 'book'),
    (draft, action) => chooseProfile(draft.data, deps.profiles, action.selected_option?.value),
  );
}
