/** A saved party chosen in the quote form's type-ahead: its place filled in, the rest kept as typed. */
import type { App, BlockAction, ExternalSelectAction } from '@slack/bolt';
import { fillParty, partyOfPicker } from '../addresses/index.js';
import type { BotDeps } from '../deps.js';
import { readFormState, type StateValues } from '../shared/forms.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { type QuoteDraft, quoteDraftOfView, quoteForm } from './flow.js';
import { sectionFields } from './form.js';

/** The form shown again with the party's place (a quote has no names or phones); everything stays editable. */
export function register(app: App, deps: BotDeps): void {
  const paths = new Set(sectionFields(deps.forms.quote.sections).map((field) => field.path));
  app.action<BlockAction<ExternalSelectAction>>(ids.quoteParty, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    const draft = await quoteDraftOfView(deps, body.view.private_metadata);
    if (!draft) return;
    const party = partyOfPicker(action.block_id);
    const chosen = action.selected_option?.value;
    const saved = party && chosen ? await deps.store.parties.get(chosen) : undefined;
    // What is on screen is the form's whole state.
    const typed = readFormState(body.view.state?.values as StateValues | undefined);
    const input = party && saved ? fillParty(typed, party, saved, paths) : typed;
    const rev = (draft.data.rev ?? 0) + 1;
    const shown = await deps.store.drafts.save<QuoteDraft>(draft.id, { ...draft.data, input, rev });
    await showInModal(client, body.view.id, quoteForm(deps, shown), body.view.hash);
  });
}
