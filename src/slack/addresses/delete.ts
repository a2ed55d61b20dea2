/** Delete, in the address book window (Slack asks to confirm first): the party goes, the list stays. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { deleteParty } from '../../operations/addresses.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { showInModal } from '../kit/modal.js';
import { ADDRESS_BOOK, type AddressBookDraft, listView } from './draft.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  app.action<BlockAction<ButtonAction>, DraftContext<AddressBookDraft>>(
    ids.addressesDelete,
    requires(deps, 'addresses'),
    withDraft(deps.store.drafts, ADDRESS_BOOK),
    async ({ ack, body, action, client, context: { draft } }) => {
      await ack();
      if (!body.view) return;
      const partyId = action.value ?? '';
      const saved = await deps.store.parties.get(partyId);
      const deleted = saved !== undefined && (await deleteParty(deps, { userId: body.user.id, partyId }));
      const notice = deleted ? `Deleted ${saved.name}.` : 'That party was already deleted.';
      await showInModal(client, body.view.id, await listView(deps, draft, notice));
    },
  );
}
