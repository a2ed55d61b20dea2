/** "← Back" on a booking step. */
import type { App, ButtonAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { bookingSteps } from './form.js';
import { onBookingModalAction } from './modal-action.js';

/** "← Back": the previous step, with what was typed on this one kept (not validated). */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingBack, (draft) => ({
    data: draft.data,
    step: bookingSteps[Math.max(0, bookingSteps.indexOf(draft.data.step) - 1)] ?? 'shipment',
  }));
}
