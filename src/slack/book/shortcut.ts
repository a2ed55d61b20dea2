/** "New booking", a global shortcut: /book, once the dispatcher has chosen where the booking card goes. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onGlobalShortcut } from '../shared/global-shortcut.js';
import { ids } from '../shared/ids.js';
import { createBookingDraft, showStep } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  onGlobalShortcut(app, deps, {
    callbackId: ids.bookNew,
    buttonId: ids.bookFromHome,
    destinationId: ids.bookingDestination,
    title: 'New booking',
    result: 'the booking card',
    form: async (where) => showStep(deps, await createBookingDraft(deps, where, {}), 'shipment'),
  });
}
