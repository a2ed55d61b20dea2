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
    // Before the ack, which fails when this answer comes too late for Slack (a slow database): a
    // booking once recorded as begun is sent, and its outcome shown, whatever happened to the ack.
    if (step.work) deps.inFlight.run('book', step.work);
    await ack({ response_action: 'update', view: step.view });
  });
}
