/**
 * The weekly report: posted once a week, on REPORT_TIME's day at its time, to REPORT_CHANNEL_ID by
 * whichever replica claims the week first in the database; late (saying so) by the first replica up
 * that day if none was at that time.
 */

import { postOnce, scheduledDay } from '../../operations/post-once.js';
import type { Store } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter } from '../../waybill/dates.js';
import type { Core } from '../core.js';
import { lateNote, localNow } from '../digest/index.js';
import { uploadFile } from '../kit/files.js';
import type { SlackClient } from '../runtime/delivery.js';
import { reportFiles, reportMessage } from './blocks.js';
import { reportData } from './data.js';

type Reporting = Pick<Core, 'waybill' | 'bot' | 'now' | 'logger' | 'render'> & {
  store: Pick<Store, 'audit' | 'bookings' | 'digests' | 'remittances' | 'statuses' | 'weeklyReports'>;
};

/** The 7 days before `date` (YYYY-MM-DD), as [first, last]. */
export function weekBefore(date: string, deps: Pick<Core, 'now' | 'waybill'>): [string, string] {
  const { timeZone } = deps.waybill;
  const noon = instantFromZonedDateTime(date, '12:00', timeZone);
  return [zonedDateAfter(noon, -7, timeZone), zonedDateAfter(noon, -1, timeZone)];
}

/**
 * One look at the clock: on REPORT_TIME's weekday, once its time has passed and no replica has
 * claimed this week's report, this one claims it and posts it. Returns the day posted, if any.
 */
export async function reportTick(deps: Reporting, client: SlackClient): Promise<string | undefined> {
  const settings = deps.bot.report;
  if (!settings) return undefined;
  const { date, time } = localNow(deps);
  if (new Date(`${date}T12:00:00Z`).getUTCDay() !== settings.weekday || time < settings.time)
    return undefined;
  const late = lateNote(time, settings.time);
  const posted = await postOnce(scheduledDay(deps.store, 'weekly report', date), async () => {
    const [from, to] = weekBefore(date, deps);
    const data = await reportData(deps, from, to);
    const message = reportMessage(data, { currency: deps.waybill.currency, ...(late ? { late } : {}) });
    const sent = await client.chat.postMessage({ channel: settings.channelId, ...message });
    // The report is out: a file that fails is told in the log, never a reason to post it again.
    await reportFiles(deps, data, 'Weekly report')
      .then(async (files) => {
        for (const file of files) {
          await uploadFile(client, settings.channelId, {
            ...file,
            ...(sent.ts ? { threadTs: sent.ts } : {}),
          });
        }
      })
      .catch((err: unknown) =>
        deps.logger.warn({ err, day: date }, "the weekly report's files could not be shared"),
      );
  });
  if (posted.state !== 'posted') return undefined;
  deps.logger.info({ day: date, late: Boolean(late) }, 'weekly report posted');
  return date;
}
