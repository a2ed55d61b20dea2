/** A booking card's Take it (the clicker becomes its owner) and Assign (a people picker). */
import type { App, BlockAction, UsersSelectAction } from '@slack/bolt';
import { bookingIds, bookingOfBlock } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { assignOwner } from './assign.js';

export function register(app: App, deps: Core): void {
  // Handing a booking over changes who answers for it: the update permission, as for its status.
  app.action<ButtonClick, Told>(
    bookingIds.ownerTake,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      const text = await assignOwner(deps, client, {
        userId: body.user.id,
        trackingNumber: action.value ?? '',
        ownerId: body.user.id,
      });
      await tell({ response_type: 'ephemeral', replace_original: false, text });
    },
  );

  app.action<BlockAction<UsersSelectAction>, Told>(
    bookingIds.ownerAssign,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    async ({ body, action, client, context: { tell } }) => {
      const text = await assignOwner(deps, client, {
        userId: body.user.id,
        trackingNumber: bookingOfBlock(action.block_id) ?? '',
        ownerId: action.selected_user,
      });
      await tell({ response_type: 'ephemeral', replace_original: false, text });
    },
  );
}
