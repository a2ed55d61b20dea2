/** Owners of bookings: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never owners' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as card from './card.js';
import { assignVerb } from './command.js';

export { assignVerb } from './command.js';

function register(app: App, deps: Core): void {
  card.register(app, deps);
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'owners',
  register,
  verbs: [assignVerb],
};
