import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as bookFromQuote from './book-from-quote.js';
import * as quoteBack from './quote-back.js';
import * as quoteReopen from './quote-reopen.js';
import * as quoteRetry from './quote-retry.js';

export function register(app: App, deps: BotDeps): void {
  quoteBack.register(app, deps);
  quoteRetry.register(app, deps);
  quoteReopen.register(app, deps);
  bookFromQuote.register(app, deps);
}
