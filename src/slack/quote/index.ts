/** /quote: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never quote's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as back from './back.js';
import * as command from './command.js';
import * as partyPick from './party-pick.js';
import * as reopen from './reopen.js';
import * as retry from './retry.js';
import * as shortcut from './shortcut.js';
import * as submit from './submit.js';

export { routeLine } from './blocks.js';
export { quoteDefaults } from './command.js';
export { quotedInput } from './draft.js';
export { quoteFormSpec } from './form.js';

function register(app: App, deps: Core): void {
  for (const listener of [command, shortcut, submit, back, retry, reopen, partyPick])
    listener.register(app, deps);
}

export { ids as quoteIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'quote',
  register,
};
