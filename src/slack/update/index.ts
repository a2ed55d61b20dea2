/** /waybill and waybill updates: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never update's other files.
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as back from './back.js';
import * as fromCard from './from-card.js';
import * as retry from './retry.js';
import * as submit from './submit.js';
import * as waybillCommand from './waybill-command.js';

export { updateFormSpec } from './form.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [waybillCommand, fromCard, submit, retry, back]) listener.register(app, deps);
}
