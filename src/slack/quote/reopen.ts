/** From the message sent when a failed quote's modal was already closed: the filled form, again. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import type { QuoteDraft } from './draft.js';
import { ids } from './ids.js';
import { quoteForm } from './steps.js';

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    ids.quoteReopen,
    requires(deps, 'quote'),
    ackNow,
    openingModal(deps, 'click *Open the form again*'),
    async ({ action: { value: draftId = '' }, context }) => {
      const draft = draftId ? await deps.store.drafts.get<QuoteDraft>(draftId) : undefined;
      if (!draft) return context.openModal('That form has expired. Type `/quote` to start again.');
      return context.openModal(() => quoteForm(deps, draft));
    },
  );
}
