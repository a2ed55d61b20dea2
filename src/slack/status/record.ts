/** Recording a parcel's status: checked, stored in order, the card redrawn, a line in its thread, an audit row. No courier call. */
import type { StatusEntry } from '../../store/index.js';
import {
  type FailureReason,
  isFailureReason,
  isParcelStatus,
  type ParcelStatus,
  STATUS_NOTE_MAX,
  statusLabel,
} from '../../waybill/statuses.js';
import { cardPlaces, storedBooking, storedBookingCard } from '../booking/index.js';
import type { Core } from '../core.js';
import { refusalOnBooking } from '../guards/booking-access.js';
import type { SlackClient } from '../kit/delivery.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { recordedText, statusThreadMessage } from './blocks.js';

export interface StatusChoice {
  status: ParcelStatus;
  reason?: FailureReason;
  note?: string;
}

/** Times the card is redrawn when another status was recorded meanwhile: each round sees a newer one. */
const REDRAWS = 3;

/** A status, a reason and a note as chosen or typed: the choice, or what is wrong, by field. */
export function checkStatus(input: {
  status?: string;
  reason?: string;
  note?: string;
}):
  | { ok: true; value: StatusChoice }
  | { ok: false; errors: Partial<Record<'status' | 'reason' | 'note', string>> } {
  const note = input.note?.trim() || undefined;
  if (!input.status || !isParcelStatus(input.status))
    return { ok: false, errors: { status: 'Choose what happened to the parcel.' } };
  const status = input.status;
  if (note && note.length > STATUS_NOTE_MAX)
    return { ok: false, errors: { note: `Keep the note to ${STATUS_NOTE_MAX} characters.` } };
  if (status !== 'failed_attempt' && input.reason)
    return { ok: false, errors: { reason: 'A reason goes with a failed attempt only.' } };
  if (status === 'failed_attempt') {
    if (!input.reason || !isFailureReason(input.reason))
      return { ok: false, errors: { reason: 'Say why the attempt failed.' } };
    if (input.reason === 'other' && !note)
      return { ok: false, errors: { note: 'Say what happened: the reason is Other.' } };
    return { ok: true, value: { status, reason: input.reason, ...(note ? { note } : {}) } };
  }
  if (status === 'cancelled' && !note) {
    return {
      ok: false,
      errors: {
        note: 'Say how it was cancelled with the courier (phone, portal): the bot cannot cancel it.',
      },
    };
  }
  return { ok: true, value: { status, ...(note ? { note } : {}) } };
}

type Recorded = { recorded: true; entry: StatusEntry } | { recorded: false; current: StatusEntry };

/**
 * Records a status for a booking; the answer for the person, in words (`refused`: the booking is not
 * theirs to update in its own conversation). A status it already has writes and posts nothing. The
 * card and the thread are told after, through `afterwards`.
 */
export async function recordStatus(
  deps: Core,
  client: SlackClient,
  input: { userId: string; trackingNumber: string; choice: StatusChoice },
): Promise<{ text: string; recorded?: StatusEntry; refused?: true }> {
  const { userId, trackingNumber, choice } = input;
  const known = await storedBooking(deps, trackingNumber);
  if (!known) return { text: `I have no record of waybill \`${escapeMrkdwn(trackingNumber)}\`.` };
  const refused = await refusalOnBooking(deps, { client, userId }, 'update', known.record);
  if (refused) return { text: refused, refused: true };
  const result: Recorded = await deps.store.statuses.record({ trackingNumber, userId, ...choice });
  if (!result.recorded) return { text: recordedText(trackingNumber, result) };
  await deps.store.audit.record({
    userId,
    operation: 'status',
    trackingNumber,
    outcome: 'ok',
    detail: `recorded ${statusLabel(choice.status, choice.reason)}${choice.note ? `: ${choice.note}` : ''}`,
  });
  deps.activity.changed(userId);
  return { text: recordedText(trackingNumber, result), recorded: result.entry };
}

/**
 * After a status is recorded: every card of the booking shows the latest status (redrawn again if
 * another replica recorded a newer one meanwhile, so the last edit shows the last status), and
 * the status gets its line in each card's thread.
 */
export async function tellCards(deps: Core, client: SlackClient, entry: StatusEntry): Promise<void> {
  const known = await storedBooking(deps, entry.trackingNumber);
  if (!known) return;
  const places = cardPlaces(deps, known.record);
  const message = statusThreadMessage(entry);
  for (const place of places) {
    await client.chat
      .postMessage({ channel: place.channel, thread_ts: place.ts, ...message })
      .catch((err: unknown) =>
        deps.logger.warn({ err, trackingNumber: entry.trackingNumber }, 'status not posted in the thread'),
      );
  }
  let shown: number | undefined;
  for (let round = 0; round < REDRAWS; round++) {
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
  deps: Core,
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
