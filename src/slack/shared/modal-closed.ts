/** A closed modal: acknowledged, nothing undone. */
import type { App, ViewClosedAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';

/**
 * A dispatcher closed a modal. Nothing to undo: drafts stay (a result still in flight is
 * delivered as a message when the modal is gone), so this only acknowledges.
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewClosedAction>({ type: 'view_closed', callback_id: /.*/ }, async ({ ack, view, body }) => {
    await ack();
    deps.logger.debug({ callbackId: view.callback_id, user: body.user.id }, 'modal closed');
  });
}
