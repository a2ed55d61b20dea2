/** The booking card: posted when a waybill is booked, edited when it is updated, shown by /waybill show; Update and Rebook on it. */
import type { KnownBlock } from '@slack/types';
import type { WaybillEnv } from '../../config.js';
import type { Catalog } from '../../waybill/catalog.js';
import type { Booking } from '../../waybill/schemas.js';
import {
  context,
  environmentNotice,
  environmentTag,
  facts,
  formatMoney,
  placeLine,
  plain,
  section,
} from './blocks.js';
import { ids } from './ids.js';
import { escapeMrkdwn } from './mrkdwn.js';

export interface CardInput {
  booking: Booking;
  trackingRefNo: string;
  bookedBy: string;
  bookedAt: Date;
  catalog: Catalog;
  currency: string;
  env: WaybillEnv;
  /** Who changed it last, for the card after an update. */
  updatedBy?: string;
}

/** A date Slack shows in each reader's own time zone; the fallback is UTC. */
export function slackDate(instant: Date): string {
  const seconds = Math.floor(instant.getTime() / 1000);
  return `<!date^${seconds}^{date_short_pretty} {time}|${instant.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;
}

/** The booking card: the channel's audit trail of one waybill. */
export function bookingCard(input: CardInput): { text: string; blocks: KnownBlock[] } {
  const { booking, catalog, currency, env } = input;
  const pkg = booking.package;
  const isCod = booking.paymentMethod === catalog.codPaymentMethod;
  const tn = escapeMrkdwn(booking.trackingNumber);
  const receiver = booking.consignee;
  return {
    text: `Booked ${tn}${environmentTag(env)} for ${escapeMrkdwn(receiver.name)}`,
    blocks: [
      section(
        `:package: *Booked \`${tn}\`*${environmentTag(env)} by <@${input.bookedBy}> on ${slackDate(input.bookedAt)}` +
          (input.updatedBy ? `\n_Last updated by <@${input.updatedBy}>_` : ''),
      ),
      ...environmentNotice(env),
      ...facts([
        ['Tracking number', booking.trackingNumber],
        ['Courier reference', input.trackingRefNo],
        ['Receiver', `${receiver.name}, ${placeLine(receiver)}, ${receiver.phone}`],
        ['COD amount', isCod ? formatMoney(booking.codAmount, currency) : 'None'],
        [
          'Package',
          `${catalog.packageTypes.find((t) => t.value === pkg.type)?.label ?? pkg.type}, ${pkg.weight} kg, ${booking.quantity} parcel${booking.quantity === 1 ? '' : 's'}`,
        ],
      ]),
      section(
        `*Pickup*  ${slackDate(booking.pickupAt)}\n*Expected delivery*  ${slackDate(booking.expectedDeliveryAt)}`,
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
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: ids.waybillUpdate,
            text: plain('Update'),
            value: booking.trackingNumber,
          },
          {
            type: 'button',
            action_id: ids.bookRebook,
            text: plain('Rebook'),
            value: booking.trackingNumber,
          },
        ],
      },
    ],
  };
}
