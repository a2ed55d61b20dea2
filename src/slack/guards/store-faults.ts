/** The bot's database out of reach while a request is handled: the dispatcher is told plainly, where they are looking. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { StoreUnavailableError } from '../../store/index.js';
import type { Core } from '../core.js';
import { section, storeUnavailableText, storeUnavailableView } from '../kit/blocks.js';
import { inputBlockIds } from '../kit/forms.js';
import { postToUser, type SlackClient } from '../runtime/delivery.js';
import { partsOf, type RequestParts } from './request-parts.js';

/** Answers the request itself, if nobody has yet; false when it was answered already. */
export async function answer(args: AnyMiddlewareArgs, response?: unknown): Promise<boolean> {
  if (!('ack' in args)) return false;
  return (args.ack as (response?: unknown) => Promise<void>)(response).then(
    () => true,
    () => false,
  );
}

/** Tells the sender outside the request: on top of their modal, else privately in the conversation, else directly. */
export async function tellOutside(
  client: SlackClient,
  { userId, channelId, triggerId, view }: RequestParts,
  notice: { text: string; view: ModalView },
): Promise<void> {
  const { text } = notice;
  if (view && triggerId) {
    // A trigger_id lives 3 seconds: after a slow database it may be gone, and a message does instead.
    const pushed = await client.views.push({ trigger_id: triggerId, view: notice.view }).then(
      () => true,
      () => false,
    );
    if (pushed) return;
  }
  if (!userId) return;
  const message = { text, blocks: [section(text)] };
  if (channelId) {
    await postToUser(client, { channelId, userId }, message);
    return;
  }
  const dm = await client.conversations.open({ users: userId });
  await client.chat.postMessage({ channel: dm.channel?.id ?? userId, ...message });
}

/**
 * Before every listener: a StoreUnavailableError from anything after it (the guards, a listener)
 * becomes a plain message for the dispatcher — inline on the form they submitted, on top of the
 * modal they clicked in, or privately in the conversation — instead of Slack's own "trouble
 * connecting". Nothing was written: the bookkeeping that belongs together is one transaction.
 * The store reconnects by itself, so the next try works once the database is back.
 */
export function storeFaultGuard(deps: Pick<Core, 'logger'>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      const request = partsOf(args.body);
      deps.logger.warn(
        { err, type: 'type' in args.body ? args.body.type : undefined },
        'the database did not answer: the dispatcher was told',
      );
      if (request.surface === 'closed') return void (await answer(args));
      if (request.surface === 'submission') {
        const [first] = inputBlockIds(request.view?.blocks ?? []);
        const inline = first
          ? { response_action: 'errors', errors: { [first]: storeUnavailableText } }
          : { response_action: 'push', view: storeUnavailableView() };
        if (await answer(args, inline)) return;
      } else if (request.surface === 'command') {
        if (await answer(args, { response_type: 'ephemeral', text: `:warning: ${storeUnavailableText}` }))
          return;
      } else {
        await answer(args);
      }
      const notice = { text: `:warning: ${storeUnavailableText}`, view: storeUnavailableView() };
      await tellOutside(args.client, request, notice).catch((tellErr: unknown) => {
        deps.logger.warn(
          { err: tellErr },
          'the dispatcher could not be told that the database did not answer',
        );
      });
    }
  };
}
