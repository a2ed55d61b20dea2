/** `/waybill assign <tracking number> @person`. */
import { type CommandAnswer, trackingNumberFirst, waybillVerb } from '../kit/command-request.js';
import { assignOwner } from './assign.js';
import { assignUsage } from './blocks.js';

/** A mention as Slack escapes it in a command's text (`<@U0123|ana>`), alone: the member ID is checked on assigning. */
const MENTION = /^<@([^|>]+)(?:\|[^>]*)?>$/;

const assignCommand: CommandAnswer<
  { trackingNumber: string; words: string },
  Parameters<typeof assignOwner>[0]
> = async (deps, { ack, client, command }, request) => {
  const ownerId = MENTION.exec(request.words)?.[1];
  const text = ownerId
    ? await assignOwner(deps, client, {
        userId: command.user_id,
        trackingNumber: request.trackingNumber,
        ownerId,
      })
    : assignUsage();
  await ack({ response_type: 'ephemeral', text });
};

/** `/waybill assign`. */
export const assignVerb = waybillVerb({
  verb: 'assign',
  usage:
    '`/waybill assign <tracking number> @person`: hand a booking over; its owner is whoever booked it until then',
  example: '/waybill assign WB000123 @maria',
  // Handing a booking to someone else changes what is known of it: the update permission.
  permission: 'update',
  parse: trackingNumberFirst,
  answer: assignCommand,
});
