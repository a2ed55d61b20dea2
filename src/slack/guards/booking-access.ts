/** Acting on a booking: allowed only where its sender may do that in the booking's own conversation too. */

import type { Operation } from '../../operations/access.js';
import { recordRefusal } from '../../operations/audit.js';
import type { BookingRecord, Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import { doing, verdictOn } from './access.js';

/** Who asks, and with what they can be checked (their team and user groups are read through Slack). */
export interface Asker {
  client: SlackClient;
  userId: string;
  /** Their Slack team, where the request says it. */
  teamId?: string | undefined;
}

/** The person who clicked or submitted, with the team their payload gives. */
export function askerOf(client: SlackClient, body: { user: { id: string; team_id?: string } }): Asker {
  return { client, userId: body.user.id, teamId: body.user.team_id };
}

/**
 * What a person is told of a waybill that does not exist and of one they may not `operation`: the same
 * line, so a refusal never tells whether a booking exists (tracking numbers are easy to guess).
 */
export function unseenText(trackingNumber: string, operation: Operation): string {
  return `I have no record of waybill \`${escapeMrkdwn(trackingNumber)}\` in a conversation where you may ${doing[operation][0]}: check the number, or ask in the conversation it was booked in.`;
}

/**
 * Why `asker` may not do `operation` on this booking, in words for them; undefined when they may.
 * `requires` checked the conversation the request came from; a booking named in it (typed, on a
 * button, behind a call of unknown outcome) belongs to the conversation it was booked in, which may
 * be one they may not use: then nothing is done, and the refusal is audited and logged like any.
 */
export async function refusalOnBooking(
  core: Pick<Core, 'access' | 'logger'> & { store: Pick<Store, 'audit'> },
  asker: Asker,
  operation: Operation,
  booking: Pick<BookingRecord, 'trackingNumber' | 'channelId'>,
): Promise<string | undefined> {
  const { trackingNumber, channelId } = booking;
  const verdict = await verdictOn(core.access, operation, { ...asker, channelId });
  if (verdict.ok) return undefined;
  await recordRefusal(core.store, {
    userId: asker.userId,
    operation,
    trackingNumber,
    reason: verdict.reason,
    where: `${channelId}, the booking's conversation`,
  });
  core.logger.warn(
    { user: asker.userId, channel: channelId, trackingNumber, operation, reason: verdict.reason },
    "request refused by access control in the booking's conversation",
  );
  return unseenText(trackingNumber, operation);
}
