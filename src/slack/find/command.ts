/** `/waybill find <words>`, the Home tab's Find box, and More and Show: bookings found, privately, a page at a time. */

import type { App, BlockAction, PlainTextInputAction } from '@slack/bolt';
import * as z from 'zod';
import { scopeChannels } from '../../operations/access.js';
import { FIND_PAGE, findPage, readFindQuery } from '../../operations/find.js';
import type { Store } from '../../store/index.js';
import { bookingLine } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, askerOf } from '../guards/booking-access.js';
import { scopeOf } from '../guards/person.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { shownBooking } from '../update/index.js';
import { FIND_QUERY_MAX, type FindCursor, findResults } from './blocks.js';
import { ids } from './ids.js';

const usage =
  'Write `/waybill find <words>`: names, phones, references, tracking numbers, cities or what was sent, and filters such as `status:failed`, `from:2026-11-01`, `to:2026-11-30`, `owner:me`, `cod` or `prepaid`.';

/** The page of `query` after `cursor` (the first page without one), as a message; or what is wrong with the query. */
async function pageOf(
  deps: Pick<Core, 'waybill' | 'access'> & { store: Pick<Store, 'bookings' | 'statuses'> },
  asker: Asker,
  query: string,
  cursor?: FindCursor & { before: number },
): Promise<{ text: string; blocks?: ReturnType<typeof findResults>['blocks'] }> {
  const { userId } = asker;
  if (query.length > FIND_QUERY_MAX)
    return { text: `That is too long to find: at most ${FIND_QUERY_MAX} characters.` };
  const reading = readFindQuery(query, { userId, timeZone: deps.waybill.timeZone });
  if (!reading.ok) return { text: `${reading.problem}\n${usage}` };
  const after = cursor && { bookedAt: new Date(cursor.bookedAt), trackingNumber: cursor.trackingNumber };
  // Only the bookings of the conversations the asker sees (the access rule), in the query itself.
  const scope = await scopeOf(deps.access, asker.client, userId, asker.teamId);
  const channelIds = scopeChannels(scope);
  const page = await findPage(deps.store, reading.query, {
    ...(after ? { after } : {}),
    ...(channelIds ? { channelIds } : {}),
  });
  const lastShown = page.bookings.at(-1);
  const statuses = await deps.store.statuses.latestOf(page.bookings.map((b) => b.trackingNumber));
  return findResults({
    query,
    bookings: page.bookings.map((b) => bookingLine(deps, b, statuses.get(b.trackingNumber))),
    before: cursor?.before ?? 0,
    ...(page.more && lastShown
      ? { next: { query, bookedAt: lastShown.bookedAt.getTime(), trackingNumber: lastShown.trackingNumber } }
      : {}),
  });
}

const findCommand: CommandAnswer<
  { query: string },
  Parameters<typeof pageOf>[0] & Pick<Core, 'inFlight'>
> = async (deps, { ack, command, client, respond }, { query }) => {
  if (!query) {
    await ack({ response_type: 'ephemeral', text: usage });
    return;
  }
  // Acknowledged first: a search under load must never outlast Slack's 3 seconds (the page follows).
  await ack();
  const asker = { client, userId: command.user_id, teamId: command.team_id };
  deps.inFlight.run('find', async () => {
    await respond({ response_type: 'ephemeral', ...(await pageOf(deps, asker, query)) });
  });
};

/** More's value as the bot writes it: a page's worth past a page, and a query it could have shown. */
const moreCursor = z.object({
  query: z.string().min(1).max(FIND_QUERY_MAX),
  bookedAt: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  trackingNumber: z.string().min(1).max(60),
  before: z.number().int().positive().multipleOf(FIND_PAGE).max(Number.MAX_SAFE_INTEGER),
});

/** More's value, as the bot wrote it; undefined for anything else. */
function cursorOf(value: string | undefined): (FindCursor & { before: number }) | undefined {
  try {
    return moreCursor.safeParse(JSON.parse(value ?? '')).data;
  } catch {
    return undefined;
  }
}

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Told>(
    ids.findMore,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      const cursor = cursorOf(action.value);
      if (!cursor) return void (await tell({ response_type: 'ephemeral', text: usage }));
      await tell({
        response_type: 'ephemeral',
        replace_original: true,
        ...(await pageOf(deps, askerOf(client, body), cursor.query, cursor)),
      });
    },
  );
  // The Home tab's Find box: the first page in the person's DM with the bot, where More and the buttons work.
  app.action<BlockAction<PlainTextInputAction>>(
    ids.findHome,
    requires(deps, 'show'),
    async ({ ack, body, action, client }) => {
      await ack();
      const query = (action.value ?? '').trim();
      const page = query ? await pageOf(deps, askerOf(client, body), query) : { text: usage };
      await client.chat.postMessage({ channel: body.user.id, ...page });
    },
  );
  app.action<ButtonClick, Told>(
    ids.findShow,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      await tell({
        response_type: 'ephemeral',
        replace_original: false,
        ...(await shownBooking(deps, action.value ?? '', askerOf(client, body))),
      });
    },
  );
}

/** `/waybill find`. */
export const findVerb = waybillVerb({
  verb: 'find',
  usage:
    '`/waybill find <words>`: bookings by name, phone, reference, tracking number, city or item, with filters such as `status:failed`, `from:2026-11-01`, `owner:me`, `cod`; just for you',
  permission: 'show',
  parse: ({ rest }) => ({ query: rest }),
  answer: findCommand,
});
