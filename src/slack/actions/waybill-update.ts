import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../ids.js';

export function register(app: App, _deps: BotDeps): void {
  app.action(ids.waybillUpdate, async ({ ack, respond }) => {
    await ack();
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Updating a waybill from Slack is not available yet.',
    });
  });
}
