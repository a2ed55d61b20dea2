import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as closed from './closed.js';
import * as quoteSubmit from './quote-submit.js';

export function register(app: App, deps: BotDeps): void {
  quoteSubmit.register(app, deps);
  closed.register(app, deps);
}
