/** "← Back" on a booking step. */
import type { App, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ids } from '../kit/ids.js';
import { stepBack } from './changes.js';
import { onBookingModalAction } from './modal-action.js';

/** "← Back": the previous step, with what was typed on this one kept (not validated). */
export function register(app: App, deps: Core): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingBack, requires(deps, 'book'), (draft) =>
    stepBack(draft.data),
  );
}
