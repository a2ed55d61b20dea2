/** "Back to the form" after a failed update: the form with the changes that were typed. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { onBackToForm } from '../kit/buttons.js';
import { saveToShow } from '../kit/drafts.js';
import { ids } from '../kit/ids.js';
import type { UpdateDraft } from './draft.js';
import { updateForm } from './steps.js';

export function register(app: App, deps: Core): void {
  onBackToForm<DraftContext<UpdateDraft>>(
    app,
    ids.updateBack,
    [requires(deps, 'update'), withDraft(deps.store.drafts, 'update')],
    async ({ draft }) => updateForm(deps, await saveToShow(deps.store.drafts, draft)),
  );
}
