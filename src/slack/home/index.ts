/** The Home tab and exports: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never home's other files.
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as exportRange from './export-range.js';
import * as opened from './opened.js';

export { exportFromCommand } from './export-range.js';
export { DEFAULT_REFRESH_TIMING, type RefreshTiming } from './refresh.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [opened, exportRange]) listener.register(app, deps);
}
