/** The booking card: posted when a waybill is booked, edited when it is updated, assigned or a status is recorded, shown by /waybill show; Update, Record status, Rebook, Print labels, Take it and Assign on it. */
import type { KnownBlock } from '@slack/types';
import type { BookedVia, ReceiverCheck, StatusEntry } from '../../store/index.js';
import type { Catalog } from '../../waybill/catalog.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { centsOf, remittedTotal, signedMoney } from '../../waybill/remittance.js';
import type { Booking } from '../../waybill/schemas.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { statusLabel } from '../../waybill/statuses.js';
import {
  context,
  environmentNotice,
  environmentTag,
  facts,
  formatMoney,
  placeLine,
  plain,
  section,
} from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';
import { receiverCardBlocks } from './receiver-line.js';

export interface CardInput {
  booking: Booking;
  trackingRefNo: string;
  bookedBy: string;
  bookedAt: Date;
  /** Who answers for it now; whoever booked it when not given. */
  owner?: string;
  catalog: Catalog;
  currency: string;
  env: WaybillEnv;
  /** WAYBILL_TIMEZONE: dates' fallback text. */
  timeZone: string;
  /** Who changed it last, for the card after an update. */
  updatedBy?: string;
  /** What remittance files paid of its COD, oldest first. */
  remittances?: readonly CardRemittance[];
  /** What the courier is to remit of its COD (`expectedCod`): the fee it keeps, and the net. */
  expected?: { fee: string; net: string };
  /** The parcel's latest status, as a dispatcher recorded it. */
  status?: StatusEntry;
  /** Where the booking came from when no person typed it (a workflow step). */
  via?: BookedVia;
  /** The receiver's record it was checked against when booked. */
  receiver?: ReceiverCheck;
  /** Who alone sees this card (`/waybill show`): its owner is not offered Take it. */
  viewer?: string;
}

/** One remittance of a booking's COD, as its card shows it. */
export interface CardRemittance {
  amount: string;
  fileName: string;
  /** The day the file says it was paid, else the day it was recorded. */
  date: string;
}

/** Lines of remittances a card shows: the latest, so a long history stays within a block. */
const CARD_REMITTANCES = 5;

/** "COD remitted PHP 1,500.00 · file · date" per remittance, and what is still short or over. */
function remittanceLines(input: CardInput): string {
  const remittances = input.remittances ?? [];
  const shown = remittances
    .slice(-CARD_REMITTANCES)
    .map(
      (r) =>
        `:moneybag: COD remitted ${formatMoney(r.amount, input.currency)} \u00b7 ${escapeMrkdwn(r.fileName)} \u00b7 ${escapeMrkdwn(r.date)}`,
    );
  const earlier = remittances.length - shown.length;
  const total = remittedTotal(remittances);
  // Judged against the net, as the remittance card judges each line.
  const net = input.expected?.net ?? input.booking.codAmount;
  const fee = input.expected && input.expected.fee !== '0.00' ? input.expected.fee : undefined;
  const difference = signedMoney(centsOf(total) - centsOf(net));
  const of = fee
    ? `net ${formatMoney(net, input.currency)} (COD ${formatMoney(input.booking.codAmount, input.currency)} \u2212 fee ${formatMoney(fee, input.currency)})`
    : formatMoney(net, input.currency);
  const balance = `Remitted ${formatMoney(total, input.currency)} of ${of}, difference ${formatMoney(difference, input.currency)}`;
  return [...(earlier > 0 ? [`${earlier} earlier remittances`] : []), ...shown, balance].join('\n');
}

const OWNER_BLOCK_PREFIX = 'booking:';

/** The block of a card's buttons, naming its booking for the people picker (Assign) in it. */
export function ownerBlockId(trackingNumber: string): string {
  return `${OWNER_BLOCK_PREFIX}${trackingNumber}`;
}

/** The booking a card's button block names; undefined for any other block. */
export function bookingOfBlock(blockId: string | undefined): string | undefined {
  return blockId?.startsWith(OWNER_BLOCK_PREFIX) ? blockId.slice(OWNER_BLOCK_PREFIX.length) : undefined;
}

/** A date Slack shows in each reader's own time zone; the fallback (where Slack cannot) in the team's. */
export function slackDate(instant: Date, timeZone: string): string {
  const seconds = Math.floor(instant.getTime() / 1000);
  const { date, time } = zonedDateAndTime(instant, timeZone);
  return `<!date^${seconds}^{date_short_pretty} {time}|${date} ${time} (${timeZone})>`;
}

/** "Delivered · 23 Nov 14:05 · recorded by @ana": what someone said happened, never tracking. */
export function statusLine(status: StatusEntry, timeZone: string): string {
  const note = status.note ? `\n>${escapeMrkdwn(status.note).replace(/\n/g, ' ')}` : '';
  return `*${escapeMrkdwn(statusLabel(status.status, status.reason))}* · ${slackDate(status.at, timeZone)} · recorded by <@${status.userId}>${note}`;
}

/** The booking card: the channel's audit trail of one waybill. */
export function bookingCard(input: CardInput): { text: string; blocks: KnownBlock[] } {
  const { booking, catalog, currency, env } = input;
  const pkg = booking.package;
  const isCod = booking.paymentMethod === catalog.codPaymentMethod;
  const tn = escapeMrkdwn(booking.trackingNumber);
  const receiver = booking.consignee;
  const owner = input.owner ?? input.bookedBy;
  return {
    text: `Booked ${tn}${environmentTag(env)} for ${escapeMrkdwn(receiver.name)}`,
    blocks: [
      section(
        `:package: *Booked \`${tn}\`*${environmentTag(env)} by <@${input.bookedBy}> on ${slackDate(input.bookedAt, input.timeZone)}` +
          (input.updatedBy ? `\n_Last updated by <@${input.updatedBy}>_` : '') +
          `\n:bust_in_silhouette: Owner <@${owner}>`,
      ),
      ...environmentNotice(env),
      ...(input.via === 'workflow' ? [context(':zap: Booked by a workflow (Workflow Builder step)')] : []),
      ...(input.status ? [context(statusLine(input.status, input.timeZone))] : []),
      ...receiverCardBlocks(input.receiver),
      ...facts([
        ['Tracking number', booking.trackingNumber],
        // Empty for a booking resolved by hand without the courier's reference.
        ['Courier reference', input.trackingRefNo || 'Not given'],
        ['Receiver', `${receiver.name}, ${placeLine(receiver)}, ${receiver.phone}`],
        ['COD amount', isCod ? formatMoney(booking.codAmount, currency) : 'None'],
        [
          'Package',
          `${catalog.packageTypes.find((t) => t.value === pkg.type)?.label ?? pkg.type}, ${pkg.weight} kg, ${booking.quantity} parcel${booking.quantity === 1 ? '' : 's'}`,
        ],
      ]),
      section(
        `*Pickup*  ${slackDate(booking.pickupAt, input.timeZone)}\n*Expected delivery*  ${slackDate(booking.expectedDeliveryAt, input.timeZone)}`,
      ),
      ...(booking.childWaybills.length > 0
        ? [
            context(
              booking.childWaybills
                .map(
                  (c) =>
                    `\`${escapeMrkdwn(c.trackingNumber)}\` ${c.weight} ${escapeMrkdwn(c.uom)} × ${c.quantity}`,
                )
                .join('  ·  '),
            ),
          ]
        : []),
      ...(isCod && input.remittances?.length ? [context(remittanceLines(input))] : []),
      {
        type: 'actions',
        // The people picker carries no value: the block names the booking it assigns.
        block_id: ownerBlockId(booking.trackingNumber),
        elements: [
          {
            type: 'button',
            action_id: ids.waybillUpdate,
            text: plain('Update'),
            value: booking.trackingNumber,
          },
          {
            type: 'button',
            action_id: ids.statusOpen,
            text: plain('Record status'),
            value: booking.trackingNumber,
          },
          {
            type: 'button',
            action_id: ids.bookRebook,
            text: plain('Rebook'),
            value: booking.trackingNumber,
          },
          {
            type: 'button',
            action_id: ids.labelsPrint,
            text: plain('Print labels'),
            value: booking.trackingNumber,
          },
          ...(input.viewer !== undefined && input.viewer === owner
            ? []
            : [
                {
                  type: 'button' as const,
                  action_id: ids.ownerTake,
                  text: plain('Take it'),
                  value: booking.trackingNumber,
                },
              ]),
          {
            type: 'users_select',
            action_id: ids.ownerAssign,
            placeholder: plain('Assign'),
            initial_user: owner,
          },
        ],
      },
    ],
  };
}
