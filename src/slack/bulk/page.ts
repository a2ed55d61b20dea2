/** ← Previous / Next → among the problems of a checked file. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import { pageCount } from './blocks.js';
import { BULK_KIND, type BulkDraft, bulkSummary } from './check.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, DraftContext<BulkDraft> & InModal>(
    ids.bulkPage,
    requires(deps, 'bulk'),
    withDraft(deps.store.drafts, BULK_KIND),
    ackNow,
    inModal,
    async ({ action, client, context: { modal: view, draft } }) => {
      const pages = pageCount(draft.data.problems.length);
      const page = Math.min(Math.max(Number(action.value) || 0, 0), pages - 1);
      const saved = await deps.store.drafts.save<BulkDraft>(draft.id, { ...draft.data, page });
      await showInModal(client, view.id, bulkSummary(deps, saved.id, saved.data), view.hash);
    },
  );
}
