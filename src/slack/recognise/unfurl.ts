/** Links to the courier's tracking page (TRACKING_URL_TEMPLATE) unfurled as the booking, through link_shared and chat.unfurl. */
import type { App } from '@slack/bolt';
import * as z from 'zod';
import type { BookingRecord } from '../../store/index.js';
import { bookingBlocks, bookingNumberBlocks } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { scopeOf } from '../guards/person.js';
import { CARD_BUTTONS, MESSAGE_NUMBERS_MAX } from './blocks.js';
import { shown } from './message.js';

/** The template as a pattern of a whole link, the tracking number its one group. */
export function trackingLink(template: string): RegExp {
  const [before = '', after = ''] = template
    .split('{tn}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${before}([A-Za-z0-9_-]{1,60})${after}$`);
}

/** The fields of a link_shared event read, as untrusted input: one holding another type is not unfurled. */
const linkShared = z.object({
  user: z.string().min(1),
  channel: z.string().min(1),
  message_ts: z.string().optional(),
  unfurl_id: z.string().optional(),
  source: z.enum(['composer', 'conversations_history']).optional(),
  links: z.array(z.object({ url: z.string() })).default([]),
});

export function register(app: App, deps: Core): void {
  const template = deps.bot.trackingUrlTemplate;
  if (!template) return;
  const link = trackingLink(template);
  // Anyone may share a link: who may see the booking is checked on it.
  app.event('link_shared', requires(deps, 'nothing'), async ({ event, client }) => {
    const read = linkShared.safeParse(event);
    if (!read.success) return;
    const shared = read.data;
    const named = new Map<string, string>();
    for (const { url } of shared.links.slice(0, MESSAGE_NUMBERS_MAX)) {
      const number = link.exec(url)?.[1];
      if (number) named.set(url, number);
    }
    if (named.size === 0) return;
    const found = (
      await Promise.all([...new Set(named.values())].map((n) => deps.store.bookings.get(n)))
    ).filter((b): b is BookingRecord => b !== undefined);
    // An unfurl is public in the channel: whole only there where the booking was booked, else its
    // number and status; nothing for a person who may not see it (the access rule).
    const scope = await scopeOf(deps.access, client, shared.user);
    const here = { kind: 'conversation', channelId: shared.channel } as const;
    const sights = new Map(
      found.map((booking) => [booking.trackingNumber, deps.access.sight(scope, here, booking)]),
    );
    const seen = await shown(
      deps,
      found.filter((booking) => sights.get(booking.trackingNumber) !== 'nothing'),
    );
    const unfurls = Object.fromEntries(
      [...named].flatMap(([url, number]) => {
        const booking = seen.find((b) => b.trackingNumber === number);
        if (!booking) return [];
        const whole = sights.get(number) === 'whole';
        return [
          [url, { blocks: whole ? bookingBlocks(booking, CARD_BUTTONS) : bookingNumberBlocks(booking) }],
        ];
      }),
    );
    if (Object.keys(unfurls).length === 0) return;
    // A link still being written (the composer) is unfurled by its id; one in a posted message by its ts.
    const where =
      shared.unfurl_id && shared.source
        ? { unfurl_id: shared.unfurl_id, source: shared.source }
        : { channel: shared.channel, ts: shared.message_ts ?? '' };
    await client.chat.unfurl({ ...where, unfurls });
  });
}
