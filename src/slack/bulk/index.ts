/** Bulk booking from a CSV file: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never bulk's other files.
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as confirm from './confirm.js';
import * as open from './open.js';
import * as page from './page.js';
import * as submit from './submit.js';

export { importModalFor } from './open.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [open, submit, page, confirm]) listener.register(app, deps);
}
