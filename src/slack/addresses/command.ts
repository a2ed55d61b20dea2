/** `/waybill addresses [name, phone or city]`: the address book window, opened on a search. */
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import { openModalSoon } from '../kit/modal.js';
import type { AddressBookDraft } from './draft.js';
import { ADDRESS_BOOK, listView } from './draft.js';

/** Opens the list after the command is acknowledged. */
const addressesCommand: CommandAnswer<
  { query: string },
  Pick<Core, 'inFlight' | 'logger' | 'waybill'> & { store: Pick<Store, 'drafts' | 'parties'> }
> = async (deps, { ack, client, command, respond }, { query }) => {
  await ack();
  openModalSoon(deps, client, {
    triggerId: command.trigger_id,
    respond,
    again: 'type `/waybill addresses`',
    view: async () => {
      const draft = await deps.store.drafts.create<AddressBookDraft>({
        kind: ADDRESS_BOOK,
        userId: command.user_id,
        channelId: command.channel_id,
        data: { query },
      });
      return listView(deps, draft);
    },
  });
};

/** `/waybill addresses`. */
export const addressesVerb = waybillVerb({
  verb: 'addresses',
  usage:
    '`/waybill addresses [name, phone or city]`: the address book of every party booked, to find, edit or delete',
  permission: 'addresses',
  parse: ({ rest }) => ({ query: rest }),
  answer: addressesCommand,
});
