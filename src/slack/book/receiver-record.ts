/** The receiver's record on the booking review, and the confirmation Confirm booking needs for a flagged COD receiver. */

import type { KnownBlock } from '@slack/types';
import { teamScope } from '../../operations/access.js';
import {
  checkOf,
  needsConfirmation,
  type ReceiverRecord,
  receiverRecord,
} from '../../operations/receiver-record.js';
import type { ReceiverCheck } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import { RECEIVER_CONFIRM_BLOCK, receiverConfirmMissing, receiverReviewBlocks } from '../booking/index.js';
import { smsReviewBlocks } from '../sms/index.js';
import type { BookDeps } from './draft.js';

type Deps = Pick<BookDeps, 'store' | 'waybill' | 'bot'>;

/** The booking's receiver record (undefined without earlier parcels) and whether it must be confirmed. */
async function recordOf(
  deps: Deps,
  booking: Booking,
): Promise<{ record?: ReceiverRecord; confirm: boolean }> {
  const record = await receiverRecord(
    deps.store,
    deps.bot.receiverRisk,
    booking.consignee,
    teamScope(deps.bot.access),
  );
  const cod = booking.paymentMethod === deps.waybill.catalog.codPaymentMethod;
  return { ...(record ? { record } : {}), confirm: needsConfirmation(record, cod) };
}

/** The review's record line and checkbox, and the SMS the receiver will get, for the booking the review shows. */
export async function receiverReviewOf(
  deps: Deps,
  booking: Booking,
  channelId: string,
): Promise<KnownBlock[]> {
  const [{ record, confirm }, sms] = await Promise.all([
    recordOf(deps, booking),
    smsReviewBlocks(deps, booking, channelId),
  ]);
  return [...receiverReviewBlocks(record, confirm), ...sms];
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
