/** From the message sent when a failed quote's modal was already closed: the filled form, again. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onOpeningButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { type QuoteDraft, quoteForm } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  onOpeningButton(app, deps, ids.quoteReopen, 'click *Open the form again*', async (draftId) => {
    const draft = draftId ? await deps.store.drafts.get<QuoteDraft>(draftId) : undefined;
    if (!draft) return 'That form has expired. Type `/quote` to start again.';
    return () => quoteForm(deps, draft);
  });
}
