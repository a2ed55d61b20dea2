/** Finding bookings (/waybill find): the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never find's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as command from './command.js';
import { findVerb } from './command.js';

export { findVerb } from './command.js';

function register(app: App, deps: Core): void {
  command.register(app, deps);
}

export { ids as findIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'find',
  register,
  verbs: [findVerb],
};
