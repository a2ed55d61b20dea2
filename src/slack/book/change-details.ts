/** "Change details" after a failed booking. */
import type { App, ButtonAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ids } from '../kit/ids.js';
import { changeDetails } from './changes.js';
import { onBookingModalAction } from './modal-action.js';

/** "Change details" after a failed booking: back to the first step, everything kept. */
export function register(app: App, deps: Core): void {
  onBookingModalAction<ButtonAction>(app, deps, ids.bookingEdit, requires(deps, 'book'), (draft) =>
    changeDetails(draft.data),
  );
}
