/** Sending a booking from its modal: the attempt begun, the booking operation run, its outcome shown and the card posted. */
import type { KnownBlock, ModalView } from '@slack/types';
import { beginAttempt, bookingAttempt, type CourierAttempt } from '../../operations/attempts.js';
import { type BookingAttemptResult, sendBooking } from '../../operations/book.js';
import type { Draft, ReceiverCheck } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import { toBookingWire } from '../../waybill/wire.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import { bookingCard, resolveActions } from '../booking/index.js';
import { notice } from '../kit/blocks.js';
import { type SendStep, showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { outcomeOfAttempt, outcomeOfFailure } from '../kit/outcome.js';
import {
  type Delivered,
  deliveredNote,
  postToChannel,
  postToUser,
  type SlackClient,
} from '../runtime/delivery.js';
import { type BookDeps, bookingMetadata } from './draft.js';
import type { BookingDraft } from './form.js';
import { type BookingDone, bookingDoneView, bookingOutcomeView, bookingWorkingView } from './outcome-view.js';
import { showStep } from './steps.js';

/** What sending a booking uses: the booking operation's, what showing a step reads, and the card's channel. */
type Sending = Omit<BookDeps, 'inFlight' | 'access'>;

const isBooked = (result: unknown): result is BookingDone =>
  typeof result === 'object' && result !== null && 'trackingRefNo' in result;

/** What the modal shows for an attempt already made with this key (a double click, a replay). */
export function viewOfAttempt(
  deps: Pick<BookDeps, 'waybill'>,
  draft: Draft<BookingDraft>,
  trackingNumber: string,
  attempt: { key: string; state: string; result?: BookingAttemptResult },
) {
  const outcome = outcomeOfAttempt<BookingDone, undefined>(attempt, isBooked);
  return bookingOutcomeView(outcome, trackingNumber, deps.waybill.env, bookingMetadata(draft));
}

/**
 * Where a card went is worth keeping but not worth failing a booking for: without it, an update is
 * told in the channel instead of in the card's thread.
 */
function cardPlaceLost(deps: Pick<BookDeps, 'logger'>, trackingNumber: string) {
  return (err: unknown) =>
    deps.logger.warn({ err, trackingNumber }, 'where the booking card went could not be recorded');
}

export async function postCard(
  deps: Pick<BookDeps, 'store' | 'logger' | 'bot'>,
  client: SlackClient,
  draft: Draft<BookingDraft>,
  card: ReturnType<typeof bookingCard>,
): Promise<Delivered | undefined> {
  const trackingNumber = draft.data.bookedTrackingNumber ?? '';
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const delivered = await postToChannel(client, destination, card, deps.logger).catch((err: unknown) => {
    deps.logger.error({ err, trackingNumber }, 'booking card could not be posted');
    return undefined;
  });
  const notRecorded = cardPlaceLost(deps, trackingNumber);
  if (delivered && 'ts' in delivered) {
    await deps.store.bookings
      .setCard(trackingNumber, { cardChannelId: delivered.channelId, cardTs: delivered.ts })
      .catch(notRecorded);
  }
  const audit = deps.bot.auditChannelId;
  if (audit && audit !== delivered?.channelId) {
    const posted = await client.chat.postMessage({ channel: audit, ...card }).catch((err: unknown) => {
      deps.logger.error(
        { err, trackingNumber, channel: audit },
        'booking card could not be posted to the audit channel',
      );
      return undefined;
    });
    if (posted?.ts)
      await deps.store.bookings.setCard(trackingNumber, { auditCardTs: posted.ts }).catch(notRecorded);
  }
  return delivered;
}

/** Why a typed tracking number cannot be sent, naming the field; undefined when this draft holds it. */
async function trackingNumberTaken(
  deps: Pick<BookDeps, 'store'>,
  draft: Draft<BookingDraft>,
  booking: Booking,
) {
  const { trackingNumber } = booking;
  // A generated number was reserved for this draft when it was handed out.
  if (trackingNumber === draft.data.generatedTrackingNumber) return undefined;
  if (await deps.store.trackingNumbers.reserve(trackingNumber, draft.id)) return undefined;
  return `Tracking number: \`${escapeMrkdwn(trackingNumber)}\` is already used by another booking, so nothing was sent. Type another one, or leave it empty for the next free one.`;
}

/**
 * Records the booking as an attempt and, if it may go, answers "Booking…" with the courier call to
 * run; otherwise the outcome of the attempt already made. A typed tracking number is first
 * reserved for this draft, so two drafts with one number never both reach the courier. An edited
 * booking is a new attempt, but never while an earlier one of the same draft and tracking number
 * is under way, done or of unknown outcome (the courier may have it already).
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
  const taken = await trackingNumberTaken(deps, draft, booking);
  if (taken) return { started: false, view: await showStep(deps, draft, 'shipment', [taken]) };
  const request = toBookingWire(booking, deps.waybill.timeZone);
  const attempt = bookingAttempt(draft.id, request);
  const who = { userId: draft.userId, channelId: draft.channelId, viewId };
  const begun = await beginAttempt<BookingAttemptResult>(deps.store, attempt, who, { again: input.again });
  if (!begun.started) {
    return { started: false, view: viewOfAttempt(deps, draft, booking.trackingNumber, begun.attempt) };
  }
  return {
    started: true,
    view: bookingWorkingView(booking.trackingNumber, deps.waybill.env, bookingMetadata(draft)),
    work: () => runBooking(deps, client, { viewId, draft, booking, attempt, request, check: input.check }),
  };
}

/** Under "Booked" while the database does not answer after the courier booked. */
const recordedLaterNote =
  ":hourglass_flowing_sand: The bot's database is not answering, so this booking is not recorded yet: the bot keeps trying, and posts the booking card once it is. Do not book it again.";

/** Under "Booked" when the database never answered: the dispatcher holds the only record. */
const unrecordedNote =
  'But the bot could not record it: its database did not answer. No booking card was posted and `/waybill` does not know this waybill. Do not book it again; tell whoever runs the bot.';

/** Shown in the modal, or as a message to the dispatcher when the modal was closed. */
async function showOrTell(
  client: SlackClient,
  draft: Draft<BookingDraft>,
  viewId: string,
  view: ModalView,
  message: { emoji: string; text: string; blocks?: KnownBlock[] },
): Promise<void> {
  if (!(await showInModal(client, viewId, view))) {
    const told = notice(message.emoji, message.text);
    await postToUser(client, draft, { ...told, blocks: [...told.blocks, ...(message.blocks ?? [])] });
  }
}

/**
 * After "Booking…" is on screen: the booking operation (sent once; the booking, its parties, the
 * attempt's outcome and the audit entry recorded with the draft marked booked, in one transaction);
 * then the card is posted and the outcome shown (as a message if the modal was closed).
 */
async function runBooking(
  deps: Sending,
  client: SlackClient,
  input: {
    viewId: string;
    draft: Draft<BookingDraft>;
    booking: Booking;
    attempt: CourierAttempt;
    request: BookingRequestWire;
    check: ReceiverCheck | undefined;
  },
): Promise<void> {
  const { viewId, draft, booking, attempt } = input;
  const { env, catalog, currency, timeZone } = deps.waybill;
  const { trackingNumber } = booking;
  const { key } = attempt;
  const metadata = bookingMetadata(draft);
  const sent = await sendBooking(deps, {
    attempt,
    request: input.request,
    booking,
    userId: draft.userId,
    channelId: draft.channelId,
    postedNote: 'The booking card is being posted.',
    ...(input.check ? { receiver: input.check } : {}),
    alsoRecord: (tx) =>
      tx.drafts.save<BookingDraft>(draft.id, { ...draft.data, bookedTrackingNumber: trackingNumber }),
    waiting: (result) =>
      showInModal(client, viewId, bookingDoneView(trackingNumber, result, recordedLaterNote, env, metadata)),
  });
  if (sent.state === 'failed' || sent.state === 'unknown') {
    const view = bookingOutcomeView(outcomeOfFailure(sent, key), trackingNumber, env, metadata);
    await showOrTell(client, draft, viewId, view, {
      emoji: ':warning:',
      text: escapeMrkdwn(sent.message),
      ...(sent.state === 'unknown' ? { blocks: [resolveActions(key)] } : {}),
    });
    return;
  }
  const { answer: result } = sent;
  if (sent.state === 'unrecorded' || !sent.recorded) {
    const booked = `Booked \`${escapeMrkdwn(trackingNumber)}\`, courier reference \`${escapeMrkdwn(result.trackingRefNo)}\`.`;
    const view = bookingDoneView(trackingNumber, result, `:warning: ${unrecordedNote}`, env, metadata);
    await showOrTell(client, draft, viewId, view, {
      emoji: ':warning:',
      text: `${booked} ${unrecordedNote}`,
    });
    return;
  }
  const card = bookingCard({
    booking,
    trackingRefNo: result.trackingRefNo,
    bookedBy: draft.userId,
    bookedAt: sent.at,
    catalog,
    currency,
    env,
    timeZone,
    ...(input.check ? { receiver: input.check } : {}),
  });
  const delivered = await postCard(deps, client, sent.recorded, card);
  const postedNote = delivered
    ? deliveredNote(delivered)
    : 'Slack did not accept the booking card; the booking is stored.';
  await deps.store.attempts
    .finish<BookingAttemptResult>(key, 'succeeded', { trackingRefNo: result.trackingRefNo, postedNote })
    .catch(cardPlaceLost(deps, trackingNumber));
  await showInModal(client, viewId, bookingDoneView(trackingNumber, result, postedNote, env, metadata));
}
