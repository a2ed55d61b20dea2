/** From the message sent when a failed quote's modal was already closed: the filled form, again. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onOpeningButton } from '../kit/buttons.js';
import { ids } from '../kit/ids.js';
import type { QuoteDraft } from './draft.js';
import { quoteForm } from './steps.js';

export function register(app: App, deps: Core): void {
  onOpeningButton(
    app,
    deps,
    ids.quoteReopen,
    requires(deps, 'quote'),
    'click *Open the form again*',
    async (draftId) => {
      const draft = draftId ? await deps.store.drafts.get<QuoteDraft>(draftId) : undefined;
      if (!draft) return 'That form has expired. Type `/quote` to start again.';
      return () => quoteForm(deps, draft);
    },
  );
}
