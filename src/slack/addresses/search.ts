/** Search, in the address book window: the list for what was typed. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { SEARCH_BLOCK } from './blocks.js';
import { ADDRESS_BOOK, type AddressBookDraft, addressBookExpired, listView } from './draft.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<AddressBookDraft>>(
    ids.addressesList,
    requires(deps, 'addresses'),
    withDraft(deps.store.drafts, ADDRESS_BOOK, { error: addressBookExpired, block: SEARCH_BLOCK }),
    async ({ ack, view, context: { draft } }) => {
      const query = (view.state.values[SEARCH_BLOCK]?.[SEARCH_BLOCK]?.value ?? '').trim();
      const saved = await deps.store.drafts.save<AddressBookDraft>(draft.id, { query });
      await ack({ response_action: 'update', view: await listView(deps, saved) });
    },
  );
}
