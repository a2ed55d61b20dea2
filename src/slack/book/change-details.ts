/** "Change details" after a failed booking. */
import type { App, ButtonAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { onBookingModalAction } from './modal-action.js';

/** "Change details" after a failed booking: back to the first step, everything kept. */
export function register(app: App, deps: BotDeps): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingEdit, (draft) =>
    draft.data.bookedTrackingNumber ? undefined : { data: draft.data, step: 'shipment' },
  );
}
