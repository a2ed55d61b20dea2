/** "Get quote": the form validated inline, then the courier asked once. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { validate } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { inputBlockIds, readFormState, type StateValues, slackErrors } from '../kit/forms.js';
import type { QuoteDraft } from './draft.js';
import { ids } from './ids.js';
import { runQuote } from './send.js';
import { quoteWorking } from './steps.js';

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<QuoteDraft>>(
    ids.quoteForm,
    requires(deps, 'quote'),
    withDraft(deps.store.drafts, 'quote', {
      error: 'This form has expired. Close it and type /quote again.',
    }),
    async ({ ack, view, client, context: { draft } }) => {
      // The work after the ack keeps only the view's id: the view (its blocks and state) is the largest
      // part of the request, and a slow courier would keep two hundred of them alive.
      const viewId = view.id;
      const blockIds = inputBlockIds(view.blocks);
      const input = readFormState(view.state.values as StateValues);
      // What was typed is kept whatever happens next, so a failure never loses it; written after the
      // ack, so a burst of submissions is acknowledged first.
      const keep = () => deps.store.drafts.save<QuoteDraft>(draft.id, { ...draft.data, input });
      const result = validate(deps.schemas.quote, input);
      if (!result.ok) {
        await ack({ response_action: 'errors', errors: slackErrors(result.errors, blockIds) });
        await keep();
        return;
      }
      await ack({ response_action: 'update', view: quoteWorking(deps, draft, result.value) });
      deps.inFlight.run(
        'quote',
        async () => runQuote(deps, client, { viewId, draft: await keep(), quote: result.value }),
        { client, userId: draft.userId, viewId },
      );
    },
  );
}
