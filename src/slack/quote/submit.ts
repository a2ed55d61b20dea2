/** "Get quote": the form validated inline, then the courier asked once. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { validate } from '../../waybill/schemas.js';
import type { BotDeps } from '../deps.js';
import { inputBlockIds, readFormState, type StateValues, slackErrors } from '../shared/forms.js';
import { ids } from '../shared/ids.js';
import { type QuoteDraft, quoteDraftOfView, quoteWorking, runQuote } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.quoteForm, async ({ ack, view, client }) => {
    const blockIds = inputBlockIds(view.blocks);
    const draft = await quoteDraftOfView(deps, view.private_metadata);
    if (!draft) {
      const message = 'This form has expired. Close it and type /quote again.';
      await ack({ response_action: 'errors', errors: { [blockIds[0] ?? '']: message } });
      return;
    }
    const input = readFormState(view.state.values as StateValues);
    // Kept whatever happens next, so a failure never loses what was typed.
    const saved = await deps.store.drafts.save<QuoteDraft>(draft.id, { ...draft.data, input });
    const result = validate(deps.schemas.quote, input);
    if (!result.ok) {
      await ack({ response_action: 'errors', errors: slackErrors(result.errors, blockIds) });
      return;
    }
    await ack({ response_action: 'update', view: quoteWorking(deps, saved, result.value) });
    deps.inFlight.run('quote', () =>
      runQuote(deps, client, { viewId: view.id, draft: saved, quote: result.value }),
    );
  });
}
