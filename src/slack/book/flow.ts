/** A booking from steps to card: the draft, each step's view, sending once, storing, and posting the card. */
import type { ModalView } from '@slack/types';
import type { Draft } from '../../store/index.js';
import { bookingDefaults, toBookingInput } from '../../waybill/booking-input.js';
import { type Booking, type FieldError, type Validation, validate } from '../../waybill/schemas.js';
import { toBookingWire } from '../../waybill/wire.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import type { BotDeps } from '../deps.js';
import { beginAttempt, bookingAttempt } from '../shared/attempts.js';
import { notice } from '../shared/blocks.js';
import { bookingCard } from '../shared/booking-card.js';
import { type BookingAttemptResult, sendBooking } from '../shared/booking-send.js';
import {
  type Delivered,
  deliveredNote,
  postToChannel,
  postToUser,
  type SlackClient,
} from '../shared/delivery.js';
import { getPath, mergeInput, readFormState, type StateValues } from '../shared/forms.js';
import { draftOfView, viewMetadata } from '../shared/ids.js';
import { type SendStep, showInModal } from '../shared/modal.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import {
  bookingDoneView,
  bookingFailedView,
  bookingInFlightView,
  bookingReviewView,
  bookingStepView,
  bookingUnknownView,
  bookingWorkingView,
} from './blocks.js';
import {
  type BookingDraft,
  type BookingOrigin,
  type BookingStep,
  bookingSteps,
  stepOfPath,
  stepTitles,
} from './form.js';

export function bookingMetadata(draft: Draft<BookingDraft>): string {
  return viewMetadata({ draftId: draft.id });
}

export function createBookingDraft(
  deps: BotDeps,
  where: { userId: string; channelId: string; responseUrl?: string },
  input: Record<string, unknown>,
  origin?: BookingOrigin,
): Promise<Draft<BookingDraft>> {
  const parcels = Array.isArray(input.childWaybills)
    ? Math.min(input.childWaybills.length, deps.bot.maxParcels)
    : 0;
  return deps.store.drafts.create<BookingDraft>({
    kind: 'booking',
    userId: where.userId,
    channelId: where.channelId,
    data: {
      input: { ...bookingDefaults(deps.now(), deps.waybill.timeZone, deps.waybill.catalog), ...input },
      step: 'shipment',
      parcels,
      rev: 0,
      responseUrl: where.responseUrl,
      ...(origin ? { origin } : {}),
    },
  });
}

/** The booking the draft describes, validated by the one Booking schema. */
export function validateDraft(deps: BotDeps, data: BookingDraft): Validation<Booking> {
  const input = toBookingInput(data.input, {
    trackingNumber: data.generatedTrackingNumber ?? '',
    timeZone: deps.waybill.timeZone,
    parcels: data.parcels,
  });
  return validate(deps.schemas.booking, input);
}

/** The errors a step can show inline: those about its own fields. */
export function errorsOfStep(
  deps: BotDeps,
  data: BookingDraft,
  step: BookingStep,
  errors: FieldError[],
): FieldError[] {
  return errors.filter((error) => stepOfPath(error.path, deps.waybill.catalog, data.parcels) === step);
}

/** Saves the draft at a step (a new rev, so Slack shows the draft's values) and renders that step. */
export async function showStep(
  deps: BotDeps,
  draft: Draft<BookingDraft>,
  step: BookingStep,
  notices: string[] = [],
): Promise<ModalView> {
  const saved = await deps.store.drafts.save<BookingDraft>(draft.id, {
    ...draft.data,
    step,
    rev: draft.data.rev + 1,
  });
  if (step === 'review') {
    const result = validateDraft(deps, saved.data);
    if (result.ok) {
      return bookingReviewView({
        wire: toBookingWire(result.value, deps.waybill.timeZone),
        env: deps.waybill.env,
        metadata: bookingMetadata(saved),
        timeZone: deps.waybill.timeZone,
        currency: deps.waybill.currency,
        origin: saved.data.origin,
      });
    }
    // Only reachable if a step was skipped: show the first step with a problem, and the problems.
    const first =
      bookingSteps.find((s) => errorsOfStep(deps, saved.data, s, result.errors).length > 0) ?? 'shipment';
    const problems = errorsOfStep(deps, saved.data, first, result.errors).map((e) => e.message);
    // A modal holds 100 blocks: name a few problems; the rest show inline when Next is pressed.
    const named =
      problems.length > 3 ? [...problems.slice(0, 3), `…and ${problems.length - 3} more`] : problems;
    return showStep(deps, saved, first, named);
  }
  return bookingStepView({
    step,
    draft: saved.data,
    catalog: deps.waybill.catalog,
    currency: deps.waybill.currency,
    required: deps.forms.booking.required,
    profiles: deps.profiles,
    maxParcels: deps.bot.maxParcels,
    env: deps.waybill.env,
    metadata: bookingMetadata(saved),
    notices,
  });
}

/**
 * The next free generated number, held for this draft, unless the dispatcher typed one or one was
 * already handed out.
 */
export async function withTrackingNumber(
  deps: BotDeps,
  draftId: string,
  data: BookingDraft,
): Promise<BookingDraft> {
  const typed = typeof data.input.trackingNumber === 'string' && data.input.trackingNumber.trim() !== '';
  if (typed || data.generatedTrackingNumber) return data;
  const generated = await deps.store.trackingNumbers.next(deps.bot.trackingPrefix, draftId);
  return { ...data, generatedTrackingNumber: generated };
}

/** What the modal shows for an attempt already made with this key (a double click, a replay). */
export function viewOfAttempt(
  deps: BotDeps,
  draft: Draft<BookingDraft>,
  trackingNumber: string,
  attempt: { state: string; result?: BookingAttemptResult },
) {
  const { env } = deps.waybill;
  const metadata = bookingMetadata(draft);
  const result = attempt.result;
  if (attempt.state === 'succeeded' && result && 'trackingRefNo' in result) {
    return bookingDoneView(trackingNumber, result, result.postedNote, env, metadata);
  }
  const message = result && 'message' in result ? result.message : '';
  if (attempt.state === 'failed') return bookingFailedView(message, env, metadata);
  if (attempt.state === 'unknown') {
    return bookingUnknownView(
      message || `Booking outcome unknown: ${trackingNumber} may or may not have been created.`,
      env,
      metadata,
    );
  }
  return bookingInFlightView(trackingNumber, env, metadata);
}

/**
 * Where a card went is worth keeping but not worth failing a booking for: without it, an update is
 * told in the channel instead of in the card's thread.
 */
function cardPlaceLost(deps: BotDeps, trackingNumber: string) {
  return (err: unknown) =>
    deps.logger.warn({ err, trackingNumber }, 'where the booking card went could not be recorded');
}

async function postCard(
  deps: BotDeps,
  client: SlackClient,
  draft: Draft<BookingDraft>,
  card: ReturnType<typeof bookingCard>,
): Promise<Delivered | undefined> {
  const trackingNumber = draft.data.bookedTrackingNumber ?? '';
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const delivered = await postToChannel(client, destination, card, deps.logger).catch((err: unknown) => {
    deps.logger.error({ err, trackingNumber }, 'booking card could not be posted');
    return undefined;
  });
  const notRecorded = cardPlaceLost(deps, trackingNumber);
  if (delivered && 'ts' in delivered) {
    await deps.store.bookings
      .setCard(trackingNumber, { cardChannelId: delivered.channelId, cardTs: delivered.ts })
      .catch(notRecorded);
  }
  const audit = deps.bot.auditChannelId;
  if (audit && audit !== delivered?.channelId) {
    const posted = await client.chat.postMessage({ channel: audit, ...card }).catch((err: unknown) => {
      deps.logger.error(
        { err, trackingNumber, channel: audit },
        'booking card could not be posted to the audit channel',
      );
      return undefined;
    });
    if (posted?.ts)
      await deps.store.bookings.setCard(trackingNumber, { auditCardTs: posted.ts }).catch(notRecorded);
  }
  return delivered;
}

/** Why a typed tracking number cannot be sent, naming the field; undefined when this draft holds it. */
async function trackingNumberTaken(deps: BotDeps, draft: Draft<BookingDraft>, booking: Booking) {
  const { trackingNumber } = booking;
  // A generated number was reserved for this draft when it was handed out.
  if (trackingNumber === draft.data.generatedTrackingNumber) return undefined;
  if (await deps.store.trackingNumbers.reserve(trackingNumber, draft.id)) return undefined;
  return `Tracking number: \`${escapeMrkdwn(trackingNumber)}\` is already used by another booking, so nothing was sent. Type another one, or leave it empty for the next free one.`;
}

/**
 * Records the booking as an attempt and, if it may go, answers "Booking…" with the courier call to
 * run; otherwise the outcome of the attempt already made. A typed tracking number is first
 * reserved for this draft, so two drafts with one number never both reach the courier. An edited
 * booking is a new attempt, but never while an earlier one of the same draft and tracking number
 * is under way, done or of unknown outcome (the courier may have it already).
 */
export async function startBooking(
  deps: BotDeps,
  client: SlackClient,
  input: { viewId: string; draft: Draft<BookingDraft>; booking: Booking; again?: 'failed' },
): Promise<SendStep> {
  const { viewId, draft, booking } = input;
  const taken = await trackingNumberTaken(deps, draft, booking);
  if (taken) return { started: false, view: await showStep(deps, draft, 'shipment', [taken]) };
  const request = toBookingWire(booking, deps.waybill.timeZone);
  const attempt = bookingAttempt(draft.id, request);
  const who = { userId: draft.userId, channelId: draft.channelId, viewId };
  const begun = await beginAttempt<BookingAttemptResult>(deps.store, attempt, who, { again: input.again });
  if (!begun.started) {
    return { started: false, view: viewOfAttempt(deps, draft, booking.trackingNumber, begun.attempt) };
  }
  return {
    started: true,
    view: bookingWorkingView(booking.trackingNumber, deps.waybill.env, bookingMetadata(draft)),
    work: () => runBooking(deps, client, { viewId, draft, booking, key: attempt.key, request }),
  };
}

/** Under "Booked" while the database does not answer after the courier booked. */
const recordedLaterNote =
  ":hourglass_flowing_sand: The bot's database is not answering, so this booking is not recorded yet: the bot keeps trying, and posts the booking card once it is. Do not book it again.";

/** Under "Booked" when the database never answered: the dispatcher holds the only record. */
const unrecordedNote =
  'But the bot could not record it: its database did not answer. No booking card was posted and `/waybill` does not know this waybill. Do not book it again; tell whoever runs the bot.';

/** Shown in the modal, or as a message to the dispatcher when the modal was closed. */
async function showOrTell(
  client: SlackClient,
  draft: Draft<BookingDraft>,
  viewId: string,
  view: ModalView,
  message: { emoji: string; text: string },
): Promise<void> {
  if (!(await showInModal(client, viewId, view))) {
    await postToUser(client, draft, notice(message.emoji, message.text));
  }
}

/**
 * After "Booking…" is on screen: the booking sent once and recorded (sendBooking: the booking, its
 * parties in the address book, the attempt's outcome and the audit entry, with the draft marked
 * booked in the same transaction); then the card is posted and the outcome shown (as a message if
 * the modal was closed).
 */
async function runBooking(
  deps: BotDeps,
  client: SlackClient,
  {
    viewId,
    draft,
    booking,
    key,
    request,
  }: {
    viewId: string;
    draft: Draft<BookingDraft>;
    booking: Booking;
    key: string;
    request: BookingRequestWire;
  },
): Promise<void> {
  const { env, catalog, currency } = deps.waybill;
  const { trackingNumber } = booking;
  const metadata = bookingMetadata(draft);
  const sent = await sendBooking(deps, {
    key,
    request,
    booking,
    userId: draft.userId,
    channelId: draft.channelId,
    postedNote: 'The booking card is being posted.',
    alsoRecord: (tx) =>
      tx.drafts.save<BookingDraft>(draft.id, { ...draft.data, bookedTrackingNumber: trackingNumber }),
    waiting: (result) =>
      showInModal(client, viewId, bookingDoneView(trackingNumber, result, recordedLaterNote, env, metadata)),
  });
  if (sent.state === 'failed' || sent.state === 'unknown') {
    const view =
      sent.state === 'failed'
        ? bookingFailedView(sent.message, env, metadata)
        : bookingUnknownView(sent.message, env, metadata);
    await showOrTell(client, draft, viewId, view, { emoji: ':warning:', text: escapeMrkdwn(sent.message) });
    return;
  }
  const { result } = sent;
  if (sent.state === 'unrecorded' || !sent.recorded) {
    const booked = `Booked \`${escapeMrkdwn(trackingNumber)}\`, courier reference \`${escapeMrkdwn(result.trackingRefNo)}\`.`;
    const view = bookingDoneView(trackingNumber, result, `:warning: ${unrecordedNote}`, env, metadata);
    await showOrTell(client, draft, viewId, view, {
      emoji: ':warning:',
      text: `${booked} ${unrecordedNote}`,
    });
    return;
  }
  const card = bookingCard({
    booking,
    trackingRefNo: result.trackingRefNo,
    bookedBy: draft.userId,
    bookedAt: sent.bookedAt,
    catalog,
    currency,
    env,
  });
  const delivered = await postCard(deps, client, sent.recorded, card);
  const postedNote = delivered
    ? deliveredNote(delivered)
    : 'Slack did not accept the booking card; the booking is stored.';
  await deps.store.attempts
    .finish<BookingAttemptResult>(key, 'succeeded', { trackingRefNo: result.trackingRefNo, postedNote })
    .catch(cardPlaceLost(deps, trackingNumber));
  await showInModal(client, viewId, bookingDoneView(trackingNumber, result, postedNote, env, metadata));
}

/** Someone's booking drafts not sent yet, the latest first: what the Home tab offers to resume. */
export async function openBookingDrafts(
  deps: BotDeps,
  userId: string,
  limit: number,
): Promise<{ id: string; receiver: string; step: string; savedAt: Date }[]> {
  // Booked drafts stay until they expire: read a few more than are shown.
  const drafts = await deps.store.drafts.listOpen<BookingDraft>({
    userId,
    kind: 'booking',
    limit: limit * 4,
  });
  return drafts
    .filter((draft) => !draft.data.bookedTrackingNumber)
    .slice(0, limit)
    .map((draft) => {
      const name = getPath(draft.data.input, 'consignee.name');
      return {
        id: draft.id,
        receiver: typeof name === 'string' ? name.trim() : '',
        step: stepTitles[draft.data.step],
        savedAt: draft.updatedAt,
      };
    });
}

/** The booking draft a modal belongs to (its private_metadata holds only the draft id). */
export function bookingDraftOfView(deps: BotDeps, privateMetadata: string | undefined) {
  return draftOfView<BookingDraft>(deps.store.drafts, privateMetadata, 'booking');
}

/**
 * The draft's data with what the step on screen holds typed in. Not saved yet: the caller saves it
 * once (showStep does), so nothing typed is lost and nothing is written twice.
 */
export function withTyped(data: BookingDraft, values: StateValues | undefined): BookingDraft {
  if (data.step === 'review') return data;
  return { ...data, input: mergeInput(data.input, readFormState(values)) };
}
