/** Parcel statuses recorded by dispatchers: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never status' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import { statusVerb } from './command.js';
import * as file from './file.js';
import * as form from './form.js';
import * as many from './many.js';
import { statusesVerb } from './many.js';

export { checkStatus } from '../../operations/status.js';
export { statusOfBooking, statusVerb } from './command.js';
export { recordAndTell, recordStatus, tellCards } from './send.js';
export { readStatusWords, usualWords } from './words.js';

function register(app: App, deps: Core): void {
  form.register(app, deps);
  many.register(app, deps);
  file.register(app, deps);
}

export { ids as statusIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'status',
  register,
  verbs: [statusVerb, statusesVerb],
};
