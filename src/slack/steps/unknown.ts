/** A workflow step this bot does not provide (an old or forged callback id): ended with an error naming it, never left hanging. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { ids } from './ids.js';
import { stepRequires } from './send.js';

const provided = new Set<string>(Object.values(ids));

export function register(app: App, deps: Core): void {
  // Nothing is done for anyone, so no permission: the step is only ended.
  app.event('function_executed', stepRequires(deps, 'nothing'), async ({ event, ack, fail }) => {
    const step = event.function.callback_id.slice(0, 100);
    // The bot's own steps are acknowledged and ended by their listeners.
    if (provided.has(step)) return;
    await ack();
    deps.logger.warn({ step }, 'a workflow step this bot does not provide: ended with an error');
    await fail({
      error: `The Waybill Dispatch bot has no step "${step}": take it out of the workflow, or ask whoever runs the bot which steps it provides.`,
    });
  });
}
