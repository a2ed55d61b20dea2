/** The sender-profile select on the sender step. */
import type { App, StaticSelectAction } from '@slack/bolt';
import { applyProfile } from '../../waybill/profiles.js';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { onBookingModalAction } from './modal-action.js';

/** Choosing a sender profile fills the sender and return party on screen. */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction<StaticSelectAction>(app, deps, ids.bookingProfile, (draft, action) => {
    const chosen = action.selected_option?.value;
    const profile = deps.profiles.find((p) => p.id === chosen);
    if (!profile) return undefined;
    return { data: { ...draft.data, input: applyProfile(draft.data.input, profile) }, step: 'sender' };
  });
}
