/** The booking modal's steps: which step a draft is shown at, that step rendered (pure), and showing it. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { Draft } from '../../store/index.js';
import { type FieldError, placeProblemsOf, postalWarningsOf } from '../../waybill/schemas.js';
import { toBookingWire } from '../../waybill/wire.js';
import type { Core } from '../core.js';
import { saveToShow } from '../kit/drafts.js';
import { bookingReviewView, bookingStepView } from './blocks.js';
import { bookingMetadata, errorsOfStep, validateDraft } from './draft.js';
import { type BookingDraft, type BookingStep, bookingSpec, bookingSteps } from './form.js';
import { receiverReviewOf } from './receiver-record.js';

/** A step to show and the notices on top of it. */
export interface ShownStep {
  step: BookingStep;
  notices: string[];
}

/** Instead of a review of a draft that is not a valid booking: the first step with a problem, naming a few. */
function firstProblem(deps: Pick<Core, 'waybill'>, data: BookingDraft, errors: FieldError[]): ShownStep {
  const step = bookingSteps.find((s) => errorsOfStep(deps, data, s, errors).length > 0) ?? 'shipment';
  const problems = errorsOfStep(deps, data, step, errors).map((e) => e.message);
  // A modal holds 100 blocks: name a few problems; the rest show inline when Next is pressed.
  const notices =
    problems.length > 3 ? [...problems.slice(0, 3), `…and ${problems.length - 3} more`] : problems;
  return { step, notices };
}

/**
 * The step the draft is shown at when `step` is asked for: the review only of a valid booking
 * (only a skipped step makes it otherwise), else the first step with a problem and the problems.
 */
export function stepToShow(
  deps: Pick<Core, 'waybill' | 'schemas'>,
  data: BookingDraft,
  step: BookingStep,
  notices: string[] = [],
): ShownStep {
  if (step !== 'review') return { step, notices };
  const result = validateDraft(deps, data);
  return result.ok ? { step, notices } : firstProblem(deps, data, result.errors);
}

/** The draft's step as a view, with its rev in the inputs' block ids; pure. */
export function renderStep(
  deps: Pick<Core, 'waybill' | 'schemas' | 'profiles' | 'bot'>,
  draft: Draft<BookingDraft>,
  notices: string[] = [],
  receiver: KnownBlock[] = [],
): ModalView {
  const { step } = draft.data;
  if (step === 'review') {
    const result = validateDraft(deps, draft.data);
    if (!result.ok) {
      const shown = firstProblem(deps, draft.data, result.errors);
      return renderStep(deps, { ...draft, data: { ...draft.data, step: shown.step } }, shown.notices);
    }
    const review = bookingReviewView({
      wire: toBookingWire(result.value, deps.waybill.timeZone),
      env: deps.waybill.env,
      metadata: bookingMetadata(draft),
      timeZone: deps.waybill.timeZone,
      currency: deps.waybill.currency,
      origin: draft.data.origin,
      warnings: [
        ...(deps.waybill.placeCheck === 'warn'
          ? placeProblemsOf(result.value).map((problem) => problem.message)
          : []),
        ...postalWarningsOf(result.value),
      ],
    });
    // The receiver's record first: read before anything else on the review.
    return { ...review, blocks: [...receiver, ...review.blocks] };
  }
  return bookingStepView({
    step,
    draft: draft.data,
    catalog: deps.waybill.catalog,
    currency: deps.waybill.currency,
    required: bookingSpec(deps).required,
    profiles: deps.profiles,
    maxParcels: deps.bot.maxParcels,
    env: deps.waybill.env,
    metadata: bookingMetadata(draft),
    notices,
  });
}

/** Saves the draft at the step it is shown at (a new rev, so Slack shows the draft's values) and renders it. */
export async function showStep(
  deps: Pick<Core, 'store' | 'waybill' | 'schemas' | 'profiles' | 'bot'>,
  draft: Draft<BookingDraft>,
  step: BookingStep,
  notices: string[] = [],
): Promise<ModalView> {
  const shown = stepToShow(deps, draft.data, step, notices);
  const saved = await saveToShow(deps.store.drafts, draft, { step: shown.step });
  const receiver = shown.step === 'review' ? await receiverReviewOf(deps, saved.data) : [];
  return renderStep(deps, saved, shown.notices, receiver);
}
