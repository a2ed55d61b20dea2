/** A saved party chosen in the quote form's type-ahead: its place filled in, the rest kept as typed. */
import type { App, BlockAction, ExternalSelectAction } from '@slack/bolt';
import { fillParty, partyGoneNotice, partyOfPicker, partyOptionsAnswer } from '../addresses/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { saveToShow } from '../kit/drafts.js';
import { readFormState, type StateValues } from '../kit/forms.js';
import { showInModal } from '../kit/modal.js';
import type { QuoteDraft } from './draft.js';
import { quoteFields } from './form.js';
import { ids } from './ids.js';
import { quoteForm } from './steps.js';

/** The form shown again with the party's place (a quote has no names or phones); everything stays editable. */
export function register(app: App, deps: Core): void {
  // The menu's options: the address book answers them.
  app.options<'block_suggestion'>(
    { type: 'block_suggestion', action_id: ids.quoteParty },
    requires(deps, 'quote'),
    partyOptionsAnswer(deps),
  );
  const paths = new Set(quoteFields(deps).map((field) => field.path));
  app.action<BlockAction<ExternalSelectAction>, DraftContext<QuoteDraft>>(
    ids.quoteParty,
    requires(deps, 'quote'),
    withDraft(deps.store.drafts, 'quote'),
    async ({ ack, body, action, client, context: { draft } }) => {
      await ack();
      if (!body.view) return;
      const party = partyOfPicker(action.block_id);
      const chosen = action.selected_option?.value;
      const saved = party && chosen ? await deps.store.parties.get(chosen) : undefined;
      // What is on screen is the form's whole state.
      const typed = readFormState(body.view.state?.values as StateValues | undefined);
      const input = party && saved ? fillParty(typed, party, saved, paths) : typed;
      const shown = await saveToShow(deps.store.drafts, draft, { input });
      const gone =
        party && chosen && !saved ? [partyGoneNotice(action.selected_option?.text.text ?? '')] : [];
      await showInModal(client, body.view.id, quoteForm(deps, shown, gone), body.view.hash);
    },
  );
}
