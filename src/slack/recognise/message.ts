/** Messages naming our tracking numbers, where recognition is on: one compact reply in the thread; and its Show all. */
import type { App } from '@slack/bolt';
import type { BookingRecord } from '../../store/index.js';
import { writtenTrackingNumber } from '../../waybill/fields.js';
import type { Core } from '../core.js';
import { requires, verdictOn } from '../guards/access.js';
import { homeBooking } from '../home/index.js';
import type { SlackClient } from '../kit/delivery.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { allRecognised, MESSAGE_NUMBERS_MAX, recognisedReply } from './blocks.js';
import { ids } from './ids.js';

/** Our tracking numbers as the bot makes them (the prefix and six digits or more), standing alone, in any case. */
export function trackingPattern(prefix: string): RegExp {
  const escaped = prefix.replace(/[-]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_-])${escaped}\\d{6,12}(?![A-Za-z0-9_])`, 'gi');
}

/** The distinct numbers in `text`, at most MESSAGE_NUMBERS_MAX, in the order written. */
export function numbersIn(text: string, pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(pattern)) {
    found.add(writtenTrackingNumber(match[0]));
    if (found.size === MESSAGE_NUMBERS_MAX) break;
  }
  return [...found];
}

/** Bookings the person may see here: the channel rule on the message's channel and on each booking's own. */
export async function visible(
  deps: Pick<Core, 'access' | 'store'>,
  client: SlackClient,
  userId: string,
  channelId: string,
  bookings: readonly BookingRecord[],
): Promise<BookingRecord[]> {
  if (deps.access.open) return [...bookings];
  const may = async (where: string) =>
    (await verdictOn(deps.access, 'show', { client, userId, channelId: where })).ok;
  if (!(await may(channelId))) return [];
  const kept: BookingRecord[] = [];
  for (const booking of bookings) if (await may(booking.channelId)) kept.push(booking);
  return kept;
}

/** Bookings as their lines are drawn: with their latest status. */
export async function shown(deps: Pick<Core, 'store' | 'waybill'>, bookings: readonly BookingRecord[]) {
  const statuses = await deps.store.statuses.latestOf(bookings.map((b) => b.trackingNumber));
  return bookings.map((b) => homeBooking(deps, b, statuses.get(b.trackingNumber)));
}

interface ChannelMessage {
  subtype?: string;
  bot_id?: string;
  user?: string;
  text?: string;
  channel?: string;
  ts?: string;
  thread_ts?: string;
}

export function register(app: App, deps: Core): void {
  const pattern = trackingPattern(deps.bot.trackingPrefix);
  // Anyone's message may name a number: who may see what is checked on the bookings found.
  app.event('message', requires(deps, 'nothing'), async ({ event, client }) => {
    const message = event as ChannelMessage;
    // Edits, deletions, joins and bots' messages (ours too) carry a subtype or a bot id: never answered.
    if (message.subtype || message.bot_id || !message.user || !message.channel || !message.ts) return;
    const numbers = numbersIn(message.text ?? '', pattern);
    if (numbers.length === 0) return;
    const thread = message.thread_ts ?? message.ts;
    const { channel, user } = message;
    // Not in a booking card's own thread: the card is already there.
    const found = (await deps.store.recognition.bookingsIn(channel, numbers)).filter(
      (b) => !(b.cardChannelId === channel && b.cardTs === thread),
    );
    if (found.length === 0) return;
    const allowed = await visible(deps, client, user, channel, found);
    const fresh = new Set(
      await deps.store.recognition.claim(
        channel,
        thread,
        allowed.map((b) => b.trackingNumber),
      ),
    );
    // In the order the message names them.
    const replied = numbers.flatMap((n) => allowed.filter((b) => b.trackingNumber === n && fresh.has(n)));
    if (replied.length === 0) return;
    await client.chat.postMessage({
      channel,
      thread_ts: thread,
      ...recognisedReply(await shown(deps, replied)),
    });
  });

  app.action<ButtonClick, Told>(
    ids.recogniseShowAll,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      const numbers = (action.value ?? '').split(' ').filter(Boolean).slice(0, MESSAGE_NUMBERS_MAX);
      const bookings = (await Promise.all(numbers.map((n) => deps.store.bookings.get(n)))).filter(
        (b): b is BookingRecord => b !== undefined,
      );
      const channelId = body.channel?.id ?? '';
      const allowed = await visible(deps, client, body.user.id, channelId, bookings);
      await tell({
        response_type: 'ephemeral',
        replace_original: false,
        ...allRecognised(await shown(deps, allowed)),
      });
    },
  );
}
