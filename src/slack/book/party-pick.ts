/** A saved party chosen in a booking step's type-ahead: that party's fields filled in. */
import type { App, ExternalSelectAction } from '@slack/bolt';
import { fillParty, partyOfPicker } from '../addresses/index.js';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { allBookingFields } from './form.js';
import { onBookingModalAction } from './modal-action.js';

/** Fills the receiver, the sender or the return party on screen from the address book; all stays editable. */
export function register(app: App, deps: BotDeps): void {
  const paths = new Set(allBookingFields(deps.waybill.catalog, 0).map((field) => field.path));
  onBookingModalAction<ExternalSelectAction>(app, deps, ids.bookingParty, async (draft, action) => {
    const party = partyOfPicker(action.block_id);
    const chosen = action.selected_option?.value;
    const saved = party && chosen ? await deps.store.parties.get(chosen) : undefined;
    if (!party || !saved) return undefined;
    return {
      data: { ...draft.data, input: fillParty(draft.data.input, party, saved, paths) },
      step: draft.data.step,
    };
  });
}
