/** "New booking", a global shortcut (and its button on the Home tab): /book, once the dispatcher has chosen where the booking card goes. */
import type { App, GlobalShortcut, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Destined, destinationChosen, destinationView } from '../kit/global-shortcut.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { createBookingDraft } from './draft.js';
import { ids } from './ids.js';
import { showStep } from './steps.js';

export function register(app: App, deps: Core): void {
  const first = () =>
    destinationView(ids.bookingDestination, 'New booking', 'the booking card', deps.waybill.env);
  app.shortcut<GlobalShortcut, Opening>(
    ids.bookNew,
    requires(deps, 'book'),
    ackNow,
    openingModal(deps, 'use *New booking*'),
    ({ context }) => context.openModal(first),
  );
  app.action<ButtonClick, Opening>(
    ids.bookFromHome,
    requires(deps, 'book'),
    ackNow,
    openingModal(deps, 'click *New booking*'),
    ({ context }) => context.openModal(first),
  );
  app.view<ViewSubmitAction, Destined>(
    ids.bookingDestination,
    requires(deps, 'book'),
    destinationChosen,
    async ({ ack, body, context }) => {
      const where = { userId: body.user.id, channelId: context.destination };
      await ack({
        response_action: 'update',
        view: await showStep(deps, await createBookingDraft(deps, where, {}), 'shipment'),
      });
    },
  );
}
