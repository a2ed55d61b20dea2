import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { quoteDraftOfView, quoteForm } from './flow.js';

/** "Back to the form" / "Change and quote again": the form, filled with what was last typed. */
export function register(app: App, deps: BotDeps): void {
  app.action(ids.quoteBack, async ({ ack, body, client }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.view) return;
    const draft = quoteDraftOfView(deps, body.view.private_metadata);
    if (!draft) return;
    await showInModal(client, body.view.id, quoteForm(deps, draft), body.view.hash);
  });
}
