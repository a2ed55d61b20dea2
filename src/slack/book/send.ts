/**
 * Sending a confirmed booking from its modal: the booking operation begun (or answered with the
 * attempt made before), then, after "Booking…" is on screen, sent; each state drawn once (outcome-view.ts).
 */
import type { ModalView } from '@slack/types';
import { type BegunBooking, beginBooking, bookOnce, CARD_NOT_POSTED } from '../../operations/book.js';
import type { Draft, ReceiverCheck } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import { notice } from '../kit/blocks.js';
import { type SendStep, showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { postToUser, type SlackClient } from '../runtime/delivery.js';
import { cardPoster } from './card.js';
import { type BookDeps, bookingMetadata } from './draft.js';
import type { BookingDraft } from './form.js';
import { type BookingTold, bookingOutcome } from './outcome-view.js';
import { showStep } from './steps.js';

/** What sending a booking uses: the booking operation's, what showing a step reads, and the card's channel. */
type Sending = Omit<BookDeps, 'inFlight' | 'access'>;

/**
 * The booking operation begun (beginBooking): a typed tracking number reserved for this draft, the
 * attempt recorded; then "Booking…" with the courier call to run, or the outcome of the attempt
 * already made (the courier may have it already), or the shipment step when the number is taken.
 */
export async function startBooking(
  deps: Sending,
  client: SlackClient,
  input: {
    viewId: string;
    draft: Draft<BookingDraft>;
    booking: Booking;
    again?: 'failed';
    /** The receiver's record it was checked against (receiver-record.ts). */
    check?: ReceiverCheck;
  },
): Promise<SendStep> {
  const { viewId, draft, booking } = input;
  const { trackingNumber } = booking;
  const begin = await beginBooking(deps, {
    holder: draft.id,
    booking,
    who: { userId: draft.userId, channelId: draft.channelId, viewId },
    again: input.again,
    confirmed: { check: input.check },
    number: { held: draft.data.generatedTrackingNumber },
  });
  if (begin.state === 'number taken') {
    const taken = `Tracking number: \`${escapeMrkdwn(trackingNumber)}\` is already used by another booking, so nothing was sent. Type another one, or leave it empty for the next free one.`;
    return { started: false, view: await showStep(deps, draft, 'shipment', [taken]) };
  }
  const metadata = bookingMetadata(draft);
  if (begin.state === 'answered') {
    const shown = bookingOutcome(
      { state: 'earlier', attempt: begin.attempt },
      trackingNumber,
      deps.waybill.env,
      metadata,
    );
    return { started: false, view: shown.view };
  }
  return {
    started: true,
    view: bookingOutcome({ state: 'working' }, trackingNumber, deps.waybill.env, metadata).view,
    work: () => runBooking(deps, client, { viewId, draft, metadata, begun: begin.begun }),
  };
}

/** Shown in the modal, or told as a message to the dispatcher when the modal was closed. */
async function showOrTell(
  client: SlackClient,
  draft: Draft<BookingDraft>,
  viewId: string,
  { view, tell }: { view: ModalView; tell?: BookingTold },
): Promise<void> {
  if ((await showInModal(client, viewId, view)) || !tell) return;
  const told = notice(tell.emoji, tell.text);
  await postToUser(client, draft, { ...told, blocks: [...told.blocks, ...(tell.blocks ?? [])] });
}

/**
 * After "Booking…" is on screen: the booking operation (sent once; the booking, its parties, the
 * attempt's outcome and the audit entry recorded with the draft marked booked, in one transaction;
 * then its card posted); then the outcome shown (as a message if the modal was closed).
 */
async function runBooking(
  deps: Sending,
  client: SlackClient,
  input: { viewId: string; draft: Draft<BookingDraft>; metadata: string; begun: BegunBooking },
): Promise<void> {
  const { viewId, draft, begun } = input;
  const { trackingNumber } = begun.booking;
  const outcome = (shown: Parameters<typeof bookingOutcome>[0]) =>
    bookingOutcome(shown, trackingNumber, deps.waybill.env, input.metadata);
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const sent = await bookOnce(deps, begun, {
    postedNote: 'The booking card is being posted.',
    alsoRecord: (tx) =>
      tx.drafts.save<BookingDraft>(draft.id, { ...draft.data, bookedTrackingNumber: trackingNumber }),
    waiting: (answer) => showInModal(client, viewId, outcome({ state: 'waiting', answer }).view),
    card: cardPoster(deps, client, destination),
  });
  const { key } = begun.attempt;
  const shown =
    sent.state === 'failed' || sent.state === 'unknown'
      ? outcome({ state: sent.state, message: sent.message, key })
      : sent.state === 'unrecorded'
        ? outcome({ state: 'unrecorded', answer: sent.answer })
        : outcome({ state: 'done', answer: sent.answer, note: sent.card?.note ?? CARD_NOT_POSTED });
  await showOrTell(client, draft, viewId, shown);
}
