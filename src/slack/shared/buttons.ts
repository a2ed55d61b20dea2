/** Listeners for the bot's buttons, typed through Bolt so no handler re-checks the kind of request. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { BotDeps } from '../deps.js';
import type { SlackClient } from './delivery.js';
import { openModalSoon, showInModal } from './modal.js';

export type ButtonClick = BlockAction<ButtonAction>;
type ClickedModal = NonNullable<ButtonClick['view']>;

/**
 * A button on a message that opens a modal ("Book this", "Update", "Open the form again"): `open`
 * reads what the button's value names and returns the modal to show, or, when that is gone, the
 * text the clicker is told instead. `again` says what to click when Slack was too slow to open it.
 */
export function onOpeningButton(
  app: App,
  deps: Pick<BotDeps, 'inFlight' | 'logger'>,
  actionId: string,
  again: string,
  open: (value: string, body: ButtonClick) => Promise<(() => ModalView | Promise<ModalView>) | string>,
): void {
  app.action<ButtonClick>(actionId, async ({ ack, body, action, client, respond }) => {
    await ack();
    const opened = await open(action.value ?? '', body);
    if (typeof opened === 'string') {
      await respond({ response_type: 'ephemeral', replace_original: false, text: opened });
      return;
    }
    openModalSoon(deps, client, { triggerId: body.trigger_id, respond, again, view: opened });
  });
}

/** A button inside one of the bot's modals ("Try again", "Back to the form"), with the modal it is in. */
export function onModalButton(
  app: App,
  actionId: string,
  handle: (view: ClickedModal, client: SlackClient) => Promise<void>,
): void {
  app.action<ButtonClick>(actionId, async ({ ack, body, client }) => {
    await ack();
    if (body.view) await handle(body.view, client);
  });
}

/**
 * "Back to the form": the modal shows the form of the draft it belongs to, if that is still
 * there. The view's hash makes a stale second click a no-op.
 */
export function onBackToForm(
  app: App,
  actionId: string,
  form: (privateMetadata: string) => Promise<ModalView | undefined>,
): void {
  onModalButton(app, actionId, async (view, client) => {
    const shown = await form(view.private_metadata);
    if (shown) await showInModal(client, view.id, shown, view.hash);
  });
}
