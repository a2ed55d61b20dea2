/** "New quote", a global shortcut: /quote, once the dispatcher has chosen where the price goes. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onGlobalShortcut } from '../shared/global-shortcut.js';
import { ids } from '../shared/ids.js';
import { newQuoteForm } from './command.js';

export function register(app: App, deps: BotDeps): void {
  onGlobalShortcut(app, deps, {
    callbackId: ids.quoteNew,
    buttonId: ids.quoteFromHome,
    destinationId: ids.quoteDestination,
    title: 'New quote',
    result: 'the price',
    form: (where) => newQuoteForm(deps, where),
  });
}
