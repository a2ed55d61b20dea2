/** A saved party chosen in a booking step's type-ahead: that party's fields filled in. */
import type { App, BlockAction, ExternalSelectAction } from '@slack/bolt';
import { fillParty, partyGoneNotice, partyOfPicker, partyOptionsAnswer } from '../addresses/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { ackNow, type InModal, inModal } from '../kit/listener.js';
import type { BookingDraft } from './form.js';
import { allBookingFields } from './form.js';
import { ids } from './ids.js';
import { changeBooking } from './modal-action.js';

/** Fills the receiver, the sender or the return party on screen from the address book; all stays editable. */
export function register(app: App, deps: Core): void {
  // The menu's options: the address book answers them.
  app.options<'block_suggestion'>(
    { type: 'block_suggestion', action_id: ids.bookingParty },
    requires(deps, 'book'),
    partyOptionsAnswer(deps),
  );
  const paths = new Set(allBookingFields(deps.waybill.catalog, 0).map((field) => field.path));
  app.action<BlockAction<ExternalSelectAction>, DraftContext<BookingDraft> & InModal>(
    ids.bookingParty,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking'),
    ackNow,
    inModal,
    changeBooking(deps, async (draft, action) => {
      const party = partyOfPicker(action.block_id);
      const chosen = action.selected_option?.value;
      const saved = party && chosen ? await deps.store.parties.get(chosen) : undefined;
      if (party && chosen && !saved) {
        const notices = [partyGoneNotice(action.selected_option?.text.text ?? '')];
        return { data: draft.data, step: draft.data.step, notices };
      }
      if (!party || !saved) return undefined;
      return {
        data: { ...draft.data, input: fillParty(draft.data.input, party, saved, paths) },
        step: draft.data.step,
      };
    }),
  );
}
