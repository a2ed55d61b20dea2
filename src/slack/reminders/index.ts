/** Reminders of what needs attention: the feature's public entry (the job; an item's buttons are attention's). */
// bot.ts registers it; another feature imports only what this file exports, never reminders' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import { clockJob } from '../runtime/jobs.js';
import { purgeClosed, remindersTurn } from './send.js';

/** How often a replica looks for reminders due: each arrives within this of falling due. */
const REMINDERS_LOOK_MS = 30_000;
/** How often old claim rows are looked for: their purge is no hurry. */
const PURGE_EVERY_MS = 60 * 60_000;

function register(app: App, core: Core): FeatureJobs {
  return {
    reminders: clockJob(core, 'reminders', () => remindersTurn(core, app.client), REMINDERS_LOOK_MS),
    'reminders purge': clockJob(core, 'reminders purge', () => purgeClosed(core), PURGE_EVERY_MS),
  };
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'reminders',
  register,
};
