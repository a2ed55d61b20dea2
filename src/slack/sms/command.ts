/** `/waybill sms stop|start <phone>`: a receiver who asked a dispatcher not to be texted, or to be again. */

import { setReceiverOptOut } from '../../operations/sms.js';
import type { Store } from '../../store/index.js';
import { type CommandAnswer, type VerbWords, waybillVerb } from '../kit/command-request.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

interface OptOutRequest {
  optedOut: boolean;
  phone: string;
}

function readOptOut({ words, rest }: VerbWords): OptOutRequest | undefined {
  const [first = ''] = words;
  const word = first.toLowerCase();
  const phone = rest.slice(first.length).trim();
  if (!phone || (word !== 'stop' && word !== 'start')) return undefined;
  return { optedOut: word === 'stop', phone };
}

const optOutCommand: CommandAnswer<OptOutRequest, { store: Pick<Store, 'audit' | 'sms'> }> = async (
  deps,
  { ack, command },
  request,
) => {
  const set = await setReceiverOptOut(deps.store, { ...request, userId: command.user_id });
  const said = escapeMrkdwn(request.phone);
  const text = !set
    ? `\`${said}\` is not a Philippine mobile number: the bot never texts it anyway.`
    : request.optedOut
      ? `${set.changed ? 'Done' : 'Already so'}: the receiver at ${set.number} is not texted any more, on any booking. \`/waybill sms start ${set.number}\` texts them again.`
      : `${set.changed ? 'Done' : 'Already so'}: the receiver at ${set.number} is texted again.`;
  await ack({ response_type: 'ephemeral', text });
};

/** `/waybill sms`. */
export const smsVerb = waybillVerb({
  verb: 'sms',
  usage:
    '`/waybill sms stop <phone>`: the receiver at that mobile asked not to be texted (`start` texts them again)',
  example: '/waybill sms stop 0917 123 4567',
  // A receiver's wish, recorded for every booking: as a change to bookings.
  permission: 'update',
  parse: readOptOut,
  answer: optOutCommand,
});
