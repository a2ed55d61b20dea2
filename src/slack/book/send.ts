/** Sending a booking from its modal: the attempt begun, the booking operation run, its outcome shown and the card posted. */
import type { KnownBlock, ModalView } from '@slack/types';
import {
  type BegunBooking,
  type BookingAttemptResult,
  beginBooking,
  bookOnce,
  CARD_NOT_POSTED,
  type PostCard,
  trackingNumberFor,
} from '../../operations/book.js';
import type { Draft, ReceiverCheck } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
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
 * The booking card's port (operations/book.ts): the card in the booking's conversation (or where
 * Slack lets it go: the command's response URL, shown only to the booker, a DM), a copy in the
 * audit channel; `note` says where it went, for the booking's outcome.
 */
export function cardPoster(
  deps: Pick<BookDeps, 'logger' | 'bot' | 'waybill'>,
  client: SlackClient,
  destination: { channelId: string; userId: string; responseUrl?: string },
  note: (delivered: Delivered) => string | undefined = deliveredNote,
): PostCard {
  return async (booked) => {
    const { env, catalog, currency, timeZone } = deps.waybill;
    const { trackingNumber } = booked.booking;
    const card = bookingCard({
      ...booked,
      ...(booked.bookedVia ? { via: booked.bookedVia } : {}),
      catalog,
      currency,
      env,
      timeZone,
    });
    const delivered = await postToChannel(client, destination, card, deps.logger).catch((err: unknown) => {
      deps.logger.error({ err, trackingNumber }, 'booking card could not be posted');
      return undefined;
    });
    const audit = deps.bot.auditChannelId;
    const copy =
      audit && audit !== delivered?.channelId
        ? await client.chat.postMessage({ channel: audit, ...card }).catch((err: unknown) => {
            deps.logger.error(
              { err, trackingNumber, channel: audit },
              'booking card could not be posted to the audit channel',
            );
            return undefined;
          })
        : undefined;
    return {
      ...(delivered && 'ts' in delivered ? { channelId: delivered.channelId, ts: delivered.ts } : {}),
      ...(copy?.ts ? { auditTs: copy.ts } : {}),
      note: (delivered && note(delivered)) ?? CARD_NOT_POSTED,
    };
  };
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
  const { trackingNumber } = booking;
  const number = await trackingNumberFor(deps, draft.id, {
    typed: trackingNumber,
    held: draft.data.generatedTrackingNumber,
  });
  if (typeof number !== 'string') {
    const taken = `Tracking number: \`${escapeMrkdwn(trackingNumber)}\` is already used by another booking, so nothing was sent. Type another one, or leave it empty for the next free one.`;
    return { started: false, view: await showStep(deps, draft, 'shipment', [taken]) };
  }
  const who = { userId: draft.userId, channelId: draft.channelId, viewId };
  const order = { holder: draft.id, booking, who, again: input.again, confirmed: { check: input.check } };
  const begin = await beginBooking(deps, order);
  if (!begin.started) {
    return { started: false, view: viewOfAttempt(deps, draft, trackingNumber, begin.attempt) };
  }
  return {
    started: true,
    view: bookingWorkingView(trackingNumber, deps.waybill.env, bookingMetadata(draft)),
    work: () => runBooking(deps, client, { viewId, draft, begun: begin.begun }),
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
 * attempt's outcome and the audit entry recorded with the draft marked booked, in one transaction;
 * then its card posted); then the outcome shown (as a message if the modal was closed).
 */
async function runBooking(
  deps: Sending,
  client: SlackClient,
  { viewId, draft, begun }: { viewId: string; draft: Draft<BookingDraft>; begun: BegunBooking },
): Promise<void> {
  const { env } = deps.waybill;
  const { trackingNumber } = begun.booking;
  const { key } = begun.attempt;
  const metadata = bookingMetadata(draft);
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const sent = await bookOnce(deps, begun, {
    postedNote: 'The booking card is being posted.',
    alsoRecord: (tx) =>
      tx.drafts.save<BookingDraft>(draft.id, { ...draft.data, bookedTrackingNumber: trackingNumber }),
    waiting: (result) =>
      showInModal(client, viewId, bookingDoneView(trackingNumber, result, recordedLaterNote, env, metadata)),
    card: cardPoster(deps, client, destination),
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
  if (sent.state === 'unrecorded') {
    const booked = `Booked \`${escapeMrkdwn(trackingNumber)}\`, courier reference \`${escapeMrkdwn(result.trackingRefNo)}\`.`;
    const view = bookingDoneView(trackingNumber, result, `:warning: ${unrecordedNote}`, env, metadata);
    await showOrTell(client, draft, viewId, view, {
      emoji: ':warning:',
      text: `${booked} ${unrecordedNote}`,
    });
    return;
  }
  const postedNote = sent.card?.note ?? CARD_NOT_POSTED;
  await showInModal(client, viewId, bookingDoneView(trackingNumber, result, postedNote, env, metadata));
}
