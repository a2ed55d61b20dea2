/** Reminders of what needs attention: the feature's public entry (the job, Snooze, Return to sender). */
// bot.ts registers it; another feature imports only what this file exports, never reminders' other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import { clockJob } from '../runtime/jobs.js';
import * as returnToSender from './return.js';
import { purgeClosed, remindersTurn } from './send.js';
import * as snooze from './snooze.js';

/** How often a replica looks for reminders due: each arrives within this of falling due. */
const REMINDERS_LOOK_MS = 30_000;
/** How often old claim rows are looked for: their purge is no hurry. */
const PURGE_EVERY_MS = 60 * 60_000;

function register(app: App, core: Core): FeatureJobs {
  snooze.register(app, core);
  returnToSender.register(app, core);
  return {
    reminders: clockJob(core, 'reminders', () => remindersTurn(core, app.client), REMINDERS_LOOK_MS),
    'reminders purge': clockJob(core, 'reminders purge', () => purgeClosed(core), PURGE_EVERY_MS),
  };
}

export { ids as remindersIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'reminders',
  register,
};
