/** "Confirm booking" on the review: the booking sent once. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { RECEIVER_CONFIRM_BLOCK, receiverConfirmed } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { inputBlockIds } from '../kit/forms.js';
import { validateDraftToSend } from './draft.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { bookingExpiredView } from './outcome-view.js';
import { receiverCheckAtConfirm } from './receiver-record.js';
import { startBooking } from './send.js';
import { showStep } from './steps.js';

/**
 * "Confirm booking": acknowledged at once with "Booking…", then sent once. A double click or a
 * replayed submission finds the first attempt (by draft, tracking number and the body sent) and
 * shows its outcome.
 */
export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<BookingDraft>>(
    ids.bookingReview,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking', { view: () => bookingExpiredView(deps.waybill.env) }),
    async ({ ack, view, client, context: { draft } }) => {
      const result = validateDraftToSend(deps, draft.data);
      if (!result.ok) {
        await ack({ response_action: 'update', view: await showStep(deps, draft, 'review', [], result) });
        return;
      }
      const ticked = receiverConfirmed(view.state.values) ? draft.userId : undefined;
      const receiver = await receiverCheckAtConfirm(deps, result.value, ticked);
      if ('errors' in receiver) {
        // Flagged since this review was drawn: drawn again, with the box to tick.
        const onScreen = inputBlockIds(view.blocks).includes(RECEIVER_CONFIRM_BLOCK);
        await ack(
          onScreen
            ? { response_action: 'errors', errors: receiver.errors }
            : { response_action: 'update', view: await showStep(deps, draft, 'review', [], result) },
        );
        return;
      }
      // Kept for Try again, which has no box: the call was confirmed for this booking.
      const confirmedBy = receiver.check?.confirmedBy;
      const sent = confirmedBy
        ? await deps.store.drafts.save<BookingDraft>(draft.id, {
            ...draft.data,
            receiverConfirmedBy: confirmedBy,
          })
        : draft;
      const step = await startBooking(deps, client, {
        viewId: view.id,
        draft: sent,
        booking: result.value,
        ...receiver,
      });
      // Before the ack, which fails when this answer comes too late for Slack (a slow database): a
      // booking once recorded as begun is sent, and its outcome shown, whatever happened to the ack.
      if (step.work) deps.inFlight.run('book', step.work, { client, userId: draft.userId, viewId: view.id });
      await ack({ response_action: 'update', view: step.view });
    },
  );
}
