/** Search, in the address book window: the list for what was typed. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { SEARCH_BLOCK } from './blocks.js';
import { type AddressBookDraft, addressBookDraftOfView, listView } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.addressesList, async ({ ack, view }) => {
    const draft = await addressBookDraftOfView(deps, view.private_metadata);
    if (!draft) {
      const message = 'This window has expired. Close it and type /waybill addresses again.';
      await ack({ response_action: 'errors', errors: { [SEARCH_BLOCK]: message } });
      return;
    }
    const query = (view.state.values[SEARCH_BLOCK]?.[SEARCH_BLOCK]?.value ?? '').trim();
    const saved = await deps.store.drafts.save<AddressBookDraft>(draft.id, { query });
    await ack({ response_action: 'update', view: await listView(deps, saved) });
  });
}
