/** "New quote", a global shortcut (and its button on the Home tab): /quote, once the dispatcher has chosen where the price goes. */
import type { App, GlobalShortcut, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Destined, destinationChosen, destinationView } from '../kit/global-shortcut.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { newQuoteForm } from './command.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  const first = () => destinationView(ids.quoteDestination, 'New quote', 'the price', deps.waybill.env);
  app.shortcut<GlobalShortcut, Opening>(
    ids.quoteNew,
    requires(deps, 'quote'),
    ackNow,
    openingModal(deps, 'use *New quote*'),
    ({ context }) => context.openModal(first),
  );
  app.action<ButtonClick, Opening>(
    ids.quoteFromHome,
    requires(deps, 'quote'),
    ackNow,
    openingModal(deps, 'click *New quote*'),
    ({ context }) => context.openModal(first),
  );
  app.view<ViewSubmitAction, Destined>(
    ids.quoteDestination,
    requires(deps, 'quote'),
    destinationChosen,
    async ({ ack, body, context }) => {
      const where = { userId: body.user.id, channelId: context.destination };
      await ack({ response_action: 'update', view: await newQuoteForm(deps, where) });
    },
  );
}
