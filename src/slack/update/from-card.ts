import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids } from '../shared/ids.js';
import { openModalSoon } from '../shared/modal.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import { createUpdateDraft, unknownWaybillText, updateForm } from './flow.js';

/** "Update" on a booking card: the update form, pre-filled with the last-known record. */
export function register(app: App, deps: BotDeps): void {
  app.action(ids.waybillUpdate, async ({ ack, body, client, respond }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const action = body.actions[0];
    const trackingNumber = action?.type === 'button' ? (action.value ?? '') : '';
    const where = { userId: body.user.id, channelId: body.channel?.id ?? '' };
    const draft = createUpdateDraft(deps, where, trackingNumber);
    if (!draft) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: unknownWaybillText(escapeMrkdwn(trackingNumber)),
      });
      return;
    }
    openModalSoon(deps, client, {
      triggerId: body.trigger_id,
      respond,
      again: 'click *Update*',
      view: () => updateForm(deps, draft),
    });
  });
}
