/**
 * The daily digest: posted once a day at DIGEST_TIME to DIGEST_CHANNEL_ID by whichever replica
 * claims the day first in the database; late (saying so) by the first replica up that day if
 * none was at that time; never a day's digest on the next day. `/waybill digest` shows today's
 * to whoever asks.
 */

import { postOnce, scheduledDay } from '../../operations/post-once.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { uploadFile } from '../kit/files.js';
import type { SlackClient } from '../runtime/delivery.js';
import { digestCsv, digestMessage, hasDetail } from './blocks.js';
import { digestData, localNow } from './data.js';

/** Posted this many minutes or more after DIGEST_TIME, the digest says it is late. */
export const LATE_AFTER_MINUTES = 5;

/** What the digest reads: the store, the settings, the clock; and the log it reports to. */
type Digesting = Pick<Core, 'waybill' | 'bot' | 'now' | 'logger' | 'access'> & {
  store: Pick<
    Store,
    | 'attempts'
    | 'attention'
    | 'audit'
    | 'bookings'
    | 'digests'
    | 'receivers'
    | 'remittances'
    | 'statuses'
    | 'weeklyReports'
  >;
};

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A scheduled post's note when it goes out LATE_AFTER_MINUTES or more after `scheduled` (both HH:MM). */
export function lateNote(time: string, scheduled: string): string | undefined {
  return minutesOf(time) - minutesOf(scheduled) >= LATE_AFTER_MINUTES
    ? `Posted late, at ${time}: the bot was not running at ${scheduled}.`
    : undefined;
}

/**
 * One look at the clock: when DIGEST_TIME has passed today and no replica has claimed today's
 * digest, this one claims it and posts it. Returns the day posted, if any.
 */
export async function digestTick(deps: Digesting, client: SlackClient): Promise<string | undefined> {
  const settings = deps.bot.digest;
  if (!settings) return undefined;
  const { date, time } = localNow(deps);
  if (time < settings.time) return undefined;
  const late = lateNote(time, settings.time);
  const posted = await postOnce(scheduledDay(deps.store, 'digest', date), () =>
    postDigest(deps, client, { channelId: settings.channelId, date, late }),
  );
  if (posted.state !== 'posted') return undefined;
  deps.logger.info({ day: date, late: Boolean(late) }, 'daily digest posted');
  return date;
}

async function postDigest(
  deps: Digesting,
  client: SlackClient,
  { channelId, date, late }: { channelId: string; date: string; late: string | undefined },
): Promise<void> {
  const data = await digestData(deps, date);
  const { currency, timeZone, catalog } = deps.waybill;
  const detail = hasDetail(data);
  const message = digestMessage(data, { currency, detailInThread: detail, ...(late ? { late } : {}) });
  const posted = await client.chat.postMessage({ channel: channelId, ...message });
  if (!(detail && posted.ts)) return;
  // The digest is out: a file that fails is told in the log, never a reason to post the digest again.
  await uploadFile(client, channelId, {
    filename: `digest-${date}.csv`,
    title: `Digest ${date}`,
    content: digestCsv(data, {
      timeZone,
      codPaymentMethod: catalog.codPaymentMethod,
      // Public in the digest's channel: whole only the bookings booked there (the access rule).
      whole: (booking) =>
        deps.access.sight(deps.access.teamScope, { kind: 'conversation', channelId }, booking) === 'whole',
    }),
    threadTs: posted.ts,
  }).catch((err: unknown) => deps.logger.warn({ err, day: date }, "the digest's file could not be shared"));
}

/** `/waybill digest`: today's digest so far, for the person asking only. */
const digestCommand: CommandAnswer<
  object,
  Pick<Core, 'bot' | 'now' | 'waybill'> & {
    store: Pick<
      Store,
      'attempts' | 'attention' | 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'
    >;
  }
> = async (deps, { ack }) => {
  const data = await digestData(deps, localNow(deps).date);
  await ack({
    response_type: 'ephemeral',
    ...digestMessage(data, { currency: deps.waybill.currency, detailInThread: false }),
  });
};

/** `/waybill digest`. */
export const digestVerb = waybillVerb({
  verb: 'digest',
  usage:
    '`/waybill digest`: today so far (bookings, refusals, unknown outcomes, statuses, tomorrow’s pickups), just for you',
  // The digest shows what is stored: whoever may look waybills up may have it.
  permission: 'show',
  parse: noWords,
  answer: digestCommand,
});
