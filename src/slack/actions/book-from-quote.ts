import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../ids.js';

export function register(app: App, _deps: BotDeps): void {
  app.action(ids.bookFromQuote, async ({ ack, respond }) => {
    await ack();
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Booking from a quote is not available yet: type `/book` to book.',
    });
  });
}
