/** "Try again" after a failed quote. */
import type { App } from '@slack/bolt';
import { validate } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import type { QuoteDraft } from './draft.js';
import { ids } from './ids.js';
import { runQuote } from './send.js';
import { quoteForm, quoteWorking } from './steps.js';

/** "Try again" after a failed quote: the same input, sent again (a quotation changes nothing). */
export function register(app: App, deps: Core): void {
  app.action<ButtonClick, DraftContext<QuoteDraft> & InModal>(
    ids.quoteRetry,
    requires(deps, 'quote'),
    withDraft(deps.store.drafts, 'quote'),
    ackNow,
    inModal,
    async ({ client, context: { modal: view, draft } }) => {
      const result = validate(deps.schemas.quote, draft.data.input);
      if (!result.ok) {
        await showInModal(client, view.id, quoteForm(deps, draft), view.hash);
        return;
      }
      // The hash makes a second click on the same "Try again" a no-op instead of a second call.
      const shown = await showInModal(
        client,
        view.id,
        quoteWorking(deps, draft, result.value),
        view.hash,
      ).catch(() => false);
      if (!shown) return;
      deps.inFlight.run(
        'quote',
        () => runQuote(deps, client, { viewId: view.id, draft, quote: result.value }),
        {
          client,
          userId: draft.userId,
          viewId: view.id,
        },
      );
    },
  );
}
