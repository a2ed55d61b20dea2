/** Owners of bookings: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never owners' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import * as card from './card.js';

export { assignVerb } from './command.js';

export function register(app: App, deps: Core): void {
  card.register(app, deps);
}
