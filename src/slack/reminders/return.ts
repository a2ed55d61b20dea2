/** A failed attempt's Return to sender, from its reminder: the parcel recorded returned in one click, as Record status would. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { recordAndTell } from '../status/index.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  // Recording a status changes what is known of a booking: the update permission, checked again
  // on the booking's own conversation by the status feature.
  app.action<ButtonClick, Told>(
    ids.reminderReturn,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    async ({ action: { value: trackingNumber = '' }, body, client, context: { tell } }) => {
      const text = await recordAndTell(deps, client, {
        userId: body.user.id,
        trackingNumber,
        choice: { status: 'returned' },
      });
      await tell({ response_type: 'ephemeral', replace_original: false, text });
    },
  );
}
