/** What needs attention: the feature's public entry (`/waybill attention`, the Home tab's section, an item's Snooze and Return to sender). */
// Another feature imports only what this file exports, never attention's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import { attentionVerb } from './list.js';
import * as returnToSender from './return.js';
import * as snooze from './snooze.js';

export { attentionCounts } from './blocks.js';
export { callsFor, type ViewerCalls, viewerOf } from './calls.js';
export { age, itemBlocks, itemLine } from './item.js';
export { attentionHomeBlocks, attentionVerb, itemsNow as attentionNow } from './list.js';

function register(app: App, core: Core): void {
  snooze.register(app, core);
  returnToSender.register(app, core);
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'attention',
  verbs: [attentionVerb],
  register,
};
