/** The /waybill subcommands update answers: `show` and `update <tracking number>`. */

import type { KnownBlock } from '@slack/types';
import type { Store } from '../../store/index.js';
import { storedBooking, storedBookingCard } from '../booking/index.js';
import type { Core } from '../core.js';
import { type Asker, refusalOnBooking, unseenText } from '../guards/booking-access.js';
import {
  answerWithForm,
  type CommandAnswer,
  trackingNumberFirst,
  waybillVerb,
} from '../kit/command-request.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { statusOfBooking } from '../status/index.js';
import { createUpdateDraft, type UpdateDeps, unknownWaybillText } from './draft.js';
import { updateForm } from './steps.js';

/**
 * A booking's card with its status history, or that there is none (or that it is not `asker`'s to
 * look up in its own conversation): what `/waybill show` and Show answer.
 */
export async function shownBooking(
  deps: Parameters<typeof showCommand>[0],
  trackingNumber: string,
  asker: Asker,
): Promise<{ text: string; blocks?: KnownBlock[] }> {
  const known = await storedBooking(deps, trackingNumber);
  if (!known) return { text: unseenText(trackingNumber, 'show') };
  const refused = await refusalOnBooking(deps, asker, 'show', known.record);
  if (refused) return { text: refused };
  const status = await statusOfBooking(deps, trackingNumber);
  const card = await storedBookingCard(
    deps,
    known.record,
    known.booking,
    known.record.updatedBy,
    status.latest,
    asker.userId,
  );
  return { text: card.text, blocks: [...card.blocks, ...status.blocks] };
}

/** `/waybill show <tracking number>`: the booking card with its status history, privately. */
const showCommand: CommandAnswer<
  { trackingNumber: string },
  Pick<Core, 'logger' | 'schemas' | 'access' | 'waybill' | 'bot'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  }
> = async (deps, { ack, client, command }, { trackingNumber }) => {
  await ack({
    response_type: 'ephemeral',
    ...(await shownBooking(deps, trackingNumber, { client, userId: command.user_id })),
  });
};

/** `/waybill update <tracking number>`: the update form of a known booking, or why there is none. */
const updateCommand: CommandAnswer<
  { trackingNumber: string },
  Pick<UpdateDeps, 'store' | 'logger' | 'schemas' | 'access' | 'waybill' | 'inFlight'>
> = async (deps, args, { trackingNumber }) => {
  const { command } = args;
  const where = { userId: command.user_id, channelId: command.channel_id, responseUrl: command.response_url };
  const known = await storedBooking(deps, trackingNumber);
  const refused =
    known &&
    (await refusalOnBooking(deps, { client: args.client, userId: where.userId }, 'update', known.record));
  const draft = known && !refused ? await createUpdateDraft(deps, where, trackingNumber) : undefined;
  const safeNumber = escapeMrkdwn(trackingNumber);
  await answerWithForm(
    deps,
    args,
    `type \`/waybill update ${safeNumber}\``,
    // Refused or unknown, the same answer: a refusal never tells whether a booking exists.
    draft ? () => updateForm(deps, draft) : unknownWaybillText(safeNumber),
  );
};

/** `/waybill show`. */
export const showVerb = waybillVerb({
  verb: 'show',
  usage: '`/waybill show <tracking number>`: the last-known record of a booking, just for you',
  example: '/waybill show WB000123',
  permission: 'show',
  parse: trackingNumberFirst,
  answer: showCommand,
});

/** `/waybill update`. */
export const updateVerb = waybillVerb({
  verb: 'update',
  usage: "`/waybill update <tracking number>`: change a booking; the change is posted in its card's thread",
  example: '/waybill update WB000123',
  permission: 'update',
  parse: trackingNumberFirst,
  answer: updateCommand,
});
