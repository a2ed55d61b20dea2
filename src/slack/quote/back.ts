/** "Back to the form" / "Change and quote again": the form, filled with what was last typed. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import type { QuoteDraft } from './draft.js';
import { ids } from './ids.js';
import { quoteForm } from './steps.js';

export function register(app: App, deps: Core): void {
  // The view's hash makes a stale second click a no-op.
  app.action<ButtonClick, DraftContext<QuoteDraft> & InModal>(
    ids.quoteBack,
    requires(deps, 'quote'),
    withDraft(deps.store.drafts, 'quote'),
    ackNow,
    inModal,
    async ({ client, context: { modal, draft } }) => {
      await showInModal(client, modal.id, quoteForm(deps, draft), modal.hash);
    },
  );
}
