/** Resume, on the Home tab: an unfinished booking opened again at the step where it was left. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onOpeningButton } from '../kit/buttons.js';
import { ids } from '../kit/ids.js';
import type { BookingDraft } from './form.js';
import { showStep } from './steps.js';

export function register(app: App, deps: Core): void {
  onOpeningButton(
    app,
    deps,
    ids.bookingResume,
    requires(deps, 'book'),
    'click *Resume*',
    async (draftId, body) => {
      const draft = await deps.store.drafts.get<BookingDraft>(draftId);
      // Only the person's own draft, and only while it has not been booked.
      if (draft?.kind !== 'booking' || draft.userId !== body.user.id || draft.data.bookedTrackingNumber) {
        return 'That booking is no longer open: it was sent, or it expired after a week without changes. Type `/book` to start again.';
      }
      return () => showStep(deps, draft, draft.data.step);
    },
  );
}
