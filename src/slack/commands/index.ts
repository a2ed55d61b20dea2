import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as book from './book.js';
import * as quote from './quote.js';
import * as waybill from './waybill.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [quote, book, waybill]) listener.register(app, deps);
}
