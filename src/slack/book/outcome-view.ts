/** A booking's outcome modals, each drawn here alone: working, booked, failed, unknown, resolved as not booked, expired. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { BookingResult } from '../../waybill/responses.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { bookingIds, resolveActions } from '../booking/index.js';
import { context, plain, retryActions, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import {
  type Outcome,
  type OutcomeWords,
  outcomeOfAttempt,
  outcomeOfFailure,
  outcomeScreen,
  outcomeView,
  type Screen,
} from '../kit/outcome.js';
import { ids } from './ids.js';

/** What a booked attempt shows: the courier's reference, and where the card went (or why not). */
export interface BookingDone {
  trackingRefNo: string;
  postedNote: string;
}

/** The booking's words for each outcome of its courier call (rendered by kit/outcome.ts). */
const bookingOutcomes: OutcomeWords<BookingDone> = {
  callbackId: bookingIds.bookingOutcome,
  working: (_, trackingNumber) => ({
    title: 'Booking…',
    blocks: [
      section(`:hourglass_flowing_sand: *Booking \`${escapeMrkdwn(trackingNumber)}\`…*`),
      context('You can close this window: the booking card will be posted to the channel.'),
    ],
  }),
  done: ({ trackingRefNo, postedNote }, trackingNumber) => ({
    title: 'Booked',
    blocks: [
      section(
        `:white_check_mark: *Booked \`${escapeMrkdwn(trackingNumber)}\`*\nCourier reference: \`${escapeMrkdwn(trackingRefNo)}\``,
      ),
      context(postedNote),
    ],
  }),
  failed: (reason) => ({
    title: 'Booking failed',
    blocks: [
      section(`:warning: *Not booked.*\n${escapeMrkdwn(reason)}`),
      context('Your booking is kept: try again as it is, or change it first.'),
      retryActions(ids.bookingEdit, ids.bookingRetry, 'Change details'),
    ],
  }),
  unknown: (reason, attemptKey, trackingNumber) => ({
    title: 'Outcome unknown',
    blocks: [
      section(
        `:question: *${escapeMrkdwn(reason || `Booking outcome unknown: ${trackingNumber} may or may not have been created.`)}*`,
      ),
      context(
        'The bot will not send this booking again by itself. Check with the courier (or the courier reference on your next list), then *Resolve*: say whether the courier has it.',
      ),
      resolveActions(attemptKey),
    ],
  }),
  inFlight: (trackingNumber) => ({
    title: 'Booking…',
    blocks: [
      section(
        `:hourglass_flowing_sand: \`${escapeMrkdwn(trackingNumber)}\` is already being booked; it is sent once.`,
      ),
    ],
  }),
};

/** The outcome modal of a booking. */
export function bookingOutcomeView(
  outcome: Outcome<BookingDone>,
  trackingNumber: string,
  env: WaybillEnv,
  metadata: string,
): ModalView {
  return outcomeView(bookingOutcomes, outcome, { trackingNumber, env, metadata });
}

export function bookingWorkingView(trackingNumber: string, env: WaybillEnv, metadata: string): ModalView {
  return bookingOutcomeView({ state: 'working', detail: undefined }, trackingNumber, env, metadata);
}

export function bookingDoneView(
  trackingNumber: string,
  result: Pick<BookingResult, 'trackingRefNo'>,
  postedNote: string,
  env: WaybillEnv,
  metadata: string,
): ModalView {
  const detail = { trackingRefNo: result.trackingRefNo, postedNote };
  return bookingOutcomeView({ state: 'done', detail }, trackingNumber, env, metadata);
}

/** Under "Booked" while the database does not answer after the courier booked. */
const recordedLaterNote =
  ":hourglass_flowing_sand: The bot's database is not answering, so this booking is not recorded yet: the bot keeps trying, and posts the booking card once it is. Do not book it again.";

/** Under "Booked" when the database never answered: the dispatcher holds the only record. */
const unrecordedNote =
  'But the bot could not record it: its database did not answer. No booking card was posted and `/waybill` does not know this waybill. Do not book it again; tell whoever runs the bot.';

/** Where a confirmed booking stands, each state drawn here alone. */
export type BookingShown =
  | { state: 'working' }
  /** The attempt already made with this key (a double click, a replay). */
  | { state: 'earlier'; attempt: { key: string; state: string; result?: unknown } }
  /** Booked, while the database keeps it waiting. */
  | { state: 'waiting'; answer: Pick<BookingResult, 'trackingRefNo'> }
  | { state: 'failed' | 'unknown'; message: string; key: string }
  /** Booked, but the database never answered. */
  | { state: 'unrecorded'; answer: Pick<BookingResult, 'trackingRefNo'> }
  | { state: 'done'; answer: Pick<BookingResult, 'trackingRefNo'>; note: string };

/** What the dispatcher is told in a message when the modal was closed. */
export interface BookingTold {
  emoji: string;
  text: string;
  blocks?: KnownBlock[];
}

const isBooked = (result: unknown): result is BookingDone =>
  typeof result === 'object' && result !== null && 'trackingRefNo' in result;

/** A confirmed booking's modal at any state, and for a failure, what to say should the modal be closed. */
export function bookingOutcome(
  shown: BookingShown,
  trackingNumber: string,
  env: WaybillEnv,
  metadata: string,
): { view: ModalView; tell?: BookingTold } {
  const done = (answer: Pick<BookingResult, 'trackingRefNo'>, note: string) =>
    bookingDoneView(trackingNumber, answer, note, env, metadata);
  switch (shown.state) {
    case 'working':
      return { view: bookingWorkingView(trackingNumber, env, metadata) };
    case 'earlier': {
      const outcome = outcomeOfAttempt<BookingDone, undefined>(shown.attempt, isBooked);
      return { view: bookingOutcomeView(outcome, trackingNumber, env, metadata) };
    }
    case 'waiting':
      return { view: done(shown.answer, recordedLaterNote) };
    case 'failed':
    case 'unknown': {
      const view = bookingOutcomeView(outcomeOfFailure(shown, shown.key), trackingNumber, env, metadata);
      const blocks = shown.state === 'unknown' ? { blocks: [resolveActions(shown.key)] } : {};
      return { view, tell: { emoji: ':warning:', text: escapeMrkdwn(shown.message), ...blocks } };
    }
    case 'unrecorded': {
      const booked = `Booked \`${escapeMrkdwn(trackingNumber)}\`, courier reference \`${escapeMrkdwn(shown.answer.trackingRefNo)}\`.`;
      const view = done(shown.answer, `:warning: ${unrecordedNote}`);
      return { view, tell: { emoji: ':warning:', text: `${booked} ${unrecordedNote}` } };
    }
    case 'done':
      return { view: done(shown.answer, shown.note) };
  }
}

/** Resolved as not booked: the usual confirmation sends it again. */
export function resolvedNotBookedView(trackingNumber: string, env: WaybillEnv, metadata: string): ModalView {
  const screen: Screen = {
    title: 'Not booked',
    blocks: [
      section(
        `:heavy_multiplication_x: *Recorded: the courier does not have \`${escapeMrkdwn(trackingNumber)}\`.*`,
      ),
      context('Nothing is booked. Your booking is kept: send it again, or change it first.'),
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: ids.bookingRetry, text: plain('Send again'), style: 'primary' },
          { type: 'button', action_id: ids.bookingEdit, text: plain('Change details') },
        ],
      },
    ],
  };
  return outcomeScreen(bookingOutcomes, screen, { env, metadata });
}

export function bookingExpiredView(env: WaybillEnv): ModalView {
  const screen: Screen = {
    title: 'Booking expired',
    blocks: [section('This booking form has expired and nothing was sent. Type `/book` to start again.')],
  };
  return outcomeScreen(bookingOutcomes, screen, { env, metadata: '' });
}
