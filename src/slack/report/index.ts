/** The weekly report: the feature's public entry (no listener of its own; the job looks at the clock). */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import { clockJob } from '../runtime/jobs.js';
import { reportVerb } from './command.js';
import { reportTick } from './send.js';

export { reportVerb } from './command.js';
export { reportTick } from './send.js';

/** How often a replica looks whether the weekly report is due. */
const REPORT_LOOK_MS = 20_000;

/** Off without REPORT_CHANNEL_ID and REPORT_TIME; claimed once a week across replicas. */
function register(app: App, core: Core): FeatureJobs {
  if (!core.bot.report) return {};
  return {
    'weekly report': clockJob(core, 'weekly report', () => reportTick(core, app.client), REPORT_LOOK_MS),
  };
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'report',
  register,
  verbs: [reportVerb],
};
