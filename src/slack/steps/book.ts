/**
 * book_waybill: a booking from a workflow, at most once per execution. The step's draft is keyed on
 * the function execution id, so a delivery again finds the first one's draft, number and attempt,
 * and is answered with its outcome; the booking goes the way every booking goes (operations/book.ts).
 */

import type { App } from '@slack/bolt';
import {
  type BegunBooking,
  type BookingAttemptResult,
  beginBooking,
  bookOnce,
  cardPlaceOf,
  chargeOf,
  trackingNumberFor,
} from '../../operations/book.js';
import type { Attempt, Draft, Store } from '../../store/index.js';
import { bookingOfRow, PENDING_TRACKING_NUMBER } from '../../waybill/csv/read-bookings.js';
import { zonedDateAfter } from '../../waybill/dates.js';
import { isCalendarDate } from '../../waybill/fields.js';
import { HOME_COUNTRY } from '../../waybill/phones.js';
import { applyProfile } from '../../waybill/profiles.js';
import { type BookingDraft, cardPoster } from '../book/index.js';
import { resolveActions } from '../booking/index.js';
import type { Core } from '../core.js';
import { stepActor } from '../guards/request-parts.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { Delivered, SlackClient } from '../runtime/delivery.js';
import { ids } from './ids.js';
import { type GivenInputs, refusal, type StepInputs, schemaInput } from './inputs.js';
import { runStep, type StepEnd, stepRequires } from './send.js';

const bookInputs: StepInputs = {
  receiver_name: 'consignee.name',
  receiver_phone: 'consignee.phone',
  receiver_address: 'consignee.street',
  receiver_barangay: 'consignee.barangay',
  receiver_city: 'consignee.city',
  receiver_province: 'consignee.region',
  receiver_postal: 'consignee.postal',
  cod_amount: 'codAmount',
  declared_value: 'declaredValue',
  weight_kg: 'package.weight',
  parcels: 'quantity',
  item_description: 'itemDescription',
  pickup_date: 'pickupAt.date',
};

/** A booking made by a step keeps what the quote it was priced with said, for a delivery again. */
type StepDraft = BookingDraft & { totalCharge?: string };

export type StepOutcome = 'booked' | 'refused' | 'unknown';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The first day after today (in WAYBILL_TIMEZONE) that is not a Saturday or a Sunday. */
function nextWorkingDay(now: Date, timeZone: string): string {
  for (let days = 1; ; days += 1) {
    const date = zonedDateAfter(now, days, timeZone);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return date;
  }
}

/** Why a booking step cannot book while the team has no sender profile, naming the setting. */
export const NO_SENDER_PROFILE =
  "sender_profile: the team's sender profile is needed to book from a workflow, and none is set up: set SENDER_PROFILES_FILE";

export const NO_SENDER_PROFILE_AT_START =
  'No sender profile is set up (SENDER_PROFILES_FILE): the workflow step book_waybill cannot book until one is';

/**
 * The booking's values from the step's inputs, over what a form would start with: the sender
 * profile named (the first configured one when empty), the catalogue's first service type and last
 * package type, cash on delivery when a COD amount is given, pickup at 09:00 and delivery by 17:00
 * the day after. Or why not, naming the input.
 */
function bookingValues(
  deps: Pick<Core, 'waybill' | 'profiles' | 'now'>,
  given: GivenInputs,
): { error: string } | { values: Record<string, unknown> } {
  const { catalog, timeZone } = deps.waybill;
  const named = typeof given.sender_profile === 'string' ? given.sender_profile.trim() : '';
  const profiles = deps.profiles.read();
  const profile = named ? profiles.find((p) => p.id === named) : profiles[0];
  // The sender's eleven fields come from a profile only: named one by one, none could be fixed in a workflow.
  if (profiles.length === 0) return { error: NO_SENDER_PROFILE };
  if (named && !profile) {
    const known = profiles.map((p) => p.id).join(', ') || 'none are set up';
    return { error: `sender_profile: Unknown sender profile "${named}" (${known})` };
  }
  const cod = given.cod_amount !== undefined && given.cod_amount !== null && given.cod_amount !== '';
  const pickup =
    typeof given.pickup_date === 'string' && given.pickup_date.trim()
      ? given.pickup_date.trim()
      : nextWorkingDay(deps.now(), timeZone);
  const base = {
    shipper: {},
    serviceType: catalog.serviceTypes[0]?.value,
    paymentMethod: cod
      ? catalog.codPaymentMethod
      : catalog.paymentMethods.find((m) => m.value !== catalog.codPaymentMethod)?.value,
    package: { type: catalog.packageTypes.at(-1)?.value },
    consignee: { country: HOME_COUNTRY },
    pickupAt: { date: pickup, time: '09:00' },
    ...(isCalendarDate(pickup) ? { expectedDeliveryAt: { date: dayAfter(pickup), time: '17:00' } } : {}),
  };
  return { values: schemaInput(given, bookInputs, profile ? applyProfile(base, profile) : base) };
}

const checkedBooking = (
  deps: Pick<Core, 'now' | 'schemas' | 'waybill'>,
  values: Record<string, unknown>,
  number: string,
) =>
  bookingOfRow(
    { schema: deps.schemas.booking, timeZone: deps.waybill.timeZone, now: deps.now() },
    values,
    number,
  );

/** A card's link, for the workflow's next steps; '' when Slack will not give one. */
async function cardLink(client: SlackClient, place: { channelId?: string; ts?: string }): Promise<string> {
  if (!place.channelId || !place.ts) return '';
  const answer = await client.chat
    .getPermalink({ channel: place.channelId, message_ts: place.ts })
    .catch(() => undefined);
  return answer?.permalink ?? '';
}

function outputs(
  outcome: StepOutcome,
  trackingNumber: string,
  more: { totalCharge?: string; link?: string } = {},
) {
  return {
    tracking_number: trackingNumber,
    total_charge: more.totalCharge ?? '',
    card_link: more.link ?? '',
    outcome,
  };
}

/** The outcome of the attempt a delivery before this one made: the same outputs again. */
async function answerEarlier(
  deps: { store: Pick<Store, 'bookings'> },
  client: SlackClient,
  draft: Draft<StepDraft>,
  attempt: Attempt<BookingAttemptResult>,
  end: StepEnd,
): Promise<void> {
  const number = attempt.trackingNumber ?? '';
  // Still at the courier: the delivery that began it ends the step.
  if (attempt.state === 'in-flight') return;
  if (attempt.state !== 'succeeded') {
    const outcome = attempt.state === 'failed' ? 'refused' : 'unknown';
    return void (await end.complete({ outputs: outputs(outcome, number) }));
  }
  const link = await cardLink(client, await cardPlaceOf(deps.store, number));
  await end.complete({ outputs: outputs('booked', number, { totalCharge: draft.data.totalCharge, link }) });
}

/** How far a delivery of the step got: whether an earlier one had made its draft, whether this one began the courier call. */
interface StepProgress {
  firstDelivery: boolean;
  begun: boolean;
}

/**
 * Whether a failed delivery sent nothing, by the call-once record: it never began the courier call,
 * and no delivery of the execution got as far as the draft every attempt is begun from (read
 * before the failure, or now, on a fresh connection).
 */
async function sentNothing(
  deps: { store: Pick<Store, 'drafts'> },
  execution: string,
  progress: StepProgress,
): Promise<boolean> {
  if (progress.begun) return false;
  if (progress.firstDelivery) return true;
  return (await deps.store.drafts.get(draftIdOf(execution))) === undefined;
}

const draftIdOf = (execution: string) => `step-${execution}`;

type BookStepDeps = Pick<
  Core,
  'activity' | 'bot' | 'courier' | 'logger' | 'now' | 'profiles' | 'schemas' | 'store' | 'waybill'
>;

async function bookStep(
  deps: BookStepDeps,
  client: SlackClient,
  execution: string,
  given: GivenInputs,
  end: StepEnd,
  progress: StepProgress,
): Promise<void> {
  const made = bookingValues(deps, given);
  if ('error' in made) return void (await end.fail({ error: made.error }));
  const checked = checkedBooking(deps, made.values, PENDING_TRACKING_NUMBER);
  if (!checked.ok) return void (await end.fail({ error: refusal(checked.errors, bookInputs) }));
  // The guard let only one person's ID and, where given, one channel's through (stepActor).
  const actor = stepActor(given);
  if (!actor.ok || !actor.channelId)
    return void (await end.fail({ error: 'channel_id: the channel for the booking card is needed' }));
  const { userId, channelId } = actor;
  // One draft, number and attempt per execution, whichever delivery (on whichever replica) is first.
  const draftId = draftIdOf(execution);
  const earlier = await deps.store.drafts.get<StepDraft>(draftId);
  progress.firstDelivery = earlier === undefined;
  const number = await trackingNumberFor(deps, draftId, { held: earlier?.data.generatedTrackingNumber });
  const kept = await deps.store.drafts.createOnce<StepDraft>(draftId, {
    kind: 'booking',
    userId,
    channelId,
    data: {
      input: made.values,
      step: 'review',
      parcels: 0,
      rev: 0,
      generatedTrackingNumber: number,
      bookedVia: 'workflow',
    },
  });
  if (!kept)
    return void (await end.fail({ error: 'This workflow run is too old to book: run the workflow again.' }));
  const { draft } = kept;
  const booking = checkedBooking(deps, draft.data.input, draft.data.generatedTrackingNumber ?? number);
  if (!booking.ok) return void (await end.fail({ error: refusal(booking.errors, bookInputs) }));
  // Kept with the booking, as the form's are: a workflow has no box to confirm a call with.
  const begin = await beginBooking(deps, {
    holder: draftId,
    booking: booking.value,
    who: { userId, channelId },
  });
  // An attempt is begun, by this delivery or an earlier one: a failure can no longer be "nothing sent".
  progress.begun = true;
  if (begin.state === 'answered') return answerEarlier(deps, client, draft, begin.attempt, end);
  const totalCharge = await chargeOf(deps, draft.data.input);
  await sendAndTell(deps, client, { draft, begun: begin.begun, totalCharge }, end);
}

/** The step's card: posted as a form's is; kept only with a message to link to. */
const stepCardNote = (delivered: Delivered) =>
  'ts' in delivered ? 'The booking card was posted.' : undefined;

async function sendAndTell(
  deps: BookStepDeps,
  client: SlackClient,
  { draft, begun, totalCharge }: { draft: Draft<StepDraft>; begun: BegunBooking; totalCharge: string },
  end: StepEnd,
): Promise<void> {
  const { trackingNumber } = begun.booking;
  const sent = await bookOnce(deps, begun, {
    postedNote: 'The booking card is being posted.',
    bookedVia: 'workflow',
    alsoRecord: (tx) =>
      tx.drafts.save<StepDraft>(draft.id, {
        ...draft.data,
        bookedTrackingNumber: trackingNumber,
        totalCharge,
      }),
    card: cardPoster(deps, client, { channelId: draft.channelId, userId: draft.userId }, stepCardNote),
  });
  if (sent.state === 'failed')
    return void (await end.complete({ outputs: outputs('refused', trackingNumber) }));
  if (sent.state === 'unknown') {
    // The usual Resolve path, where the booking would have gone: never sent again by itself.
    const text = `:warning: A workflow's booking \`${escapeMrkdwn(trackingNumber)}\` for <@${draft.userId}>: ${escapeMrkdwn(sent.message)}`;
    await client.chat
      .postMessage({
        channel: draft.channelId,
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, resolveActions(begun.attempt.key)],
      })
      .catch((err: unknown) =>
        deps.logger.error({ err, trackingNumber }, 'an unknown outcome could not be posted'),
      );
    return void (await end.complete({ outputs: outputs('unknown', trackingNumber) }));
  }
  const link = sent.state === 'done' && sent.card ? await cardLink(client, sent.card) : '';
  await end.complete({ outputs: outputs('booked', trackingNumber, { totalCharge, link }) });
}

export function register(app: App, deps: Core): void {
  app.function(
    ids.stepBook,
    stepRequires(deps, 'book'),
    async ({ inputs, complete, fail, client, event }) => {
      const end = { complete, fail };
      const execution = event.function_execution_id;
      const progress: StepProgress = { firstDelivery: false, begun: false };
      runStep(
        deps,
        ids.stepBook,
        end,
        () => bookStep(deps, client, execution, inputs, end, progress),
        () => sentNothing(deps, execution, progress),
      );
    },
  );
}
