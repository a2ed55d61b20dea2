/** The receiver's record on the booking review, and the confirmation Confirm booking needs for a flagged COD receiver. */
import type { KnownBlock } from '@slack/types';
import {
  checkOf,
  needsConfirmation,
  type ReceiverRecord,
  receiverRecord,
} from '../../operations/receiver-record.js';
import type { ReceiverCheck } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import {
  RECEIVER_CONFIRM_BLOCK,
  receiverConfirmMissing,
  receiverReviewBlocks,
} from '../kit/receiver-line.js';
import { validateDraft } from './draft.js';
import type { BookingDraft } from './form.js';

type Deps = Pick<Core, 'store' | 'waybill' | 'schemas' | 'bot'>;

/** The booking's receiver record (undefined without earlier parcels) and whether it must be confirmed. */
async function recordOf(
  deps: Deps,
  booking: Booking,
): Promise<{ record?: ReceiverRecord; confirm: boolean }> {
  const record = await receiverRecord(deps.store, deps.bot.receiverRisk, booking.consignee);
  const cod = booking.paymentMethod === deps.waybill.catalog.codPaymentMethod;
  return { ...(record ? { record } : {}), confirm: needsConfirmation(record, cod) };
}

/** The review's record line and checkbox, for a draft that is a valid booking. */
export async function receiverReviewOf(deps: Deps, data: BookingDraft): Promise<KnownBlock[]> {
  const result = validateDraft(deps, data);
  if (!result.ok) return [];
  const { record, confirm } = await recordOf(deps, result.value);
  return receiverReviewBlocks(record, confirm);
}

/**
 * Confirm booking's check: the record to keep with the booking, or the inline error when a flagged
 * COD receiver's call is not confirmed (`confirmedBy`: who ticked the box). It never stops a booking otherwise.
 */
export async function receiverCheckAtConfirm(
  deps: Deps,
  booking: Booking,
  confirmedBy: string | undefined,
): Promise<{ check?: ReceiverCheck } | { errors: Record<string, string> }> {
  const { record, confirm } = await recordOf(deps, booking);
  if (!record) return {};
  if (!confirm) return { check: checkOf(record) };
  if (!confirmedBy) return { errors: { [RECEIVER_CONFIRM_BLOCK]: receiverConfirmMissing } };
  return { check: checkOf(record, confirmedBy) };
}
