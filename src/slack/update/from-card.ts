/** "Update" on a booking card, and Reattempt on a failed attempt's reminder: the update form, pre-filled with the last-known record. */
import type { App } from '@slack/bolt';
import { bookingIds } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { refusalOnBooking } from '../guards/booking-access.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { createUpdateDraft, type UpdateDraft, unknownWaybillText } from './draft.js';
import { ids } from './ids.js';
import { updateForm } from './steps.js';

export function register(app: App, deps: Core): void {
  const opens = (actionId: string, clicked: string, options: Pick<UpdateDraft, 'reattempt'>) =>
    app.action<ButtonClick, Opening>(
      actionId,
      requires(deps, 'update'),
      ackNow,
      openingModal(deps, clicked),
      async ({ action: { value: trackingNumber = '' }, body, client, context }) => {
        const where = { userId: body.user.id, channelId: body.channel?.id ?? '' };
        const known = await deps.store.bookings.get(trackingNumber);
        const refused =
          known && (await refusalOnBooking(deps, { client, userId: where.userId }, 'update', known));
        // Refused or unknown, the same answer: a refusal never tells whether a booking exists.
        const draft = refused ? undefined : await createUpdateDraft(deps, where, trackingNumber, options);
        if (!draft) return context.openModal(unknownWaybillText(escapeMrkdwn(trackingNumber)));
        return context.openModal(() => updateForm(deps, draft));
      },
    );
  opens(bookingIds.waybillUpdate, 'click *Update*', {});
  opens(ids.reattemptOpen, 'click *Reattempt*', { reattempt: true });
}
