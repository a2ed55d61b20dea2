/** Listeners for the bot's buttons, typed through Bolt so no handler re-checks the kind of request. */
import type { App, BlockAction, ButtonAction, Context } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Core } from '../core.js';
import type { SlackClient } from './delivery.js';
import type { Guard, Guarded } from './listener.js';
import { openModalSoon, showInModal } from './modal.js';

export type ButtonClick = BlockAction<ButtonAction>;
type ClickedModal = NonNullable<ButtonClick['view']>;

/**
 * A button on a message or the Home tab that opens a modal ("Book this", "Update", "Resume"): `open`
 * reads what the button's value names and returns the modal to show, or, when that is gone, the
 * text the clicker is told instead. `again` says what to click when Slack was too slow to open it.
 */
export function onOpeningButton(
  app: App,
  deps: Pick<Core, 'inFlight' | 'logger'>,
  actionId: string,
  guard: Guard,
  again: string,
  open: (
    value: string,
    body: ButtonClick,
    client: SlackClient,
  ) => Promise<(() => ModalView | Promise<ModalView>) | string>,
): void {
  app.action<ButtonClick>(actionId, guard, async ({ ack, body, action, client, respond }) => {
    await ack();
    const tell = tellClicker(body, client, respond);
    const opened = await open(action.value ?? '', body, client);
    if (typeof opened === 'string') {
      await tell({ response_type: 'ephemeral', replace_original: false, text: opened });
      return;
    }
    openModalSoon(deps, client, { triggerId: body.trigger_id, respond: tell, again, view: opened });
  });
}

/**
 * A button inside one of the bot's modals ("Try again", "Back to the form"), with the modal it is in
 * and the context its middleware filled (`withDraft`: the draft).
 */
export function onModalButton<C = Context>(
  app: App,
  actionId: string,
  middleware: Guarded,
  handle: (view: ClickedModal, client: SlackClient, action: ButtonAction, context: C) => Promise<void>,
): void {
  app.action<ButtonClick>(actionId, ...middleware, async ({ ack, body, action, client, context }) => {
    await ack();
    if (body.view) await handle(body.view, client, action, context as C);
  });
}

/**
 * "Back to the form": the modal shows the form of the draft it belongs to, if that is still
 * there. The view's hash makes a stale second click a no-op.
 */
export function onBackToForm<C = Context>(
  app: App,
  actionId: string,
  middleware: Guarded,
  form: (context: C) => Promise<ModalView | undefined>,
): void {
  onModalButton<C>(app, actionId, middleware, async (view, client, _action, context) => {
    const shown = await form(context);
    if (shown) await showInModal(client, view.id, shown, view.hash);
  });
}

/** What the clicker is told: through the click's response_url, or (the Home tab has none) in a DM. */
export type TellClicker = (message: {
  response_type: 'ephemeral';
  replace_original?: boolean;
  text: string;
}) => Promise<unknown>;

export function tellClicker(
  body: Pick<BlockAction, 'response_url' | 'user'>,
  client: SlackClient,
  respond: TellClicker | undefined,
): TellClicker {
  if (body.response_url && respond) return respond;
  return (message) => client.chat.postMessage({ channel: body.user.id, text: message.text });
}

/** A button acknowledged at once, whatever it then does: `handle` gets the click and how to answer the clicker. */
export function onButton(
  app: App,
  actionId: string,
  guard: Guard,
  handle: (body: ButtonClick, client: SlackClient, tell: TellClicker, action: ButtonAction) => Promise<void>,
): void {
  app.action<ButtonClick>(actionId, guard, async ({ ack, body, action, client, respond }) => {
    await ack();
    await handle(body, client, tellClicker(body, client, respond), action);
  });
}
