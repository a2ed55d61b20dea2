/** "Update" on a booking card: the update form, pre-filled with the last-known record. */
import type { App } from '@slack/bolt';
import { bookingIds } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { refusalOnBooking } from '../guards/booking-access.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { createUpdateDraft, unknownWaybillText } from './draft.js';
import { updateForm } from './steps.js';

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    bookingIds.waybillUpdate,
    requires(deps, 'update'),
    ackNow,
    openingModal(deps, 'click *Update*'),
    async ({ action: { value: trackingNumber = '' }, body, client, context }) => {
      const where = { userId: body.user.id, channelId: body.channel?.id ?? '' };
      const known = await deps.store.bookings.get(trackingNumber);
      const refused =
        known && (await refusalOnBooking(deps, { client, userId: where.userId }, 'update', known));
      // Refused or unknown, the same answer: a refusal never tells whether a booking exists.
      const draft = refused ? undefined : await createUpdateDraft(deps, where, trackingNumber);
      if (!draft) return context.openModal(unknownWaybillText(escapeMrkdwn(trackingNumber)));
      return context.openModal(() => updateForm(deps, draft));
    },
  );
}
