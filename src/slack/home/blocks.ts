/** Block Kit for the Home tab and the export modal. */
import type { ActionsBlock, Button, HomeView, KnownBlock, ModalView } from '@slack/types';
import type { WaybillEnv } from '../../waybill/settings.js';
import { bookIds } from '../book/index.js';
import { type BookingLine, bookingBlocks, bookingIds, slackDate } from '../booking/index.js';
import { bulkIds } from '../bulk/index.js';
import { findIds } from '../find/index.js';
import { context, environmentNotice, header, plain, section } from '../kit/blocks.js';
import { VALUE_ACTION } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { labelsIds } from '../labels/index.js';
import { quoteIds } from '../quote/index.js';
import { type CodSummary, codFigures, remittanceIds } from '../remittance/index.js';
import { ids } from './ids.js';

/** Bookings listed on the Home tab: two blocks each, so the tab stays far below its 100 blocks. */
export const HOME_BOOKINGS = 15;
export const HOME_DRAFTS = 5;
export const HOME_QUOTES = 5;

export interface HomeDraft {
  id: string;
  /** Who it is for, when typed yet. */
  receiver: string;
  step: string;
  savedAt: Date;
}

export interface HomeQuote {
  route: string;
  weight: string;
  total: string;
  at: Date;
}

export interface HomeInput {
  env: WaybillEnv;
  /** WAYBILL_TIMEZONE: dates' fallback text. */
  timeZone: string;
  /** The person may quote and book; otherwise the tab says so and lists nothing. */
  allowed: boolean;
  /** The person may book from a CSV file. */
  bulkAllowed: boolean;
  /** The person may reconcile COD remittance files. */
  remittanceAllowed?: boolean;
  /** For them: the COD ledger's figures, and the currency to show them in. */
  cod?: { summary: CodSummary; currency: string };
  bookings: readonly BookingLine[];
  /** All of today's bookings, of which `bookings` are the latest. */
  bookingsToday: number;
  drafts: readonly HomeDraft[];
  quotes: readonly HomeQuote[];
  /** What needs attention, the person's first (drawn by the attention feature). */
  attention?: readonly KnownBlock[];
}

function button(actionId: string, text: string, value?: string, style?: Button['style']): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plain(text),
    ...(value === undefined ? {} : { value }),
    ...(style ? { style } : {}),
  };
}

/** The finance section: the COD ledger's figures. */
function financeBlocks(cod: CodSummary, currency: string): KnownBlock[] {
  return [
    { type: 'divider' },
    header('COD'),
    section(codFigures(cod, currency)),
    context('`/waybill cod`: by sender, with the list as a CSV file.'),
  ];
}

const HOME_BUTTONS = [
  [bookingIds.waybillUpdate, 'Update'],
  [bookingIds.statusOpen, 'Record status'],
  [bookingIds.bookRebook, 'Rebook'],
] as const;

function listOrNone(blocks: KnownBlock[], none: string): KnownBlock[] {
  return blocks.length > 0 ? blocks : [context(none)];
}

/** The Home tab of one person: what they can start, the team's bookings today, their drafts and quotes. */
export function homeView(input: HomeInput): HomeView {
  if (!input.allowed) {
    return {
      type: 'home',
      blocks: [
        header('Waybill Dispatch'),
        section(
          'You are not on the list of people who may quote or book with this bot. Ask whoever runs it to add you.',
        ),
      ],
    };
  }
  const start: ActionsBlock = {
    type: 'actions',
    elements: [
      button(quoteIds.quoteFromHome, 'New quote'),
      button(bookIds.bookFromHome, 'New booking', undefined, 'primary'),
      ...(input.bulkAllowed
        ? [button(bulkIds.bulkOpen, 'Import CSV'), button(bulkIds.bulkTemplate, 'CSV template')]
        : []),
      ...(input.remittanceAllowed ? [button(remittanceIds.remittanceOpen, 'COD remittance')] : []),
      button(ids.exportOpen, 'Export'),
      button(labelsIds.labelsManifest, 'Pickup list'),
    ],
  };
  const bookings = input.bookings.slice(0, HOME_BOOKINGS).flatMap((b) => bookingBlocks(b, HOME_BUTTONS));
  const more = input.bookingsToday - Math.min(input.bookings.length, HOME_BOOKINGS);
  const drafts = input.drafts.slice(0, HOME_DRAFTS).map(
    (draft): KnownBlock => ({
      ...section(
        `*${draft.receiver ? escapeMrkdwn(draft.receiver) : 'Booking'}*, at ${escapeMrkdwn(draft.step)} · saved ${slackDate(draft.savedAt, input.timeZone)}`,
      ),
      accessory: button(bookIds.bookingResume, 'Resume', draft.id),
    }),
  );
  const quotes = input.quotes
    .slice(0, HOME_QUOTES)
    .map((quote) =>
      section(
        `${escapeMrkdwn(quote.route)} · ${escapeMrkdwn(quote.weight)} · *${escapeMrkdwn(quote.total)}*  ${slackDate(quote.at, input.timeZone)}`,
      ),
    );
  return {
    type: 'home',
    blocks: [
      header('Waybill Dispatch'),
      ...environmentNotice(input.env),
      ...(input.attention ? [...input.attention, { type: 'divider' } as const] : []),
      start,
      {
        // Enter sends what was typed (dispatch_action): the results come in a DM, as /waybill find's.
        type: 'input',
        block_id: 'find',
        dispatch_action: true,
        label: plain('Find a booking'),
        element: {
          type: 'plain_text_input',
          action_id: findIds.findHome,
          placeholder: plain('name, phone, reference, WB…, status:failed, cod'),
          dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
        },
      },
      ...(input.cod ? financeBlocks(input.cod.summary, input.cod.currency) : []),
      { type: 'divider' },
      header(`Bookings today (${input.bookingsToday})`),
      ...listOrNone(bookings, 'No bookings yet today.'),
      ...(more > 0 ? [context(`…and ${more} more today: *Export* lists them all.`)] : []),
      { type: 'divider' },
      header('Your unfinished bookings'),
      ...listOrNone(drafts, 'None: every booking you started was sent or has expired.'),
      { type: 'divider' },
      header('Your recent quotes'),
      ...listOrNone(quotes, 'No quotes yet.'),
    ],
  };
}

export const exportBlocks = { from: 'from', to: 'to' } as const;

/** The date range of an export, from the Home tab. */
export function exportModal(input: {
  from: string;
  to: string;
  env: WaybillEnv;
  timeZone: string;
}): ModalView {
  const date = (blockId: string, label: string, initial: string): KnownBlock => ({
    type: 'input',
    block_id: blockId,
    label: plain(label),
    element: { type: 'datepicker', action_id: VALUE_ACTION, initial_date: initial },
  });
  return {
    type: 'modal',
    callback_id: ids.exportRange,
    title: plain('Export bookings'),
    submit: plain('Export'),
    close: plain('Cancel'),
    blocks: [
      ...environmentNotice(input.env),
      section('A CSV file of the bookings and updates in these days, sent to you in a direct message.'),
      date(exportBlocks.from, 'From', input.from),
      date(exportBlocks.to, 'To (included)', input.to),
      context(
        `Days in ${escapeMrkdwn(input.timeZone)}. The same as \`/waybill export ${input.from}..${input.to}\`.`,
      ),
    ],
  };
}
