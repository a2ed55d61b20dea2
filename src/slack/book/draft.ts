/** A booking's draft: created, found from a modal, what is typed on screen merged in, validated, listed to resume. */
import { trackingNumberFor } from '../../operations/book.js';
import type { Draft } from '../../store/index.js';
import { bookingDefaults, toBookingInput } from '../../waybill/booking-input.js';
import {
  type Booking,
  type FieldError,
  type Validation,
  validate,
  validateToSend,
} from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { getPath, mergeInput, readFormState, type StateValues } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { type BookingDraft, type BookingOrigin, type BookingStep, stepOfPath, stepTitles } from './form.js';

/**
 * What the booking feature uses of the core: its register hands the whole core on, and each
 * working function takes only the part of this it uses.
 */
export type BookDeps = Pick<
  Core,
  | 'store'
  | 'courier'
  | 'logger'
  | 'now'
  | 'activity'
  | 'inFlight'
  | 'access'
  | 'waybill'
  | 'schemas'
  | 'profiles'
> & {
  bot: Pick<
    Core['bot'],
    'maxParcels' | 'trackingPrefix' | 'auditChannelId' | 'receiverRisk' | 'access' | 'sms'
  >;
};

export function bookingMetadata(draft: Draft<BookingDraft>): string {
  return viewMetadata({ draftId: draft.id });
}

export function createBookingDraft(
  deps: Pick<BookDeps, 'store' | 'bot' | 'now' | 'waybill'>,
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

/**
 * The draft's data with what the step on screen holds typed in. Not saved yet: the caller saves it
 * once (showStep does), so nothing typed is lost and nothing is written twice.
 */
export function withTyped(data: BookingDraft, values: StateValues | undefined): BookingDraft {
  if (data.step === 'review') return data;
  return { ...data, input: mergeInput(data.input, readFormState(values)) };
}

/** The booking the draft describes, as the Booking schema reads it. */
const inputOf = (deps: Pick<BookDeps, 'waybill'>, data: BookingDraft) =>
  toBookingInput(data.input, {
    trackingNumber: data.generatedTrackingNumber ?? '',
    timeZone: deps.waybill.timeZone,
    parcels: data.parcels,
  });

/** The booking the draft describes, validated by the one Booking schema. */
export function validateDraft(
  deps: Pick<BookDeps, 'waybill' | 'schemas'>,
  data: BookingDraft,
): Validation<Booking> {
  return validate(deps.schemas.booking, inputOf(deps, data));
}

/** The draft as a booking about to be sent: validated, and its pickup not before today. */
export function validateDraftToSend(
  deps: Pick<BookDeps, 'waybill' | 'schemas' | 'now'>,
  data: BookingDraft,
): Validation<Booking> {
  return validateToSend(deps.schemas.booking, inputOf(deps, data), {
    now: deps.now(),
    timeZone: deps.waybill.timeZone,
  });
}

/** The errors a step can show inline: those about its own fields. */
export function errorsOfStep(
  deps: Pick<BookDeps, 'waybill'>,
  data: BookingDraft,
  step: BookingStep,
  errors: FieldError[],
): FieldError[] {
  return errors.filter((error) => stepOfPath(error.path, deps.waybill.catalog, data.parcels) === step);
}

/**
 * The next free generated number, held for this draft, unless the dispatcher typed one or one was
 * already handed out.
 */
export async function withTrackingNumber(
  deps: Pick<BookDeps, 'store' | 'bot'>,
  draftId: string,
  data: BookingDraft,
): Promise<BookingDraft> {
  const typed = typeof data.input.trackingNumber === 'string' && data.input.trackingNumber.trim() !== '';
  if (typed || data.generatedTrackingNumber) return data;
  return { ...data, generatedTrackingNumber: await trackingNumberFor(deps, draftId, {}) };
}

/** Someone's booking drafts not sent yet, the latest first: what the Home tab offers to resume. */
export async function openBookingDrafts(
  deps: Pick<BookDeps, 'store'>,
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
