/** What needs attention: the feature's public entry (`/waybill attention`, the Home tab's section). */
// Another feature imports only what this file exports, never attention's other files.
export { age, attentionCounts, itemLine } from './blocks.js';
export { attentionHomeBlocks, attentionVerb, itemsNow as attentionNow } from './list.js';
