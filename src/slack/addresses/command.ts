/** `/waybill addresses [name, phone or city]`: the address book window, opened on a search. */
import type { BotDeps } from '../deps.js';
import type { SlackClient } from '../shared/delivery.js';
import { openModalSoon, type Respond } from '../shared/modal.js';
import type { AddressBookDraft } from './flow.js';
import { listView } from './flow.js';

export interface AddressBookRequest {
  userId: string;
  channelId: string;
  triggerId: string;
  query: string;
  respond: Respond;
}

/** Opens the list after the command was acknowledged (the /waybill listener routes here). */
export function openAddressBook(deps: BotDeps, client: SlackClient, request: AddressBookRequest): void {
  openModalSoon(deps, client, {
    triggerId: request.triggerId,
    respond: request.respond,
    again: 'type `/waybill addresses`',
    view: async () => {
      const draft = await deps.store.drafts.create<AddressBookDraft>({
        kind: 'addresses',
        userId: request.userId,
        channelId: request.channelId,
        data: { query: request.query },
      });
      return listView(deps, draft);
    },
  });
}
