/** A booking handed to a new owner (operations/owners.ts), then the cards redrawn, a line in each thread, the new owner told. */

import { handOver } from '../../operations/owners.js';
import type { Store } from '../../store/index.js';
import { redrawCards, threadPlaces } from '../booking/index.js';
import type { Core } from '../core.js';
import { refusalOnBooking, unseenText } from '../guards/booking-access.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import {
  alreadyOwnedText,
  assignedText,
  assignUsage,
  type CannotOwn,
  cannotOwnText,
  handedOverText,
  ownerThreadText,
} from './blocks.js';

/** A Slack member ID, as a mention and the people picker give it. */
const MEMBER_ID = /^[UW][A-Z0-9]+$/;

/** A member as users.info gives them; undefined for an ID Slack knows no member by. */
const memberOf = (client: SlackClient, id: string) =>
  client.users.info({ user: id }).then(
    (answer) => answer.user,
    (err: unknown) => {
      if (slackErrorCode(err) === 'user_not_found') return undefined;
      throw err;
    },
  );

/**
 * Why `ownerId` could never be sent a reminder by DM, by Slack's users.info: a bot, a deactivated
 * member, one of another organisation than the person handing it over (`by`), or no member at all.
 */
async function cannotOwn(client: SlackClient, ownerId: string, by: string): Promise<CannotOwn | undefined> {
  const owner = await memberOf(client, ownerId);
  if (!owner) return 'unknown';
  if (owner.is_bot || owner.id === 'USLACKBOT') return 'bot';
  if (owner.deleted) return 'deactivated';
  if (ownerId === by) return undefined;
  const team = (await memberOf(client, by))?.team_id;
  if (team && owner.team_id && owner.team_id !== team) return 'elsewhere';
  return undefined;
}

/**
 * Makes `ownerId` the owner of the booking; what to say to `userId`, who did it. The cards, their
 * threads and the new owner are told after the answer.
 */
export async function assignOwner(
  deps: Pick<Core, 'activity' | 'inFlight' | 'logger' | 'access' | 'bot' | 'waybill' | 'schemas'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'imports' | 'receivers' | 'remittances' | 'statuses'>;
  },
  client: SlackClient,
  input: { userId: string; trackingNumber: string; ownerId: string },
): Promise<string> {
  const { userId, trackingNumber, ownerId } = input;
  // Only a member ID is ever written into a mention: whatever else a request carries is refused.
  if (!MEMBER_ID.test(ownerId)) return assignUsage();
  const booking = await deps.store.bookings.get(trackingNumber);
  if (!booking) return unseenText(trackingNumber, 'update');
  // From a DM (a reminder's Assign) the booking's own conversation is the one its rule is checked in.
  const refused = await refusalOnBooking(deps, { client, userId }, 'update', booking);
  if (refused) return refused;
  const cannot = await cannotOwn(client, ownerId, userId);
  if (cannot) return cannotOwnText(trackingNumber, ownerId, cannot);
  const change = await handOver(deps, { userId, trackingNumber, ownerId });
  if (!change.changed) return alreadyOwnedText(trackingNumber, ownerId);
  deps.inFlight.run('owner cards', async () => {
    const text = ownerThreadText(trackingNumber, ownerId, userId);
    for (const place of await threadPlaces(deps, change.booking)) {
      await client.chat
        .postMessage({ channel: place.channel, thread_ts: place.ts, text })
        .catch((err: unknown) => deps.logger.warn({ err, trackingNumber }, 'owner not posted in the thread'));
    }
    await redrawCards(deps, client, trackingNumber);
    if (ownerId !== userId) {
      await client.chat
        .postMessage({ channel: ownerId, text: handedOverText(trackingNumber, userId) })
        .catch((err: unknown) => deps.logger.warn({ err, trackingNumber }, 'new owner not told'));
    }
  });
  return assignedText(trackingNumber, ownerId, change.previous);
}
