/** "Back to the form" after a failed update: the form with the changes that were typed. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onBackToForm } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { type UpdateDraft, updateDraftOfView, updateForm } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  onBackToForm(app, ids.updateBack, async (privateMetadata) => {
    const draft = await updateDraftOfView(deps, privateMetadata);
    if (!draft) return undefined;
    const shown = await deps.store.drafts.save<UpdateDraft>(draft.id, {
      ...draft.data,
      rev: draft.data.rev + 1,
    });
    return updateForm(deps, shown);
  });
}
