/** ← Previous / Next → among the problems of a checked file. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onModalButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { pageCount } from './blocks.js';
import { type BulkDraft, bulkDraftOfView, bulkSummary } from './check.js';

export function register(app: App, deps: BotDeps): void {
  onModalButton(app, ids.bulkPage, async (view, client, action) => {
    const draft = await bulkDraftOfView(deps, view.private_metadata);
    if (!draft) return;
    const pages = pageCount(draft.data.problems.length);
    const page = Math.min(Math.max(Number(action.value) || 0, 0), pages - 1);
    const saved = await deps.store.drafts.save<BulkDraft>(draft.id, { ...draft.data, page });
    await showInModal(client, view.id, bulkSummary(deps, saved.id, saved.data), view.hash);
  });
}
