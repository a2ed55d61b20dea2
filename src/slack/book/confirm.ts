/** "Confirm booking" on the review: the booking sent once. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { bookingAttemptKey } from '../shared/attempt-keys.js';
import { ids } from '../shared/ids.js';
import { bookingExpiredView, bookingWorkingView } from './blocks.js';
import {
  type BookingAttemptResult,
  bookingDraftOfView,
  bookingMetadata,
  runBooking,
  showStep,
  validateDraft,
  viewOfAttempt,
} from './flow.js';

/**
 * "Confirm booking": acknowledged at once with "Booking…", then sent once. A double click or a
 * replayed submission finds the first attempt (by draft and tracking number) and shows its outcome.
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.bookingReview, async ({ ack, view, client }) => {
    const draft = bookingDraftOfView(deps, view.private_metadata);
    if (!draft) {
      await ack({ response_action: 'update', view: bookingExpiredView(deps.waybill.env) });
      return;
    }
    const result = validateDraft(deps, draft.data);
    if (!result.ok) {
      await ack({ response_action: 'update', view: showStep(deps, draft, 'review') });
      return;
    }
    const booking = result.value;
    const key = bookingAttemptKey(draft.id, booking.trackingNumber);
    const attempt = deps.store.attempts.begin<BookingAttemptResult>(key, 'book');
    if (!attempt.started) {
      await ack({
        response_action: 'update',
        view: viewOfAttempt(deps, draft, booking.trackingNumber, attempt.attempt),
      });
      return;
    }
    await ack({
      response_action: 'update',
      view: bookingWorkingView(booking.trackingNumber, deps.waybill.env, bookingMetadata(draft)),
    });
    deps.inFlight.run('book', () => runBooking(deps, client, { viewId: view.id, draft, booking }));
  });
}
