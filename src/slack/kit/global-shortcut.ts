/** A global shortcut: it comes from no conversation, so its first view asks where the result goes, then shows the form. */
import type { App, GlobalShortcut, ViewSubmitAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WaybillEnv } from '../../config.js';
import type { Core } from '../core.js';
import { environmentNotice, plain } from './blocks.js';
import { onButton } from './buttons.js';
import { getPath, VALUE_ACTION } from './forms.js';
import type { Guard } from './listener.js';
import { openModalSoon } from './modal.js';

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

/**
 * A global shortcut (and its button on the Home tab) that opens a form: first "Post the result
 * in" (`guard` checks the chosen channel on that submission), then the form, as if its
 * command had been typed there.
 */
export function onGlobalShortcut(
  app: App,
  deps: Pick<Core, 'inFlight' | 'logger' | 'waybill'>,
  guard: Guard,
  {
    callbackId,
    buttonId,
    destinationId,
    title,
    result,
    form,
  }: {
    callbackId: string;
    /** A button (on the Home tab) that opens the same first view. */
    buttonId: string;
    destinationId: string;
    /** The shortcut's name, also the first view's title. */
    title: string;
    /** What is posted, for the hint: "the booking card". */
    result: string;
    form: (where: { userId: string; channelId: string }) => Promise<ModalView>;
  },
): void {
  const first = () => destinationView(destinationId, title, result, deps.waybill.env);
  app.shortcut<GlobalShortcut>(callbackId, guard, async ({ shortcut, ack, client }) => {
    await ack();
    openModalSoon(deps, client, {
      triggerId: shortcut.trigger_id,
      // A global shortcut has no response_url: a form Slack was too slow to open is said in a DM.
      respond: (message) => client.chat.postMessage({ channel: shortcut.user.id, text: message.text }),
      again: `use *${title}*`,
      view: first,
    });
  });
  onButton(app, buttonId, guard, async (body, client, tell) => {
    openModalSoon(deps, client, {
      triggerId: body.trigger_id,
      respond: tell,
      again: `click *${title}*`,
      view: first,
    });
  });
  app.view<ViewSubmitAction>(destinationId, guard, async ({ ack, body, view }) => {
    const channelId = chosenConversation(view.state.values);
    if (!channelId) {
      await ack({
        response_action: 'errors',
        errors: { [DESTINATION_BLOCK]: 'Choose a channel for the result' },
      });
      return;
    }
    await ack({ response_action: 'update', view: await form({ userId: body.user.id, channelId }) });
  });
}
