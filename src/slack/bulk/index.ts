/** Bulk booking from a CSV file: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never bulk's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature, FeatureJobs } from '../feature.js';
import * as confirm from './confirm.js';
import * as open from './open.js';
import * as page from './page.js';
import * as submit from './submit.js';
import { BulkWorker } from './worker.js';

export { importModalFor } from './open.js';

function register(app: App, core: Core): FeatureJobs {
  // This replica's share of the rows queue: rows queued by any replica (or left by one that is
  // gone) are booked here too, looked for as often as the replica renews its lease (at most 1 s).
  const rows = new BulkWorker(core, app.client);
  for (const listener of [open, submit, page]) listener.register(app, core);
  confirm.register(app, core, rows);
  return {
    'bulk rows': {
      start: () => rows.start(Math.min(core.bot.database.leaseRenewMs, 1000)),
      stop: () => rows.stop(),
      turn: () => rows.poll(),
    },
  };
}

export { ids as bulkIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'bulk',
  register,
};
