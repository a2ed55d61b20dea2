/** A booking card's Record status: the modal, and its submission. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { checkStatus } from '../../operations/status.js';
import { bookingIds, storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { askerOf, refusalOnBooking, unseenText } from '../guards/booking-access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { readFormState, type StateValues } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { recordedView, statusBlocks, statusModal } from './blocks.js';
import { ids } from './ids.js';
import { recordAndTell } from './send.js';

/** The modal's draft: which booking, and the conversation it was opened from (the access guard checks it). */
const DRAFT_KIND = 'status';
type StatusDraft = { trackingNumber: string };

/** What a status modal holds (either one): its inputs as read, and the status, reason and note checked. */
export function statusChoiceOf(values: StateValues) {
  const form = readFormState(values);
  const text = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : undefined);
  const checked = checkStatus({
    status: text(statusBlocks.status),
    reason: text(statusBlocks.reason),
    note: text(statusBlocks.note),
  });
  return { form, checked };
}

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    bookingIds.statusOpen,
    requires(deps, 'update'),
    ackNow,
    openingModal(deps, 'click *Record status*'),
    async ({ action: { value: trackingNumber = '' }, body, client, context }) => {
      const known = await storedBooking(deps, trackingNumber);
      if (!known) return context.openModal(unseenText(trackingNumber, 'update'));
      const refused = await refusalOnBooking(deps, askerOf(client, body), 'update', known.record);
      if (refused) return context.openModal(refused);
      const draft = await deps.store.drafts.create<StatusDraft>({
        kind: DRAFT_KIND,
        userId: body.user.id,
        // From the Home tab (no conversation): the booking's own channel, the one access is checked for.
        channelId: body.channel?.id ?? known.record.channelId,
        data: { trackingNumber },
      });
      const current = await deps.store.statuses.latest(trackingNumber);
      return context.openModal(() =>
        statusModal({
          trackingNumber,
          metadata: viewMetadata({ draftId: draft.id }),
          timeZone: deps.waybill.timeZone,
          ...(current ? { current } : {}),
        }),
      );
    },
  );

  app.view<ViewSubmitAction, DraftContext<StatusDraft>>(
    ids.statusForm,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, DRAFT_KIND, {
      error: 'This window has expired. Close it and click Record status again.',
      block: statusBlocks.status,
    }),
    async ({ ack, view, body, client, context: { draft } }) => {
      const { checked } = statusChoiceOf(view.state.values as StateValues);
      if (!checked.ok) {
        await ack({ response_action: 'errors', errors: checked.errors });
        return;
      }
      const answer = await recordAndTell(deps, client, {
        userId: body.user.id,
        trackingNumber: draft.data.trackingNumber,
        choice: checked.value,
      });
      await ack({ response_action: 'update', view: recordedView(answer) });
    },
  );
}
