/** "New booking", a global shortcut: /book, once the dispatcher has chosen where the booking card goes. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onGlobalShortcut } from '../kit/global-shortcut.js';
import { ids } from '../kit/ids.js';
import { createBookingDraft } from './draft.js';
import { showStep } from './steps.js';

export function register(app: App, deps: Core): void {
  onGlobalShortcut(app, deps, requires(deps, 'book'), {
    callbackId: ids.bookNew,
    buttonId: ids.bookFromHome,
    destinationId: ids.bookingDestination,
    title: 'New booking',
    result: 'the booking card',
    form: async (where) => showStep(deps, await createBookingDraft(deps, where, {}), 'shipment'),
  });
}
