/** Finding bookings (/waybill find): the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never find's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import * as command from './command.js';

export { findVerb } from './command.js';

export function register(app: App, deps: Core): void {
  command.register(app, deps);
}
export { ids as findIds } from './ids.js';
