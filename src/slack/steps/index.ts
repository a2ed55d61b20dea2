/** Workflow Builder steps (custom functions): the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never steps' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as book from './book.js';
import * as find from './find.js';
import * as quote from './quote.js';
import * as status from './status.js';
import * as unknown from './unknown.js';

function register(app: App, deps: Core): void {
  for (const step of [quote, book, status, find, unknown]) step.register(app, deps);
  // Said once at start-up, not first by a failing workflow run.
  if (!deps.profiles.any) deps.logger.warn(book.NO_SENDER_PROFILE_AT_START);
}

export { ids as stepsIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'steps',
  register,
};
