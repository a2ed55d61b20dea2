import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { type UpdateDraft, updateDraftOfView, updateForm } from './flow.js';

/** "Back to the form" after a failed update: the form with the changes that were typed. */
export function register(app: App, deps: BotDeps): void {
  app.action(ids.updateBack, async ({ ack, body, client }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.view) return;
    const draft = updateDraftOfView(deps, body.view.private_metadata);
    if (!draft) return;
    const shown = deps.store.drafts.save<UpdateDraft>(draft.id, { ...draft.data, rev: draft.data.rev + 1 });
    await showInModal(client, body.view.id, updateForm(deps, shown), body.view.hash);
  });
}
