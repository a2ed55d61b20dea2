/** Edit, in the address book window: the party's form on top, checked by the party schema, saved, the list again. */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { validate } from '../../waybill/schemas.js';
import type { BotDeps } from '../deps.js';
import { inputBlockIds, readFormState, type StateValues, slackErrors } from '../shared/forms.js';
import { ids, readViewMetadata, viewMetadata } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { partyEditView, partyGoneView } from './blocks.js';
import { addressBookDraftOfView, listView } from './flow.js';
import { editValues } from './form.js';

export function register(app: App, deps: BotDeps): void {
  app.action<BlockAction<ButtonAction>>(ids.addressesEdit, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    const draft = await addressBookDraftOfView(deps, body.view.private_metadata);
    if (!draft) return;
    const saved = await deps.store.parties.get(action.value ?? '');
    if (!saved) {
      await showInModal(
        client,
        body.view.id,
        await listView(deps, draft, 'That party was deleted meanwhile.'),
      );
      return;
    }
    const { fields, required } = deps.forms.party;
    await client.views.push({
      trigger_id: body.trigger_id,
      view: partyEditView({
        fields,
        required,
        values: editValues(saved),
        metadata: viewMetadata({ draftId: draft.id, partyId: saved.id }),
        uses: saved.uses,
      }),
    });
  });

  app.view<ViewSubmitAction>(ids.addressesEditForm, async ({ ack, view, body, client }) => {
    const blockIds = inputBlockIds(view.blocks);
    const partyId = readViewMetadata(view.private_metadata)?.partyId ?? '';
    const draft = await addressBookDraftOfView(deps, view.private_metadata);
    if (!draft) {
      const message = 'This window has expired. Close it and type /waybill addresses again.';
      await ack({ response_action: 'errors', errors: { [blockIds[0] ?? '']: message } });
      return;
    }
    const result = validate(deps.forms.party.schema, readFormState(view.state.values as StateValues));
    if (!result.ok) {
      await ack({ response_action: 'errors', errors: slackErrors(result.errors, blockIds) });
      return;
    }
    const edited = await deps.store.parties.edit(partyId, result.value.party);
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
    await deps.store.audit.record({
      userId: body.user.id,
      operation: 'addresses',
      outcome: 'edited',
      detail: `saved party ${edited.party.id}`,
    });
    if (view.root_view_id) {
      await showInModal(
        client,
        view.root_view_id,
        await listView(deps, draft, `Saved ${edited.party.name}.`),
      );
    }
  });
}
