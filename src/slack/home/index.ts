/** The Home tab and exports: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never home's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as exportRange from './export-range.js';
import { exportVerb } from './export-range.js';
import * as opened from './opened.js';

export { parseExportRange } from './export.js';
export { exportVerb } from './export-range.js';

function register(app: App, deps: Core): void {
  for (const listener of [opened, exportRange]) listener.register(app, deps);
}

export { ids as homeIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'home',
  register,
  verbs: [exportVerb],
};
