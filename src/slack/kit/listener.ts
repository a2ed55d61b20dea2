/**
 * What a listener is registered with, in Bolt's own shape `app.action(id, requires(…), …middleware,
 * handler)`: the permission it requires (a marked guard, made by guards/access.ts `requires`), then
 * the middleware here, each doing one thing every feature needs and putting what it finds in `context`.
 */
import type { AnyMiddlewareArgs, BlockAction, ButtonAction, Middleware } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Operation } from '../../operations/access.js';
import type { Core } from '../core.js';
import { openModalSoon } from './modal.js';

/** What a listener needs: one of the guarded operations, or nothing (help, a closed modal, the Home tab opened). */
export type Permission = Operation | 'nothing';

/** Marks a middleware made by `requires`, with what it requires, so a listener without one can be found. */
export const REQUIRED = Symbol('requires');

export type Guard = Middleware<AnyMiddlewareArgs> & { [REQUIRED]: Permission | 'per request' };

/** Listener middleware for any kind of request, adding to the context whatever its listener declares. */
// biome-ignore lint/suspicious/noExplicitAny: whatever context the listener declares
export type ListenerMiddleware = Middleware<AnyMiddlewareArgs, any>;

export type ButtonClick = BlockAction<ButtonAction>;

/** Acknowledges at once, before the listener works: for what answers nothing in the ack itself. */
export const ackNow: ListenerMiddleware = async (args) => {
  if ('ack' in args) await (args.ack as () => Promise<void>)();
  await args.next();
};

/** What the clicker is told: through the request's response_url, or (the Home tab, a shortcut have none) in a DM. */
export type TellClicker = (message: {
  response_type: 'ephemeral';
  replace_original?: boolean;
  text: string;
}) => Promise<unknown>;

/** What a listener behind `tellClicker` finds in its context. */
export type Told = { tell: TellClicker };

function tellerOf(args: Parameters<ListenerMiddleware>[0]): TellClicker {
  const body = args.body as { response_url?: string; user?: { id?: string }; user_id?: string };
  const respond = 'respond' in args ? (args.respond as TellClicker | undefined) : undefined;
  if (body.response_url && respond) return respond;
  const userId = body.user?.id ?? body.user_id ?? '';
  return (message) => args.client.chat.postMessage({ channel: userId, text: message.text });
}

/** Puts `context.tell`: how to answer the person privately, wherever the request came from. */
export const tellClicker: ListenerMiddleware = async (args) => {
  args.context.tell = tellerOf(args);
  await args.next();
};

/** The modal a button or menu was used in, as Slack sends it. */
export type ClickedModal = NonNullable<BlockAction['view']>;

/** What a listener behind `inModal` finds in its context. */
export type InModal = { modal: ClickedModal };

/**
 * Puts `context.modal`, the modal the action came from; an action from anywhere else (a stale or
 * forged payload) goes no further. Comes after the ack, since it answers nothing itself.
 */
export const inModal: ListenerMiddleware = async (args) => {
  const view = 'view' in args.body ? args.body.view : undefined;
  if (!view) return;
  args.context.modal = view;
  await args.next();
};

/** A modal to open, or, when what it shows is gone, what the person is told instead. */
export type Opened = (() => ModalView | Promise<ModalView>) | string;

/** What a listener behind `openingModal` finds in its context. */
export type Opening = {
  /** Opens the modal after the ack (`again`: what to do again when Slack was too slow, if not the default). */
  openModal: (opened: Opened, again?: string) => Promise<void>;
};

/**
 * Puts `context.openModal`, opening a modal with the request's trigger as background work (so a
 * burst is acknowledged first), or telling the person privately why there is none. `again` says
 * what to do again when Slack was too slow to open it ("click *Update*"). Comes after the ack.
 */
export function openingModal(deps: Pick<Core, 'inFlight' | 'logger'>, again: string): ListenerMiddleware {
  return async (args) => {
    const tell = tellerOf(args);
    const triggerId = (args.body as { trigger_id?: string }).trigger_id ?? '';
    const opening: Opening['openModal'] = async (opened, againNow = again) => {
      if (typeof opened === 'string') {
        await tell({ response_type: 'ephemeral', replace_original: false, text: opened });
        return;
      }
      openModalSoon(deps, args.client, { triggerId, respond: tell, again: againNow, view: opened });
    };
    args.context.openModal = opening;
    await args.next();
  };
}
