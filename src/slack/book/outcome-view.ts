/** A booking's outcome modals: working, booked, failed, unknown, resolved as not booked, expired. */
import type { ModalView } from '@slack/types';
import type { WaybillEnv } from '../../config.js';
import type { BookingResult } from '../../waybill/responses.js';
import { bookingIds, resolveActions } from '../booking/index.js';
import { context, plain, retryActions, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { type Outcome, type OutcomeWords, outcomeScreen, outcomeView, type Screen } from '../kit/outcome.js';
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
