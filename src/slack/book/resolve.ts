/**
 * Resolve, on a booking whose courier outcome is unknown (its outcome modal, its private message):
 * the dispatcher checked with the courier and says what it has. "The courier has it" records the
 * booking (with the courier's reference if typed) and posts its card; "does not have it" records it
 * as not booked, which frees its claim, and offers Send again. Once, whoever answers first.
 */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BookingAttemptResult } from '../../operations/book.js';
import { settleUnknown } from '../../operations/resolve.js';
import type { Attempt, Draft } from '../../store/index.js';
import {
  bookingCard,
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
import { bookingDoneView, resolvedNotBookedView } from './blocks.js';
import { bookingMetadata, validateDraft } from './draft.js';
import type { BookingDraft } from './form.js';
import { postCard } from './send.js';

/**
 * The unknown booking a Resolve names, with its draft; or why it cannot be resolved, in words.
 * Not booked yet, it belongs to the conversation its draft was made for.
 */
async function unresolved(deps: Core, key: string, asker: Asker) {
  const found = await unresolvedWithDraft<BookingAttemptResult, BookingDraft>(deps, key, 'booking');
  if (typeof found === 'string') return found;
  const booking = { trackingNumber: found.attempt.trackingNumber ?? '', channelId: found.draft.channelId };
  return (await refusalOnBooking(deps, asker, 'update', booking)) ?? found;
}

/** "The courier has it": the booking stored, the attempt settled and audited, the draft booked; once. */
async function recordBooked(
  deps: Pick<Core, 'store' | 'logger' | 'now' | 'waybill' | 'schemas'>,
  input: { attempt: Attempt; draft: Draft<BookingDraft>; userId: string; reference: string },
) {
  const { attempt, draft, userId, reference } = input;
  const validated = validateDraft(deps, draft.data);
  if (!validated.ok) return undefined;
  const booking = {
    ...validated.value,
    trackingNumber: attempt.trackingNumber ?? validated.value.trackingNumber,
  };
  const { trackingNumber } = booking;
  const bookedAt = deps.now();
  const bookedBy = attempt.userId ?? userId;
  const settled = await settleUnknown(deps, {
    key: attempt.key,
    state: 'succeeded',
    result: {
      trackingRefNo: reference,
      postedNote: 'The booking card is being posted.',
    } satisfies BookingAttemptResult,
    audit: {
      userId,
      operation: 'resolve',
      trackingNumber,
      outcome: 'booked',
      detail: `the courier has it${reference ? ` (reference ${reference})` : ''}: decided by ${userId}`,
    },
    record: async (tx) => {
      await tx.bookings.insert({
        trackingNumber,
        trackingRefNo: reference,
        record: booking,
        channelId: draft.channelId,
        bookedBy,
        bookedAt,
        pickupAt: booking.pickupAt,
      });
      await tx.parties.save([booking.consignee, booking.shipper, booking.returnTo]);
      return tx.drafts.save<BookingDraft>(draft.id, { ...draft.data, bookedTrackingNumber: trackingNumber });
    },
  });
  return settled?.recorded && { booking, bookedAt, draft: settled.recorded, bookedBy };
}

/** "The courier does not have it": the attempt settled as failed (its claim freed), audited; once. */
async function recordNotBooked(
  deps: Pick<Core, 'store' | 'logger'>,
  attempt: Attempt,
  userId: string,
): Promise<boolean> {
  const settled = await settleUnknown(deps, {
    key: attempt.key,
    state: 'failed',
    result: {
      message: `Not booked: <@${userId}> checked with the courier, who does not have it.`,
    } satisfies BookingAttemptResult,
    audit: {
      userId,
      operation: 'resolve',
      trackingNumber: attempt.trackingNumber ?? '',
      outcome: 'not booked',
      detail: `the courier does not have it: decided by ${userId}`,
    },
  });
  return settled !== undefined;
}

/** Records what the person answered, once; the card of a booking the courier has is posted after. */
async function settle(
  deps: Core,
  { attempt, draft }: { attempt: Attempt; draft: Draft<BookingDraft> },
  { verdict, reference, userId, client }: Resolution,
): Promise<Settled> {
  const { env, catalog, currency } = deps.waybill;
  const trackingNumber = attempt.trackingNumber ?? '';
  const metadata = bookingMetadata(draft);
  if (verdict === 'notBooked') {
    const done = await recordNotBooked(deps, attempt, userId);
    return done ? { view: resolvedNotBookedView(trackingNumber, env, metadata) } : resolvedMeanwhile;
  }
  const booked = await recordBooked(deps, { attempt, draft, userId, reference });
  if (!booked) return resolvedMeanwhile;
  deps.activity.changed(userId);
  const post = async () => {
    const card = bookingCard({
      booking: booked.booking,
      trackingRefNo: reference,
      bookedBy: booked.bookedBy,
      bookedAt: booked.bookedAt,
      catalog,
      currency,
      env,
    });
    await postCard(deps, client, booked.draft, card);
  };
  deps.inFlight.run('resolved booking card', post, {
    client,
    userId,
    what: `the card of \`${escapeMrkdwn(trackingNumber)}\``,
  });
  const note = 'The booking card is being posted.';
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
