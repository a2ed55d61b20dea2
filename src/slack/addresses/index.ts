/** The address book: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never its other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import { addressesVerb } from './command.js';
import * as deleteParty from './delete.js';
import * as edit from './edit.js';
import * as search from './search.js';

export { partyGoneNotice, partyOfPicker, partyPicker } from './blocks.js';
export { addressesVerb } from './command.js';
export { fillParty, knownParties, partyFormSpec } from './form.js';

function register(app: App, deps: Core): void {
  for (const listener of [search, edit, deleteParty]) listener.register(app, deps);
}

export { ids as addressesIds } from './ids.js';
export { partyOptionsAnswer } from './options.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'addresses',
  register,
  verbs: [addressesVerb],
};
