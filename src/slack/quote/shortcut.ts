/** "New quote", a global shortcut: /quote, once the dispatcher has chosen where the price goes. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onGlobalShortcut } from '../kit/global-shortcut.js';
import { ids } from '../kit/ids.js';
import { newQuoteForm } from './command.js';

export function register(app: App, deps: Core): void {
  onGlobalShortcut(app, deps, requires(deps, 'quote'), {
    callbackId: ids.quoteNew,
    buttonId: ids.quoteFromHome,
    destinationId: ids.quoteDestination,
    title: 'New quote',
    result: 'the price',
    form: (where) => newQuoteForm(deps, where),
  });
}
