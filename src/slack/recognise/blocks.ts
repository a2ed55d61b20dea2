/** The compact reply to a message naming tracking numbers: a few bookings with the card's buttons, and Show all. */
import type { KnownBlock } from '@slack/types';
import { type BookingLine, bookingBlocks, bookingIds } from '../booking/index.js';
import { plain, section } from '../kit/blocks.js';
import { ids } from './ids.js';

/** Bookings a reply shows; the rest behind Show all. */
export const REPLY_SHOWN = 3;

/** At most this many tracking numbers are read from one message: Show all's 2 blocks each stay within 50. */
export const MESSAGE_NUMBERS_MAX = 20;

export const CARD_BUTTONS = [
  [bookingIds.waybillUpdate, 'Update'],
  [bookingIds.statusOpen, 'Record status'],
  [bookingIds.bookRebook, 'Rebook'],
  [bookingIds.labelsPrint, 'Print labels'],
] as const;

type Shown = BookingLine;

/** The first REPLY_SHOWN bookings; "and N more" with Show all (its value: every tracking number). */
export function recognisedReply(bookings: readonly Shown[]): { text: string; blocks: KnownBlock[] } {
  const shown = bookings.slice(0, REPLY_SHOWN);
  const more = bookings.length - shown.length;
  const text = `${bookings.map((b) => b.trackingNumber).join(', ')}: status and buttons`;
  return {
    text,
    blocks: [
      ...shown.flatMap((b) => bookingBlocks(b, CARD_BUTTONS)),
      ...(more > 0
        ? [
            {
              ...section(`and ${more} more`),
              accessory: {
                type: 'button' as const,
                action_id: ids.recogniseShowAll,
                text: plain('Show all'),
                value: bookings.map((b) => b.trackingNumber).join(' '),
              },
            },
          ]
        : []),
    ],
  };
}

/** Every booking named, for the person who asked. */
export function allRecognised(bookings: readonly Shown[]): { text: string; blocks: KnownBlock[] } {
  const text = `${bookings.length} bookings named in the message`;
  return {
    text,
    blocks: [section(text), ...bookings.flatMap((b) => bookingBlocks(b, CARD_BUTTONS))],
  };
}
