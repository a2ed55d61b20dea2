/** Recording a parcel's status from Slack: the person's access checked, the status recorded (operations/status.ts), the card redrawn, a line in its thread. */
import { recordParcelStatus, type StatusChoice } from '../../operations/status.js';
import type { StatusEntry } from '../../store/index.js';
import { cardPlaces, storedBooking, storedBookingCard, threadPlaces } from '../booking/index.js';
import type { Core } from '../core.js';
import { refusalOnBooking, unseenText } from '../guards/booking-access.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import { recordedText, statusThreadMessage } from './blocks.js';

/**
 * What recording a status uses of the core: its register hands the whole core on, and each
 * working function takes only the part of this it uses.
 */
export type StatusDeps = Pick<
  Core,
  'store' | 'schemas' | 'logger' | 'access' | 'activity' | 'inFlight' | 'waybill' | 'bot'
>;

/** Times the card is redrawn when another status was recorded meanwhile: each round sees a newer one. */
const REDRAWS = 3;

/**
 * Records a status for a booking; the answer for the person, in words (`refused`: there is no such
 * booking, or it is not theirs to update in its own conversation: the same answer). A status it already has writes and posts nothing. The
 * card and the thread are told after, through `afterwards`.
 */
export async function recordStatus(
  deps: Pick<StatusDeps, 'store' | 'schemas' | 'logger' | 'access' | 'activity' | 'waybill'>,
  client: SlackClient,
  input: {
    userId: string;
    trackingNumber: string;
    choice: StatusChoice;
    /** When it happened, as a courier's file says; by default, now. */
    at?: Date;
    /** Asked once the person may see the booking: why the status must not go over the latest one (nothing written). */
    conflict?: (latest: StatusEntry | undefined) => string | undefined;
  },
): Promise<{ text: string; recorded?: StatusEntry; refused?: true; conflict?: true }> {
  const { userId, trackingNumber, choice } = input;
  const known = await storedBooking(deps, trackingNumber);
  if (!known) return { text: unseenText(trackingNumber, 'update'), refused: true };
  const refused = await refusalOnBooking(deps, { client, userId }, 'update', known.record);
  if (refused) return { text: refused, refused: true };
  const conflict = input.conflict?.(await deps.store.statuses.latest(trackingNumber));
  if (conflict) return { text: conflict, conflict: true };
  const result = await recordParcelStatus(deps, {
    userId,
    trackingNumber,
    choice,
    ...(input.at ? { at: input.at } : {}),
  });
  return {
    text: recordedText(
      { trackingNumber, receiver: known.booking.consignee.name },
      result,
      deps.waybill.timeZone,
    ),
    ...(result.recorded ? { recorded: result.entry } : {}),
  };
}

/**
 * After a status is recorded: every card of the booking shows the latest status (redrawn again if
 * another replica recorded a newer one meanwhile, so the last edit shows the last status), and
 * the status gets its line in each card's thread (a booking from a file: in its import's thread).
 */
export async function tellCards(
  deps: Pick<StatusDeps, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot'>,
  client: SlackClient,
  entry: StatusEntry,
): Promise<void> {
  const known = await storedBooking(deps, entry.trackingNumber);
  if (!known) return;
  const message = statusThreadMessage(entry);
  for (const place of await threadPlaces(deps, known.record)) {
    await client.chat
      .postMessage({ channel: place.channel, thread_ts: place.ts, ...message })
      .catch((err: unknown) =>
        deps.logger.warn({ err, trackingNumber: entry.trackingNumber }, 'status not posted in the thread'),
      );
  }
  const places = cardPlaces(deps, known.record);
  let shown: number | undefined;
  for (let round = 0; places.length > 0 && round < REDRAWS; round++) {
    const latest = await deps.store.statuses.latest(entry.trackingNumber);
    if (!latest || latest.seq === shown) return;
    const card = await storedBookingCard(deps, known.record, known.booking, known.record.updatedBy, latest);
    for (const place of places) {
      await client.chat.update({ channel: place.channel, ts: place.ts, ...card }).catch((err: unknown) => {
        deps.logger.warn({ err, trackingNumber: entry.trackingNumber }, 'booking card could not be edited');
      });
    }
    shown = latest.seq;
  }
}

/** Records a status and, after the answer, tells the cards; what to say to the person. */
export async function recordAndTell(
  deps: StatusDeps,
  client: SlackClient,
  input: { userId: string; trackingNumber: string; choice: StatusChoice },
): Promise<string> {
  const { text, recorded } = await recordStatus(deps, client, input);
  if (recorded) {
    deps.inFlight.run('status cards', () => tellCards(deps, client, recorded), {
      client,
      userId: input.userId,
      what: `the cards and thread lines of \`${escapeMrkdwn(input.trackingNumber)}\``,
    });
  }
  return text;
}
