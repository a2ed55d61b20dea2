/** What `/waybill find` shows: a page of bookings, each with its buttons, and More. */
import type { KnownBlock } from '@slack/types';
import { type BookingLine, bookingBlocks, bookingIds } from '../booking/index.js';
import { context, cut, plain, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

/** Where the next page begins: the words typed and the last booking shown, in More's value. */
export interface FindCursor {
  query: string;
  bookedAt: number;
  trackingNumber: string;
}

const RESULT_BUTTONS = [
  [ids.findShow, 'Show'],
  [bookingIds.waybillUpdate, 'Update'],
  [bookingIds.statusOpen, 'Record status'],
] as const;

/** A button's value holds at most 2,000 characters: the query is cut well below that. */
export const FIND_QUERY_MAX = 500;

/** One page of results: what was asked, up to ten bookings, and More when there are more. */
export function findResults(input: {
  query: string;
  bookings: readonly BookingLine[];
  /** Where More continues from; absent on the last page. */
  next?: FindCursor;
  /** Bookings shown on the pages before this one. */
  before: number;
}): { text: string; blocks: KnownBlock[] } {
  const asked = input.query ? `\`${escapeMrkdwn(cut(input.query, 100))}\`` : 'every booking';
  if (input.bookings.length === 0) {
    const text = input.before
      ? `No more bookings match ${asked}.`
      : `No booking you may see matches ${asked}.`;
    return { text, blocks: [section(text)] };
  }
  const first = input.before + 1;
  const last = input.before + input.bookings.length;
  const text = `Bookings matching ${asked}, newest first: ${first}\u2013${last}`;
  return {
    text,
    blocks: [
      section(text),
      ...input.bookings.flatMap((booking) => bookingBlocks(booking, RESULT_BUTTONS)),
      input.next
        ? {
            type: 'actions',
            elements: [
              {
                type: 'button',
                action_id: ids.findMore,
                text: plain('More'),
                value: JSON.stringify({ ...input.next, before: last }),
              },
            ],
          }
        : context('That is all of them.'),
    ],
  };
}
