/** Messages naming our tracking numbers, where recognition is on: one compact reply in the thread; and its Show all. */

import type { App } from '@slack/bolt';
import * as z from 'zod';
import type { Access, Person } from '../../operations/access.js';
import { postOnce } from '../../operations/post-once.js';
import { threadReply } from '../../operations/recognition.js';
import type { BookingRecord, Store } from '../../store/index.js';
import { writtenTrackingNumber } from '../../waybill/fields.js';
import { bookingLine } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { personOf, scopeOf } from '../guards/person.js';
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

/**
 * The bookings `person` may be shown in `channelId`, by the access rule: `public`, whole in their own
 * conversation; `private`, booked elsewhere, so whole only to them (the channel sees nothing).
 */
export async function sorted(
  access: Access,
  person: Person,
  channelId: string,
  bookings: readonly BookingRecord[],
): Promise<{ public: BookingRecord[]; private: BookingRecord[] }> {
  const scope = await access.scope(person);
  const here = { kind: 'conversation', channelId } as const;
  const seen = bookings.map((booking) => [booking, access.sight(scope, here, booking)] as const);
  return {
    public: seen.flatMap(([booking, shown]) => (shown === 'whole' ? [booking] : [])),
    private: seen.flatMap(([booking, shown]) => (shown === 'number and status' ? [booking] : [])),
  };
}

/** Bookings as their lines are drawn: with their latest status. */
export async function shown(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'statuses'> },
  bookings: readonly BookingRecord[],
) {
  const statuses = await deps.store.statuses.latestOf(bookings.map((b) => b.trackingNumber));
  return bookings.map((b) => bookingLine(deps, b, statuses.get(b.trackingNumber)));
}

/** The fields of a message event read, as untrusted input: a message holding one of another type is not answered. */
const channelMessage = z.object({
  subtype: z.string().optional(),
  bot_id: z.string().nullish(),
  user: z.string().min(1),
  /** The author's team (Slack Connect: another organisation's). */
  user_team: z.string().optional(),
  text: z.string().optional(),
  channel: z.string().min(1),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
});

export function register(app: App, deps: Core): void {
  const pattern = trackingPattern(deps.bot.trackingPrefix);
  // Anyone's message may name a number: who may see what is checked on the bookings found.
  app.event('message', requires(deps, 'nothing'), async ({ event, client }) => {
    const read = channelMessage.safeParse(event);
    if (!read.success) return;
    const message = read.data;
    // Edits, deletions, joins and bots' messages (ours too) carry a subtype or a bot id: never answered.
    if (message.subtype || message.bot_id) return;
    const numbers = numbersIn(message.text ?? '', pattern);
    if (numbers.length === 0) return;
    const thread = message.thread_ts ?? message.ts;
    const { channel, user } = message;
    // Not in a booking card's own thread: the card is already there.
    const found = (await deps.store.recognition.bookingsIn(channel, numbers)).filter(
      (b) => !(b.cardChannelId === channel && b.cardTs === thread),
    );
    if (found.length === 0) return;
    const person = await personOf(deps.access, client, user, message.user_team);
    const shownTo = await sorted(deps.access, person, channel, found);
    // Booked in another conversation: whole to the author alone, never in the channel.
    if (shownTo.private.length > 0) {
      const named = numbers.flatMap((n) => shownTo.private.filter((b) => b.trackingNumber === n));
      await client.chat.postEphemeral({
        channel,
        user,
        thread_ts: thread,
        ...recognisedReply(await shown(deps, named)),
      });
    }
    await postOnce(
      threadReply(
        deps.store,
        channel,
        thread,
        shownTo.public.map((b) => b.trackingNumber),
      ),
      async (fresh) => {
        // In the order the message names them.
        const replied = numbers.flatMap((n) =>
          shownTo.public.filter((b) => b.trackingNumber === n && fresh.has(n)),
        );
        await client.chat.postMessage({
          channel,
          thread_ts: thread,
          ...recognisedReply(await shown(deps, replied)),
        });
      },
    );
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
      // Told to the clicker alone: every booking they may see, wherever it was booked.
      const scope = await scopeOf(deps.access, client, body.user.id, body.user.team_id);
      const allowed = bookings.filter(
        (booking) => deps.access.sight(scope, { kind: 'private' }, booking) === 'whole',
      );
      await tell({
        response_type: 'ephemeral',
        replace_original: false,
        ...allRecognised(await shown(deps, allowed)),
      });
    },
  );
}
