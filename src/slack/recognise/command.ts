/** `/waybill recognise on|off`: tracking numbers in this channel's messages answered, or not, for every replica. */

import { turnRecognition } from '../../operations/recognition.js';
import type { Store } from '../../store/index.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';

const usage =
  'Write `/waybill recognise on` to have the bot answer, in its thread, a message in this channel that names our tracking numbers; `/waybill recognise off` to stop. The bot must be a member of the channel.';

const recogniseCommand: CommandAnswer<{ setting: string }, { store: Pick<Store, 'recognition'> }> = async (
  deps,
  { ack, command },
  { setting },
) => {
  if (setting !== 'on' && setting !== 'off') {
    const on = await deps.store.recognition.isOn(command.channel_id);
    await ack({
      response_type: 'ephemeral',
      text: `Tracking numbers are ${on ? '' : 'not '}recognised in this channel. ${usage}`,
    });
    return;
  }
  await turnRecognition(deps.store, {
    channelId: command.channel_id,
    on: setting === 'on',
    userId: command.user_id,
  });
  await ack({
    response_type: 'ephemeral',
    text:
      setting === 'on'
        ? 'Tracking numbers are now recognised in this channel: a message naming ours gets their status in its thread. The bot must be a member of the channel.'
        : 'Tracking numbers are no longer recognised in this channel.',
  });
};

/** `/waybill recognise`. */
export const recogniseVerb = waybillVerb({
  verb: 'recognise',
  usage:
    '`/waybill recognise on|off`: in this channel, answer a message that names our tracking numbers with their status and buttons, in its thread',
  // Whether the bot answers a channel's messages changes what it posts there: the update permission.
  permission: 'update',
  parse: ({ words: [setting = ''] }) => ({ setting: setting.toLowerCase() }),
  answer: recogniseCommand,
});
