/**
 * Resolve, on a booking whose courier outcome is unknown (its outcome modal, its private message):
 * the dispatcher checked with the courier and says what it has. "The courier has it" records the
 * booking (with the courier's reference if typed) and posts its card; "does not have it" records it
 * as not booked, which frees its claim, and offers Send again. Once, whoever answers first.
 */

import type { App, ViewSubmitAction } from '@slack/bolt';
import { teamScope } from '../../operations/access.js';
import { type BookingAttemptResult, placeCard, settleBooking } from '../../operations/book.js';
import { receiverCheck } from '../../operations/receiver-record.js';
import type { Attempt, Draft } from '../../store/index.js';
import {
  bookingIds,
  type Resolution,
  resolveButton,
  resolvedMeanwhile,
  resolveSubmission,
  type Settled,
  unresolvedWithDraft,
} from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, refusalOnBooking } from '../guards/booking-access.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { cardPoster } from './card.js';
import { type BookDeps, bookingMetadata, validateDraft } from './draft.js';
import type { BookingDraft } from './form.js';
import { bookingDoneView, resolvedNotBookedView } from './outcome-view.js';

/**
 * The unknown booking a Resolve names, with its draft; or why it cannot be resolved, in words.
 * Not booked yet, it belongs to the conversation its draft was made for.
 */
async function unresolved(deps: Pick<BookDeps, 'store' | 'access' | 'logger'>, key: string, asker: Asker) {
  const found = await unresolvedWithDraft<BookingAttemptResult, BookingDraft>(deps, key, 'booking');
  if (typeof found === 'string') return found;
  const booking = { trackingNumber: found.attempt.trackingNumber ?? '', channelId: found.draft.channelId };
  return (await refusalOnBooking(deps, asker, 'update', booking)) ?? found;
}

/** Records what the person answered, once (settleBooking); the card of a booking the courier has is posted after. */
async function settle(
  deps: Pick<BookDeps, 'store' | 'logger' | 'now' | 'activity' | 'inFlight' | 'waybill' | 'schemas' | 'bot'>,
  { attempt, draft }: { attempt: Attempt; draft: Draft<BookingDraft> },
  { verdict, reference, userId, client }: Resolution,
): Promise<Settled> {
  const { env } = deps.waybill;
  const trackingNumber = attempt.trackingNumber ?? '';
  const metadata = bookingMetadata(draft);
  const key = attempt.key;
  if (verdict === 'notBooked') {
    const settled = await settleBooking(deps, { key, trackingNumber, decidedBy: userId });
    return settled.state === 'not booked'
      ? { view: resolvedNotBookedView(trackingNumber, env, metadata) }
      : resolvedMeanwhile;
  }
  const validated = validateDraft(deps, draft.data);
  if (!validated.ok) return resolvedMeanwhile;
  const booking = {
    ...validated.value,
    trackingNumber: attempt.trackingNumber ?? validated.value.trackingNumber,
  };
  const note = 'The booking card is being posted.';
  const bookedBy = attempt.userId ?? userId;
  // The record as it is now, with the call confirmed at Confirm booking if it was: kept like any booking's.
  const receiver = await receiverCheck(
    deps.store,
    deps.bot.receiverRisk,
    booking.consignee,
    teamScope(deps.bot.access),
    draft.data.receiverConfirmedBy,
  );
  const settled = await settleBooking(deps, {
    key,
    trackingNumber: booking.trackingNumber,
    decidedBy: userId,
    booked: {
      booking,
      trackingRefNo: reference,
      channelId: draft.channelId,
      bookedBy,
      ...(receiver ? { receiver } : {}),
      ...(draft.data.bookedVia ? { bookedVia: draft.data.bookedVia } : {}),
      postedNote: note,
      alsoRecord: (tx) =>
        tx.drafts.save<BookingDraft>(draft.id, {
          ...draft.data,
          bookedTrackingNumber: booking.trackingNumber,
        }),
    },
  });
  if (settled.state !== 'booked' || !settled.recorded) return resolvedMeanwhile;
  const saved = settled.recorded;
  const post = async () => {
    const card = {
      booking,
      trackingRefNo: reference,
      bookedBy,
      bookedAt: settled.bookedAt,
      ...(receiver ? { receiver } : {}),
      ...(draft.data.bookedVia ? { bookedVia: draft.data.bookedVia } : {}),
    };
    const destination = {
      channelId: saved.channelId,
      userId: saved.userId,
      responseUrl: saved.data.responseUrl,
    };
    await placeCard(deps, card, cardPoster(deps, client, destination));
  };
  deps.inFlight.run('resolved booking card', post, {
    client,
    userId,
    what: `the card of \`${escapeMrkdwn(trackingNumber)}\``,
  });
  return {
    view: bookingDoneView(trackingNumber, { trackingRefNo: reference || 'not given' }, note, env, metadata),
  };
}

export function register(app: App, deps: Core): void {
  const find = (key: string, asker: Asker) => unresolved(deps, key, asker);
  app.action<ButtonClick, Told>(
    bookingIds.resolveOpen,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    resolveButton(deps, bookingIds.resolveForm, find),
  );
  app.view<ViewSubmitAction>(
    bookingIds.resolveForm,
    requires(deps, 'update'),
    resolveSubmission(find, (found, resolution) => settle(deps, found, resolution)),
  );
}
