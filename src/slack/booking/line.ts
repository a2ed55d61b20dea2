/**
 * A booking's line, as the Home tab, find, recognition and unfurls draw it: read from the stored
 * booking, with its buttons; or, where its details may not be shown, its number and status.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { BookingRecord, StatusEntry } from '../../store/index.js';
import { fieldOf, stringOf } from '../../waybill/fields.js';
import type { WaybillConfig } from '../../waybill/settings.js';
import { statusLabel } from '../../waybill/statuses.js';
import { context, formatMoney, plain, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { slackDate, statusLine } from './booking-card.js';

/** A booking as its line shows it: receiver, city, COD, who booked it and when, its owner and status. */
export interface BookingLine {
  trackingNumber: string;
  receiver: string;
  city: string;
  /** The COD amount with its currency; '' when not cash on delivery. */
  cod: string;
  bookedBy: string;
  bookedAt: Date;
  /** Who answers for it now. */
  owner: string;
  /** Its latest status, as recorded. */
  status?: StatusEntry;
  /** WAYBILL_TIMEZONE: its dates' fallback text. */
  timeZone: string;
}

/** A stored booking as its line shows it, with its latest status. */
export function bookingLine(
  deps: { waybill: Pick<WaybillConfig, 'catalog' | 'currency' | 'timeZone'> },
  stored: BookingRecord,
  status: StatusEntry | undefined,
): BookingLine {
  const { catalog, currency } = deps.waybill;
  const booking = stored.record;
  const consignee = fieldOf(booking, 'consignee');
  const isCod = fieldOf(booking, 'paymentMethod') === catalog.codPaymentMethod;
  const amount = stringOf(fieldOf(booking, 'codAmount'));
  return {
    trackingNumber: stored.trackingNumber,
    receiver: stringOf(fieldOf(consignee, 'name')),
    city: stringOf(fieldOf(consignee, 'city')),
    cod: isCod && amount ? formatMoney(amount, currency) : '',
    bookedBy: stored.bookedBy,
    bookedAt: stored.bookedAt,
    owner: stored.ownerId,
    timeZone: deps.waybill.timeZone,
    ...(status ? { status } : {}),
  };
}

/** A booking's line (receiver, city, COD, who booked it, when, its status) with these buttons under it. */
export function bookingBlocks(
  booking: BookingLine,
  buttons: readonly (readonly [actionId: string, text: string])[],
): KnownBlock[] {
  const where = [booking.receiver, booking.city].filter(Boolean).map(escapeMrkdwn).join(', ');
  const cod = booking.cod ? `  ·  COD ${escapeMrkdwn(booking.cod)}` : '';
  const actions: ActionsBlock = {
    type: 'actions',
    elements: buttons.map(([actionId, text]) => ({
      type: 'button' as const,
      action_id: actionId,
      text: plain(text),
      value: booking.trackingNumber,
    })),
  };
  return [
    section(
      `\`${escapeMrkdwn(booking.trackingNumber)}\`  ${where}${cod}\n<@${booking.bookedBy}> · ${slackDate(booking.bookedAt, booking.timeZone)} · owner <@${booking.owner}>` +
        (booking.status ? `\n${statusLine(booking.status, booking.timeZone)}` : ''),
    ),
    actions,
  ];
}

/**
 * A booking where its details may not be shown (a public place other than its own conversation, by
 * the access rule): its number and status only.
 */
export function bookingNumberBlocks(booking: Pick<BookingLine, 'trackingNumber' | 'status'>): KnownBlock[] {
  const status = booking.status ? statusLabel(booking.status.status, booking.status.reason) : 'Booked';
  return [
    section(`\`${escapeMrkdwn(booking.trackingNumber)}\` · ${escapeMrkdwn(status)}`),
    context('Booked in another conversation: its details are shown there, or to each person privately.'),
  ];
}
