/** The address book window: its draft (the search and the conversation it was opened in) and its list. */
import type { ModalView } from '@slack/types';
import type { Draft } from '../../store/index.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import type { BotDeps } from '../deps.js';
import { draftOfView, viewMetadata } from '../shared/ids.js';
import { addressBookView, MAX_LISTED } from './blocks.js';

/** What the window searched for; the draft also keeps who opened it where, for access control. */
export interface AddressBookDraft {
  query: string;
}

export function addressBookDraftOfView(deps: BotDeps, privateMetadata: string | undefined) {
  return draftOfView<AddressBookDraft>(deps.store.drafts, privateMetadata, 'addresses');
}

/** The list for the draft's search, with `notice` (what was just done) at the top. */
export async function listView(
  deps: BotDeps,
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
