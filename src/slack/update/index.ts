/** Waybill updates, and /waybill show and update: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never update's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as back from './back.js';
import { showVerb, updateVerb } from './command.js';
import * as fromCard from './from-card.js';
import * as resolve from './resolve.js';
import * as retry from './retry.js';
import * as submit from './submit.js';

export { shownBooking, showVerb, updateVerb } from './command.js';
export { updateFormSpec } from './form.js';

function register(app: App, deps: Core): void {
  for (const listener of [fromCard, submit, retry, back, resolve]) listener.register(app, deps);
}

export { ids as updateIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'update',
  register,
  verbs: [showVerb, updateVerb],
};
