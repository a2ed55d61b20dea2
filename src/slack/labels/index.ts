/** Parcel labels and the pickup manifest: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never labels' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as manifest from './manifest.js';
import { manifestVerb } from './manifest.js';
import * as print from './print.js';
import { labelVerb } from './print.js';
import * as printers from './printers.js';

export { manifestVerb } from './manifest.js';
export { labelVerb } from './print.js';

function register(app: App, deps: Core): void {
  for (const listener of [print, printers, manifest]) listener.register(app, deps);
}

export { ids as labelsIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'labels',
  register,
  verbs: [labelVerb, manifestVerb],
};
