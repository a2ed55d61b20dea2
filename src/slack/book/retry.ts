/** "Try again" after a failed booking. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onModalButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { sendFromButton } from '../shared/modal.js';
import { bookingWorkingView } from './blocks.js';
import { bookingDraftOfView, bookingMetadata, startBooking, validateDraft } from './flow.js';

/**
 * "Try again" after a booking the courier did not take: the same booking, sent again. Only a
 * failed attempt can be retried; one whose outcome is unknown never is (it may exist already).
 */
export function register(app: App, deps: BotDeps): void {
  onModalButton(app, ids.bookingRetry, async (view, client) => {
    const draft = await bookingDraftOfView(deps, view.private_metadata);
    const result = draft ? validateDraft(deps, draft.data) : undefined;
    if (!draft || !result?.ok) return;
    const booking = result.value;
    const working = bookingWorkingView(booking.trackingNumber, deps.waybill.env, bookingMetadata(draft));
    await sendFromButton(deps, client, view, 'book', working, () =>
      startBooking(deps, client, { viewId: view.id, draft, booking, again: 'failed' }),
    );
  });
}
