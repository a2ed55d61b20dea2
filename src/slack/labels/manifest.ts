/** The pickup manifest: `/waybill manifest [day]` and the Home tab's Pickup list; a PDF and a CSV file to the channel asked from, or to the person. */

import { setImmediate } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import {
  buildManifest,
  type LeftOut,
  lineOfBooking,
  lineOfRequest,
  type Manifest,
  type ManifestLine,
} from '../../labels/manifest.js';
import { type Scope, scopeChannels } from '../../operations/access.js';
import type { Store } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import { isCalendarDate, isObject } from '../../waybill/fields.js';
import { validate } from '../../waybill/schemas.js';
import { statusLabel } from '../../waybill/statuses.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { scopeOf } from '../guards/person.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import { type Upload, uploadFile, uploadToUser } from '../kit/files.js';
import { ackNow, type ButtonClick } from '../kit/listener.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import { manifestComment, unprintableNote } from './blocks.js';
import { ids } from './ids.js';

/**
 * Bookings read from the store at a time, with other requests answered between pages (SQLite answers
 * synchronously, and each record is validated): memory stays bounded, and no page holds the event loop long.
 */
const PAGE = 100;

/** What a manifest is made from: the stored bookings and attempts, and the settings. */
type Manifesting = Pick<Core, 'schemas' | 'logger' | 'waybill' | 'access'> & {
  store: Pick<Store, 'attempts' | 'audit' | 'bookings' | 'statuses'>;
};

/** The day asked for (today in the waybill's time zone when none), or what is wrong with it. */
export function manifestDay(deps: Pick<Core, 'now' | 'waybill'>, text: string): string | { problem: string } {
  if (text === '') return zonedDateAndTime(deps.now(), deps.waybill.timeZone).date;
  if (isCalendarDate(text)) return text;
  return {
    problem:
      'To get a pickup list, write the day like `/waybill manifest 2026-11-23` (or nothing for today).',
  };
}

/** Statuses after which a parcel is not handed over to the rider. */
const NOT_HANDED_OVER: readonly string[] = ['cancelled', 'returned'];

/**
 * What a manifest is of: the day, and the conversations whose bookings the asker sees (the access
 * rule); `channels` gathers the conversations the lines come from, so it is shared only where each is its own.
 */
interface ManifestScope {
  date: string;
  channelIds: readonly string[] | undefined;
  channels: Set<string>;
}

/** Every stored booking picked up that day, read page by page, as manifest lines: handed over, or left out and why. */
async function bookedLines(
  deps: Manifesting,
  { date, channelIds, channels }: ManifestScope,
): Promise<{ lines: ManifestLine[]; leftOut: LeftOut[] }> {
  const { timeZone, catalog } = deps.waybill;
  const from = instantFromZonedDateTime(date, '00:00', timeZone);
  const to = instantFromZonedDateTime(zonedDateAfter(from, 1, timeZone), '00:00', timeZone);
  const lines: ManifestLine[] = [];
  const leftOut: LeftOut[] = [];
  for (let after: string | undefined; ; ) {
    const page = await deps.store.bookings.listByPickup({ from, to, after, channelIds, limit: PAGE });
    const latest = await deps.store.statuses.latestOf(page.map((record) => record.trackingNumber));
    for (const record of page) {
      channels.add(record.channelId);
      const parsed = validate(deps.schemas.booking, record.record);
      if (!parsed.ok) {
        deps.logger.error({ trackingNumber: record.trackingNumber }, 'stored booking no longer validates');
        continue;
      }
      const line = lineOfBooking(parsed.value, catalog.codPaymentMethod);
      const status = latest.get(record.trackingNumber);
      if (status && NOT_HANDED_OVER.includes(status.status)) {
        leftOut.push({ line, why: statusLabel(status.status, status.reason) });
      } else lines.push(line);
    }
    after = page.at(-1)?.trackingNumber;
    if (page.length < PAGE) return { lines, leftOut };
    await setImmediate();
  }
}

/** Bookings whose courier call has no known outcome, picked up that day: from the request sent. */
async function unknownLines(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'attempts' | 'audit' | 'bookings'> },
  { date, channelIds, channels }: ManifestScope,
): Promise<ManifestLine[]> {
  const lines: ManifestLine[] = [];
  for (const attempt of await deps.store.attempts.listUnknown('book')) {
    const { trackingNumber, channelId } = attempt;
    if (channelIds && !(channelId && channelIds.includes(channelId))) continue;
    if (!trackingNumber || (await deps.store.bookings.get(trackingNumber))) continue;
    const [sent] = await deps.store.audit.list({ trackingNumber, operation: 'book', limit: 1 });
    const request = sent?.request;
    // The wire's pickup date is wall-clock time in the waybill's zone: its first ten characters are the day.
    if (!isObject(request) || String(request.pickupDate).slice(0, 10) !== date) continue;
    channels.add(channelId ?? '');
    lines.push(
      lineOfRequest(request as unknown as BookingRequestWire, deps.waybill.catalog.codPaymentMethod),
    );
  }
  return lines;
}

/** The day's manifest from the store, of the bookings `scope` sees, and the conversations they come from. */
async function manifestOf(
  deps: Manifesting,
  date: string,
  scope: Scope,
): Promise<{ manifest: Manifest; channels: Set<string> }> {
  const of = { date, channelIds: scopeChannels(scope), channels: new Set<string>() };
  const [booked, unknown] = await Promise.all([bookedLines(deps, of), unknownLines(deps, of)]);
  return { manifest: buildManifest(date, booked.lines, unknown, booked.leftOut), channels: of.channels };
}

export interface ManifestRequest {
  userId: string;
  /** Asked from a channel: shared there. Otherwise (a DM, the Home tab) with the person. */
  channelId?: string;
  date: string;
}

/**
 * Makes the PDF and CSV of the bookings the person sees and shares them in the channel asked from when
 * every one of them was booked there (the access rule: receivers are public only in their own
 * conversation); otherwise, or where the channel will not take them, with the person.
 */
async function sendManifest(
  deps: Manifesting & Pick<Core, 'now' | 'render'>,
  client: SlackClient,
  request: ManifestRequest,
): Promise<void> {
  const { date, userId } = request;
  const { timeZone, currency, env } = deps.waybill;
  const scope = await scopeOf(deps.access, client, userId);
  const { manifest, channels } = await manifestOf(deps, date, scope);
  const asked = request.channelId && !request.channelId.startsWith('D') ? request.channelId : undefined;
  const publicThere =
    asked !== undefined &&
    [...channels].every(
      (channelId) =>
        deps.access.sight(scope, { kind: 'conversation', channelId: asked }, { channelId }) === 'whole',
    );
  const made = zonedDateAndTime(deps.now(), timeZone);
  const { pdf, unprintable } = await deps.render.run('manifest', manifest, {
    currency,
    live: env === 'live',
    madeAt: `${made.date} ${made.time} (${timeZone})`,
  });
  const pdfFile: Upload = {
    filename: `pickup-${date}.pdf`,
    title: `Pickup manifest ${date}`,
    content: pdf,
    comment: manifestComment(manifest, userId, currency) + unprintableNote(unprintable),
  };
  const csvFile: Upload = {
    filename: `pickup-${date}.csv`,
    title: `Pickup manifest ${date} (CSV)`,
    content: await deps.render.run('manifestCsv', manifest),
  };
  let channel = publicThere ? asked : undefined;
  if (asked && !publicThere)
    pdfFile.comment += `\n_It lists bookings of other conversations too, so it comes to you here, not in <#${asked}>._`;
  // Each file is shared once: once the channel refuses one, it and the files after it go to the person.
  for (const file of [pdfFile, csvFile]) {
    if (channel) {
      try {
        await uploadFile(client, channel, file);
        continue;
      } catch (err) {
        deps.logger.warn(
          { err, code: slackErrorCode(err), channel, file: file.filename },
          'manifest not shared in the channel',
        );
        file.comment = `${file.comment ? `${file.comment}\n` : ''}_The bot could not share it in <#${channel}>, so it comes to you here._`;
        channel = undefined;
      }
    }
    await uploadToUser(client, userId, file);
  }
}

/** Runs after the ack; a failure is told to the person in a DM. */
function manifestSoon(
  deps: Manifesting & Pick<Core, 'now' | 'inFlight' | 'render'>,
  client: SlackClient,
  request: ManifestRequest,
): void {
  deps.inFlight.run('manifest', () => sendManifest(deps, client, request), {
    client,
    userId: request.userId,
    what: `the pickup list of ${request.date}`,
  });
}

/** `/waybill manifest [day]`, answered at once with what happens next. */
const manifestCommand: CommandAnswer<
  { date: string },
  Pick<Core, 'access' | 'inFlight' | 'logger' | 'now' | 'render' | 'schemas' | 'waybill'> & {
    store: Pick<Store, 'attempts' | 'audit' | 'bookings' | 'statuses'>;
  }
> = async (deps, { ack, client, command }, request) => {
  const date = manifestDay(deps, request.date);
  if (typeof date !== 'string') {
    await ack({ response_type: 'ephemeral', text: date.problem });
    return;
  }
  const fromChannel = !command.channel_id.startsWith('D');
  manifestSoon(deps, client, {
    userId: command.user_id,
    date,
    ...(fromChannel ? { channelId: command.channel_id } : {}),
  });
  await ack({
    response_type: 'ephemeral',
    text: `Making the pickup list of ${date}: a PDF and a CSV file, ${fromChannel ? 'shared in this channel' : 'in a DM from the bot'}.`,
  });
};

export function register(app: App, deps: Core): void {
  app.action<ButtonClick>(ids.labelsManifest, requires(deps, 'show'), ackNow, async ({ body, client }) => {
    const date = zonedDateAndTime(deps.now(), deps.waybill.timeZone).date;
    manifestSoon(deps, client, { userId: body.user.id, date });
  });
}

/** `/waybill manifest`. */
export const manifestVerb = waybillVerb({
  verb: 'manifest',
  usage: '`/waybill manifest [2026-11-23]`: the pickup list of a day (today if none) as a PDF and a CSV file',
  // The pickup list shows what is stored: whoever may look waybills up may have it.
  permission: 'show',
  parse: ({ rest }) => ({ date: rest }),
  answer: manifestCommand,
});
