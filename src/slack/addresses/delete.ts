/** Delete, in the address book window (Slack asks to confirm first): the party goes, the list stays. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import { addressBookDraftOfView, listView } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  app.action<BlockAction<ButtonAction>>(ids.addressesDelete, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    const draft = await addressBookDraftOfView(deps, body.view.private_metadata);
    if (!draft) return;
    const partyId = action.value ?? '';
    const saved = await deps.store.parties.get(partyId);
    const deleted = saved !== undefined && (await deps.store.parties.delete(partyId));
    if (deleted) {
      await deps.store.audit.record({
        userId: body.user.id,
        operation: 'addresses',
        outcome: 'deleted',
        detail: `saved party ${partyId}`,
      });
    }
    const notice = deleted ? `Deleted ${saved.name}.` : 'That party was already deleted.';
    await showInModal(client, body.view.id, await listView(deps, draft, notice));
  });
}
