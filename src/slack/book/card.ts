/** The booking card's port: where a booking's card is posted in Slack, for every way of booking. */
import { CARD_NOT_POSTED, type PostCard } from '../../operations/book.js';
import { bookingCard } from '../booking/index.js';
import { type Delivered, deliveredNote, postToChannel, type SlackClient } from '../runtime/delivery.js';
import type { BookDeps } from './draft.js';

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
