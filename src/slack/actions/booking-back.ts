import type { App } from '@slack/bolt';
import { bookingSteps } from '../booking-form.js';
import type { BotDeps } from '../deps.js';
import { ids } from '../ids.js';
import { onBookingModalAction } from './booking-modal.js';

/** "← Back": the previous step, with what was typed on this one kept (not validated). */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction(app, deps, ids.bookingBack, (draft) => ({
    data: draft.data,
    step: bookingSteps[Math.max(0, bookingSteps.indexOf(draft.data.step) - 1)] ?? 'shipment',
  }));
}
