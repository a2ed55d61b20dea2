/** What needs attention: the feature's public entry (`/waybill attention`, the Home tab's section). */
// Another feature imports only what this file exports, never attention's other files.
import type { Feature } from '../feature.js';
import { attentionVerb } from './list.js';

export { age, attentionCounts, itemLine } from './blocks.js';
export { attentionHomeBlocks, attentionVerb, itemsNow as attentionNow } from './list.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'attention',
  verbs: [attentionVerb],
};
