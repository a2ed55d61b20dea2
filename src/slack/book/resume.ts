/** Resume, on the Home tab: an unfinished booking opened again at the step where it was left. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onOpeningButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { showStep } from './flow.js';
import type { BookingDraft } from './form.js';

export function register(app: App, deps: BotDeps): void {
  onOpeningButton(app, deps, ids.bookingResume, 'click *Resume*', async (draftId, body) => {
    const draft = await deps.store.drafts.get<BookingDraft>(draftId);
    // Only the person's own draft, and only while it has not been booked.
    if (draft?.kind !== 'booking' || draft.userId !== body.user.id || draft.data.bookedTrackingNumber) {
      return 'That booking is no longer open: it was sent, or it expired after a week without changes. Type `/book` to start again.';
    }
    return () => showStep(deps, draft, draft.data.step);
  });
}
