/** "Back to the form" after a failed update: the form with the changes that were typed. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { saveToShow } from '../kit/drafts.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import type { UpdateDraft } from './draft.js';
import { ids } from './ids.js';
import { updateForm } from './steps.js';

export function register(app: App, deps: Core): void {
  // The view's hash makes a stale second click a no-op.
  app.action<ButtonClick, DraftContext<UpdateDraft> & InModal>(
    ids.updateBack,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, 'update'),
    ackNow,
    inModal,
    async ({ client, context: { modal, draft } }) => {
      await showInModal(
        client,
        modal.id,
        updateForm(deps, await saveToShow(deps.store.drafts, draft)),
        modal.hash,
      );
    },
  );
}
