/** "Try again" after a failed quote. */
import type { App } from '@slack/bolt';
import { validate } from '../../waybill/schemas.js';
import type { BotDeps } from '../deps.js';
import { onModalButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { quoteDraftOfView, quoteForm, quoteWorking, runQuote } from './flow.js';

/** "Try again" after a failed quote: the same input, sent again (a quotation changes nothing). */
export function register(app: App, deps: BotDeps): void {
  onModalButton(app, ids.quoteRetry, async (view, client) => {
    const draft = await quoteDraftOfView(deps, view.private_metadata);
    if (!draft) return;
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
    deps.inFlight.run('quote', () => runQuote(deps, client, { viewId: view.id, draft, quote: result.value }));
  });
}
