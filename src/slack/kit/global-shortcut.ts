/** A global shortcut comes from no conversation, so its first view asks where the result goes: that view and the choice. */
import type { ModalView } from '@slack/types';
import type { WaybillEnv } from '../../waybill/settings.js';
import { environmentNotice, plain } from './blocks.js';
import { getPath, VALUE_ACTION } from './forms.js';
import type { ListenerMiddleware } from './listener.js';

/** The block of a view that holds the conversation chosen for the result (access control reads it). */
export const DESTINATION_BLOCK = 'destination';

/** "Post the result in": a channel picker, the only input of a global shortcut's first view. */
export function destinationView(
  callbackId: string,
  title: string,
  result: string,
  env: WaybillEnv,
): ModalView {
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plain(title),
    submit: plain('Next'),
    close: plain('Cancel'),
    blocks: [
      ...environmentNotice(env),
      {
        type: 'input',
        block_id: DESTINATION_BLOCK,
        label: plain('Post the result in'),
        hint: plain(
          `The channel that gets ${result}. If the bot cannot post there, it comes to you privately.`,
        ),
        element: {
          type: 'conversations_select',
          action_id: VALUE_ACTION,
          placeholder: plain('Choose a channel'),
          filter: { include: ['public', 'private'], exclude_bot_users: true },
        },
      },
    ],
  };
}

/** The conversation chosen in a destination view, from the view's state; undefined if none. */
export function chosenConversation(values: unknown): string | undefined {
  const chosen = getPath(values, `${DESTINATION_BLOCK}.${VALUE_ACTION}.selected_conversation`);
  return typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
}

/** What a listener behind `destinationChosen` finds in its context: the conversation chosen for the result. */
export type Destined = { destination: string };

/**
 * On the submission of a global shortcut's first view (`destinationView`): puts the channel chosen
 * in `context.destination`, or asks for one under its input.
 */
export const destinationChosen: ListenerMiddleware = async (args) => {
  const view = 'view' in args.body ? args.body.view : undefined;
  const channelId = chosenConversation(view?.state?.values);
  if (channelId) {
    args.context.destination = channelId;
    await args.next();
    return;
  }
  const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
  await ack?.({
    response_action: 'errors',
    errors: { [DESTINATION_BLOCK]: 'Choose a channel for the result' },
  });
};
