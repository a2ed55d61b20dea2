/** A booking card's Take it (the clicker becomes its owner) and Assign (a people picker). */
import type { App, BlockAction, UsersSelectAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { bookingOfBlock } from '../kit/booking-card.js';
import { onButton, tellClicker } from '../kit/buttons.js';
import { ids } from '../kit/ids.js';
import { assignOwner } from './assign.js';

export function register(app: App, deps: Core): void {
  // Handing a booking over changes who answers for it: the update permission, as for its status.
  onButton(app, ids.ownerTake, requires(deps, 'update'), async (body, client, tell, action) => {
    const text = await assignOwner(deps, client, {
      userId: body.user.id,
      trackingNumber: action.value ?? '',
      ownerId: body.user.id,
    });
    await tell({ response_type: 'ephemeral', replace_original: false, text });
  });

  app.action<BlockAction<UsersSelectAction>>(
    ids.ownerAssign,
    requires(deps, 'update'),
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const text = await assignOwner(deps, client, {
        userId: body.user.id,
        trackingNumber: bookingOfBlock(action.block_id) ?? '',
        ownerId: action.selected_user,
      });
      await tellClicker(body, client, respond)({ response_type: 'ephemeral', replace_original: false, text });
    },
  );
}
