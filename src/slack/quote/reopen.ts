import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { openModalSoon } from '../shared/modal.js';
import { type QuoteDraft, quoteForm } from './flow.js';

/** From the message sent when a failed quote's modal was already closed: the filled form, again. */
export function register(app: App, deps: BotDeps): void {
  app.action(ids.quoteReopen, async ({ ack, body, client, respond }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const action = body.actions[0];
    const draftId = action?.type === 'button' ? action.value : undefined;
    const draft = draftId ? deps.store.drafts.get<QuoteDraft>(draftId) : undefined;
    if (!draft) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'That form has expired. Type `/quote` to start again.',
      });
      return;
    }
    openModalSoon(deps, client, {
      triggerId: body.trigger_id,
      respond,
      again: 'click *Open the form again*',
      view: () => quoteForm(deps, draft),
    });
  });
}
