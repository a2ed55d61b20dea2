/** The daily digest: the feature's public entry (no listener of its own; the /waybill router calls digestVerb). */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { clockJob } from '../runtime/jobs.js';
import { digestTick } from './send.js';

export { localNow } from './data.js';
export { digestTick, digestVerb, lateNote } from './send.js';

/** How often a replica looks whether the daily digest is due: it is posted within this of DIGEST_TIME. */
const DIGEST_LOOK_MS = 20_000;

/** Off without DIGEST_CHANNEL_ID and DIGEST_TIME; claimed once a day across replicas. */
export function register(app: App, core: Core): void {
  if (core.bot.digest) {
    core.jobs.add(
      'daily digest',
      clockJob(core, 'daily digest', () => digestTick(core, app.client), DIGEST_LOOK_MS),
    );
  }
}
