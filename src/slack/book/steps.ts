/** The booking modal's steps: which step a draft is shown at, that step rendered (pure), and showing it. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { Draft } from '../../store/index.js';
import {
  type Booking,
  type FieldError,
  placeProblemsOf,
  postalWarningsOf,
  type Validation,
} from '../../waybill/schemas.js';
import { toBookingWire } from '../../waybill/wire.js';
import { saveToShow } from '../kit/drafts.js';
import { type BookDeps, bookingMetadata, errorsOfStep, validateDraft } from './draft.js';
import { type BookingDraft, type BookingStep, bookingSpec, bookingSteps } from './form.js';
import { receiverReviewOf } from './receiver-record.js';
import { bookingReviewView } from './review-view.js';
import { bookingStepView } from './step-view.js';

/** What showing a step reads: the settings, the schemas, the sender profiles, how many parcels a booking may have. */
export type Shows = Pick<BookDeps, 'waybill' | 'schemas' | 'profiles'> & {
  bot: Pick<BookDeps['bot'], 'maxParcels'>;
};

/** A step to show and the notices on top of it; at the review, the booking it shows, validated once. */
export type ShownStep =
  | { step: Exclude<BookingStep, 'review'>; notices: string[] }
  | { step: 'review'; notices: string[]; booking: Booking };

/** The steps with inputs: every field's problem is shown on one of them. */
const formSteps = bookingSteps.filter((s): s is Exclude<BookingStep, 'review'> => s !== 'review');

/** Instead of a review of a draft that is not a valid booking: the first step with a problem, naming a few. */
function firstProblem(deps: Pick<BookDeps, 'waybill'>, data: BookingDraft, errors: FieldError[]): ShownStep {
  const step = formSteps.find((s) => errorsOfStep(deps, data, s, errors).length > 0) ?? 'shipment';
  const problems = errorsOfStep(deps, data, step, errors).map((e) => e.message);
  // A modal holds 100 blocks: name a few problems; the rest show inline when Next is pressed.
  const notices =
    problems.length > 3 ? [...problems.slice(0, 3), `…and ${problems.length - 3} more`] : problems;
  return { step, notices };
}

/**
 * The step the draft is shown at when `step` is asked for: the review only of a valid booking
 * (only a skipped step makes it otherwise), else the first step with a problem and the problems.
 * The draft is validated here unless the caller has just done so (`validated`), and the review shows
 * the booking validated.
 */
export function stepToShow(
  deps: Pick<BookDeps, 'waybill' | 'schemas'>,
  data: BookingDraft,
  step: BookingStep,
  notices: string[] = [],
  validated?: Validation<Booking>,
): ShownStep {
  if (step !== 'review') return { step, notices };
  const result = validated ?? validateDraft(deps, data);
  return result.ok ? { step, notices, booking: result.value } : firstProblem(deps, data, result.errors);
}

/** The draft's step as a view, with its rev in the inputs' block ids; pure. */
export function renderStep(deps: Shows, draft: Draft<BookingDraft>, notices: string[] = []): ModalView {
  return renderShown(deps, draft, stepToShow(deps, draft.data, draft.data.step, notices));
}

/** The step worked out already (stepToShow) as a view; pure. */
function renderShown(
  deps: Shows,
  draft: Draft<BookingDraft>,
  shown: ShownStep,
  receiver: KnownBlock[] = [],
): ModalView {
  if (shown.step === 'review') {
    const { booking } = shown;
    const review = bookingReviewView({
      wire: toBookingWire(booking, deps.waybill.timeZone),
      env: deps.waybill.env,
      metadata: bookingMetadata(draft),
      timeZone: deps.waybill.timeZone,
      currency: deps.waybill.currency,
      catalog: deps.waybill.catalog,
      origin: draft.data.origin,
      warnings: [
        ...(deps.waybill.placeCheck === 'warn'
          ? placeProblemsOf(booking).map((problem) => problem.message)
          : []),
        ...postalWarningsOf(booking),
      ],
    });
    // The receiver's record first: read before anything else on the review.
    return { ...review, blocks: [...receiver, ...review.blocks] };
  }
  return bookingStepView({
    step: shown.step,
    draft: draft.data,
    catalog: deps.waybill.catalog,
    currency: deps.waybill.currency,
    required: bookingSpec(deps).required,
    profiles: deps.profiles.read(),
    maxParcels: deps.bot.maxParcels,
    env: deps.waybill.env,
    metadata: bookingMetadata(draft),
    notices: shown.notices,
  });
}

/**
 * Saves the draft at the step it is shown at (a new rev, so Slack shows the draft's values) and renders it;
 * `validated` is the draft's validation when the caller already has it.
 */
export async function showStep(
  deps: Shows & Pick<BookDeps, 'store' | 'bot'>,
  draft: Draft<BookingDraft>,
  step: BookingStep,
  notices: string[] = [],
  validated?: Validation<Booking>,
): Promise<ModalView> {
  const shown = stepToShow(deps, draft.data, step, notices, validated);
  const saved = await saveToShow(deps.store.drafts, draft, { step: shown.step });
  const receiver =
    shown.step === 'review' ? await receiverReviewOf(deps, shown.booking, draft.channelId) : [];
  return renderShown(deps, saved, shown, receiver);
}
