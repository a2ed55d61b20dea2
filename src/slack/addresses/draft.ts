/** The address book window: its draft (the search and the conversation it was opened in) and its list. */

import type { ModalView } from '@slack/types';
import type { Draft, Store } from '../../store/index.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import type { Core } from '../core.js';
import { viewMetadata } from '../kit/ids.js';
import { addressBookView, MAX_LISTED } from './blocks.js';

/** What the window searched for; the draft also keeps who opened it where, for access control. */
export interface AddressBookDraft {
  query: string;
}

/** The address book window's kind of draft. */
export const ADDRESS_BOOK = 'addresses';

/** Said under a form of the window when its draft is gone. */
export const addressBookExpired = 'This window has expired. Close it and type /waybill addresses again.';

/** The list for the draft's search, with `notice` (what was just done) at the top. */
export async function listView(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'parties'> },
  draft: Draft<AddressBookDraft>,
  notice?: string,
): Promise<ModalView> {
  const parties = await deps.store.parties.find(draft.data.query, MAX_LISTED + 1);
  return addressBookView({
    query: draft.data.query,
    parties,
    metadata: viewMetadata({ draftId: draft.id }),
    at: (date) => zonedDateAndTime(date, deps.waybill.timeZone).date,
    notice,
  });
}
