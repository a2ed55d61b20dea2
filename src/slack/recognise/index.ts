/** Tracking numbers recognised in channel messages (/waybill recognise): the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never recognise's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import { recogniseVerb } from './command.js';
import * as message from './message.js';
import * as unfurl from './unfurl.js';

export { recogniseVerb } from './command.js';

function register(app: App, deps: Core): void {
  message.register(app, deps);
  unfurl.register(app, deps);
}

export { ids as recogniseIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'recognise',
  register,
  verbs: [recogniseVerb],
};
