/** A closed modal: acknowledged, nothing undone. */
import type { App, ViewClosedAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from './access.js';

/**
 * A dispatcher closed a modal. Nothing to undo: drafts stay (a result still in flight is
 * delivered as a message when the modal is gone), so this only acknowledges.
 */
export function register(app: App, deps: Core): void {
  app.view<ViewClosedAction>(
    { type: 'view_closed', callback_id: /.*/ },
    requires(deps, 'nothing'),
    async ({ ack, view, body }) => {
      await ack();
      deps.logger.debug({ callbackId: view.callback_id, user: body.user.id }, 'modal closed');
    },
  );
}
