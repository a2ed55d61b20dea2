/** The forms' place type-ahead: the feature's public entry. */
// bot.ts registers it; the forms' place inputs are built by the kit (fields.ts), whichever feature shows them.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as options from './options.js';

function register(app: App, deps: Core): void {
  options.register(app, deps);
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'places',
  register,
};
