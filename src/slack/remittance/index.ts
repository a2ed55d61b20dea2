/** COD remittance: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never remittance's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import { codVerb } from './ageing.js';
import * as open from './open.js';
import { remittanceVerb } from './open.js';
import * as submit from './submit.js';

export { type CodSummary, codLedger, summariseCod } from '../../operations/remittance.js';
export { codVerb } from './ageing.js';
export { bucketWords, codFigures } from './blocks.js';
export { remittanceVerb } from './open.js';

function register(app: App, deps: Core): void {
  for (const listener of [open, submit]) listener.register(app, deps);
}

export { ids as remittanceIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'remittance',
  register,
  verbs: [remittanceVerb, codVerb],
};
