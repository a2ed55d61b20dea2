/** The bot's database out of reach while a request is handled: the dispatcher is told plainly, where they are looking. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { StoreUnavailableError } from '../../store/index.js';
import type { BotDeps } from '../deps.js';
import { context, plain, section } from './blocks.js';
import { postToUser, type SlackClient } from './delivery.js';
import { inputBlockIds } from './forms.js';

/** What a dispatcher reads when the database does not answer: nothing was done, what to do. */
export const storeUnavailableText =
  "The bot's database is not answering right now, so nothing was saved or sent to the courier. Try again in a minute; if it keeps happening, tell whoever runs the bot.";

/** The same, in a small modal put on top of the one the dispatcher was using (which stays as it was). */
export function storeUnavailableView(): ModalView {
  return {
    type: 'modal',
    title: plain('Try again shortly'),
    close: plain('Back'),
    blocks: [
      section(`:warning: ${storeUnavailableText}`),
      context('Close this to go back: what you typed is kept.'),
    ],
  };
}

type Body = {
  type?: string;
  command?: string;
  trigger_id?: string;
  user_id?: string;
  channel_id?: string;
  user?: { id?: string };
  channel?: { id?: string };
  response_url?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack sends it
  view?: { id?: string; blocks?: any[] };
};

/** Answers the request itself, if nobody has yet; false when it was answered already. */
async function answer(args: AnyMiddlewareArgs, response?: unknown): Promise<boolean> {
  if (!('ack' in args)) return false;
  return (args.ack as (response?: unknown) => Promise<void>)(response).then(
    () => true,
    () => false,
  );
}

/** Tells the dispatcher outside the request: on top of their modal, else in the conversation, else directly. */
async function tellOutside(client: SlackClient, body: Body): Promise<void> {
  const text = `:warning: ${storeUnavailableText}`;
  if (body.view && body.trigger_id) {
    // A trigger_id lives 3 seconds: after a slow database it may be gone, and a message does instead.
    const pushed = await client.views
      .push({ trigger_id: body.trigger_id, view: storeUnavailableView() })
      .then(
        () => true,
        () => false,
      );
    if (pushed) return;
  }
  const userId = body.user_id ?? body.user?.id;
  if (!userId) return;
  const channelId = body.channel_id ?? body.channel?.id;
  if (channelId) {
    await postToUser(client, { channelId, userId }, { text, blocks: [section(text)] });
    return;
  }
  const dm = await client.conversations.open({ users: userId });
  await client.chat.postMessage({ channel: dm.channel?.id ?? userId, text, blocks: [section(text)] });
}

/**
 * Before every listener: a StoreUnavailableError from anything after it (the guards, a listener)
 * becomes a plain message for the dispatcher — inline on the form they submitted, on top of the
 * modal they clicked in, or privately in the conversation — instead of Slack's own "trouble
 * connecting". Nothing was written: the bookkeeping that belongs together is one transaction.
 * The store reconnects by itself, so the next try works once the database is back.
 */
export function storeFaultGuard(deps: Pick<BotDeps, 'logger'>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      const body = args.body as Body;
      deps.logger.warn({ err, type: body.type }, 'the database did not answer: the dispatcher was told');
      if (body.type === 'view_closed') return void (await answer(args));
      if (body.type === 'view_submission') {
        const [first] = inputBlockIds(body.view?.blocks ?? []);
        const inline = first
          ? { response_action: 'errors', errors: { [first]: storeUnavailableText } }
          : { response_action: 'push', view: storeUnavailableView() };
        if (await answer(args, inline)) return;
      } else if (body.command) {
        if (await answer(args, { response_type: 'ephemeral', text: `:warning: ${storeUnavailableText}` }))
          return;
      } else {
        await answer(args);
      }
      await tellOutside(args.client, body).catch((tellErr: unknown) => {
        deps.logger.warn(
          { err: tellErr },
          'the dispatcher could not be told that the database did not answer',
        );
      });
    }
  };
}
