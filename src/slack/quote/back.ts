/** "Back to the form" / "Change and quote again": the form, filled with what was last typed. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { onBackToForm } from '../kit/buttons.js';
import { ids } from '../kit/ids.js';
import type { QuoteDraft } from './draft.js';
import { quoteForm } from './steps.js';

export function register(app: App, deps: Core): void {
  onBackToForm<DraftContext<QuoteDraft>>(
    app,
    ids.quoteBack,
    [requires(deps, 'quote'), withDraft(deps.store.drafts, 'quote')],
    async ({ draft }) => quoteForm(deps, draft),
  );
}
