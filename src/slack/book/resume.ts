/** Resume, on the Home tab: an unfinished booking opened again at the step where it was left. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import type { BookingDraft } from './form.js';
import { ids } from './ids.js';
import { showStep } from './steps.js';

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    ids.bookingResume,
    requires(deps, 'book'),
    ackNow,
    openingModal(deps, 'click *Resume*'),
    async ({ action: { value: draftId = '' }, body, context }) => {
      const draft = await deps.store.drafts.get<BookingDraft>(draftId);
      // Only the person's own draft, and only while it has not been booked.
      if (draft?.kind !== 'booking' || draft.userId !== body.user.id || draft.data.bookedTrackingNumber) {
        return context.openModal(
          'That booking is no longer open: it was sent, or it expired after a week without changes. Type `/book` to start again.',
        );
      }
      return context.openModal(() => showStep(deps, draft, draft.data.step));
    },
  );
}
