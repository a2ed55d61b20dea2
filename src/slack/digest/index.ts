/** The daily digest: the feature's public entry (no listener of its own; the /waybill router calls digestVerb). */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import { clockJob } from '../runtime/jobs.js';
import { digestTick, digestVerb } from './send.js';

export { localNow } from './data.js';
export { digestTick, digestVerb, lateNote } from './send.js';

/** How often a replica looks whether the daily digest is due: it is posted within this of DIGEST_TIME. */
const DIGEST_LOOK_MS = 20_000;

/** Off without DIGEST_CHANNEL_ID and DIGEST_TIME; claimed once a day across replicas. */
function register(app: App, core: Core): FeatureJobs {
  if (!core.bot.digest) return {};
  return {
    'daily digest': clockJob(core, 'daily digest', () => digestTick(core, app.client), DIGEST_LOOK_MS),
  };
}

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'digest',
  register,
  verbs: [digestVerb],
};
