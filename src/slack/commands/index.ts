import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as quote from './quote.js';

export function register(app: App, deps: BotDeps): void {
  quote.register(app, deps);
}
