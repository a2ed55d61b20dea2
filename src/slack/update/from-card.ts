/** "Update" on a booking card: the update form, pre-filled with the last-known record. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onOpeningButton } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import { createUpdateDraft, unknownWaybillText, updateForm } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  onOpeningButton(app, deps, ids.waybillUpdate, 'click *Update*', async (trackingNumber, body) => {
    const where = { userId: body.user.id, channelId: body.channel?.id ?? '' };
    const draft = await createUpdateDraft(deps, where, trackingNumber);
    if (!draft) return unknownWaybillText(escapeMrkdwn(trackingNumber));
    return () => updateForm(deps, draft);
  });
}
