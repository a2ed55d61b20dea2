/** Acting on a booking: allowed only where its sender may do that in the booking's own conversation too. */
import type { BookingRecord } from '../../store/index.js';
import type { Core } from '../core.js';
import type { SlackClient } from '../kit/delivery.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { GuardedOperation } from '../runtime/access-control.js';
import { doing, verdictOn } from './access.js';

/** Who asks, and with what they can be checked (user groups are read through Slack). */
export interface Asker {
  client: SlackClient;
  userId: string;
}

/**
 * Why `asker` may not do `operation` on this booking, in words for them; undefined when they may.
 * `requires` checked the conversation the request came from; a booking named in it (typed, on a
 * button, behind a call of unknown outcome) belongs to the conversation it was booked in, which may
 * be one they may not use: then nothing is done, and the refusal is audited and logged like any.
 */
export async function refusalOnBooking(
  core: Pick<Core, 'access' | 'store' | 'logger'>,
  asker: Asker,
  operation: GuardedOperation,
  booking: Pick<BookingRecord, 'trackingNumber' | 'channelId'>,
): Promise<string | undefined> {
  if (core.access.open) return undefined;
  const { trackingNumber, channelId } = booking;
  const verdict = await verdictOn(core.access, operation, { ...asker, channelId });
  if (verdict.ok) return undefined;
  await core.store.audit.record({
    userId: asker.userId,
    operation,
    trackingNumber,
    outcome: 'refused',
    detail: `not allowed (${verdict.reason}) in ${channelId}, the booking's conversation`,
  });
  core.logger.warn(
    { user: asker.userId, channel: channelId, trackingNumber, operation, reason: verdict.reason },
    "request refused by access control in the booking's conversation",
  );
  return `Sorry, waybill \`${escapeMrkdwn(trackingNumber)}\` belongs to a conversation where you may not ${doing[operation][0]}, so nothing was done.`;
}
