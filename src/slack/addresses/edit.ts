/** Edit, in the address book window: the party's form on top, checked by the party schema, saved, the list again. */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { editParty } from '../../operations/addresses.js';
import { partyRevision, type SavedParty } from '../../store/index.js';
import { validate } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { inputBlockIds, readFormState, type StateValues, slackErrors } from '../kit/forms.js';
import { readViewMetadata, viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import { partyEditView, partyGoneView } from './blocks.js';
import { ADDRESS_BOOK, type AddressBookDraft, addressBookExpired, listView } from './draft.js';
import { editValues, partySpec } from './form.js';
import { ids } from './ids.js';

/** The edit form filled with the party as saved, its revision kept, so a change made since is not undone. */
function editForm(deps: Pick<Core, 'schemas'>, draftId: string, saved: SavedParty, notice?: string) {
  const { fields, required } = partySpec(deps);
  return partyEditView({
    fields,
    required,
    values: editValues(saved),
    metadata: viewMetadata({ draftId, partyId: saved.id, revision: partyRevision(saved) }),
    uses: saved.uses,
    notice,
  });
}

/** Told when the party changed between opening the form and saving it. */
const changedMeanwhile =
  'Someone changed this party while you were editing it, so your changes were not saved. Here it is as saved now: make your changes again and Save.';

export function register(app: App, deps: Core): void {
  app.action<BlockAction<ButtonAction>, DraftContext<AddressBookDraft>>(
    ids.addressesEdit,
    requires(deps, 'addresses'),
    withDraft(deps.store.drafts, ADDRESS_BOOK),
    async ({ ack, body, action, client, context: { draft } }) => {
      await ack();
      if (!body.view) return;
      const saved = await deps.store.parties.get(action.value ?? '');
      if (!saved) {
        await showInModal(
          client,
          body.view.id,
          await listView(deps, draft, 'That party was deleted meanwhile.'),
        );
        return;
      }
      await client.views.push({ trigger_id: body.trigger_id, view: editForm(deps, draft.id, saved) });
    },
  );

  app.view<ViewSubmitAction, DraftContext<AddressBookDraft>>(
    ids.addressesEditForm,
    requires(deps, 'addresses'),
    withDraft(deps.store.drafts, ADDRESS_BOOK, { error: addressBookExpired }),
    async ({ ack, view, body, client, context: { draft } }) => {
      const blockIds = inputBlockIds(view.blocks);
      const { partyId = '', revision } = readViewMetadata(view.private_metadata) ?? {};
      const result = validate(partySpec(deps).schema, readFormState(view.state.values as StateValues));
      if (!result.ok) {
        await ack({ response_action: 'errors', errors: slackErrors(result.errors, blockIds) });
        return;
      }
      const edited = await editParty(deps, {
        userId: body.user.id,
        partyId,
        party: result.value.party,
        revision,
      });
      if (!edited.ok && edited.reason === 'changed') {
        await ack({
          response_action: 'update',
          view: editForm(deps, draft.id, edited.current, changedMeanwhile),
        });
        return;
      }
      if (!edited.ok && edited.reason === 'duplicate') {
        const { name, phone } = edited.other;
        const message = `Another saved party has this name and phone (${name}, ${phone}): edit or delete that one instead`;
        await ack({
          response_action: 'errors',
          errors: slackErrors([{ path: 'party.name', message }], blockIds),
        });
        return;
      }
      if (!edited.ok) {
        await ack({ response_action: 'update', view: partyGoneView(view.private_metadata) });
        return;
      }
      // Closing this form shows the list below it; the list then shows the change.
      await ack();
      if (view.root_view_id) {
        await showInModal(
          client,
          view.root_view_id,
          await listView(deps, draft, `Saved ${edited.party.name}.`),
        );
      }
    },
  );
}
