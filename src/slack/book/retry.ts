/** "Try again" after a failed booking. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { sendFromButton } from '../kit/modal.js';
import { bookingMetadata, validateDraft } from './draft.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { bookingWorkingView } from './outcome-view.js';
import { receiverCheckAtConfirm } from './receiver-record.js';
import { startBooking } from './send.js';
import { showStep } from './steps.js';

/**
 * "Try again" after a booking the courier did not take: the same booking, sent again. Only a
 * failed attempt can be retried; one whose outcome is unknown never is (it may exist already).
 */
export function register(app: App, deps: Core): void {
  app.action<ButtonClick, DraftContext<BookingDraft> & InModal>(
    ids.bookingRetry,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    async ({ client, context: { modal: view, draft } }) => {
      const result = validateDraft(deps, draft.data);
      if (!result.ok) return;
      const booking = result.value;
      const working = bookingWorkingView(booking.trackingNumber, deps.waybill.env, bookingMetadata(draft));
      await sendFromButton(deps, client, view, draft.userId, 'book', working, async () => {
        // The call confirmed at Confirm booking holds; a receiver flagged since is confirmed on the review.
        const receiver = await receiverCheckAtConfirm(deps, booking, draft.data.receiverConfirmedBy);
        if ('errors' in receiver) return { started: false, view: await showStep(deps, draft, 'review') };
        return startBooking(deps, client, { viewId: view.id, draft, booking, again: 'failed', ...receiver });
      });
    },
  );
}
