/** "Confirm booking" on the review: the booking sent once. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { bookingExpiredView } from './blocks.js';
import { bookingDraftOfView, showStep, startBooking, validateDraft } from './flow.js';

/**
 * "Confirm booking": acknowledged at once with "Booking…", then sent once. A double click or a
 * replayed submission finds the first attempt (by draft, tracking number and the body sent) and
 * shows its outcome.
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.bookingReview, async ({ ack, view, client }) => {
    const draft = await bookingDraftOfView(deps, view.private_metadata);
    if (!draft) {
      await ack({ response_action: 'update', view: bookingExpiredView(deps.waybill.env) });
      return;
    }
    const result = validateDraft(deps, draft.data);
    if (!result.ok) {
      await ack({ response_action: 'update', view: await showStep(deps, draft, 'review') });
      return;
    }
    const step = await startBooking(deps, client, { viewId: view.id, draft, booking: result.value });
    await ack({ response_action: 'update', view: step.view });
    if (step.work) deps.inFlight.run('book', step.work);
  });
}
