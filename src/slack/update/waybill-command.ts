/** /waybill: help, `show <tracking number>` and `update <tracking number>`. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { bookingCard } from '../shared/booking-card.js';
import { readCommand } from '../shared/command-request.js';
import { openModalSoon } from '../shared/modal.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import { waybillHelp } from './blocks.js';
import { createUpdateDraft, storedBooking, unknownWaybillText, updateForm } from './flow.js';

/** `/waybill`, `/waybill help`, `/waybill show <tn>`, `/waybill update <tn>`. */
export function register(app: App, deps: BotDeps): void {
  app.command('/waybill', async ({ command, ack, client, respond }) => {
    const request = readCommand('/waybill', command.text);
    if (request?.kind !== 'show' && request?.kind !== 'update') {
      await ack({ response_type: 'ephemeral', text: waybillHelp() });
      return;
    }
    const { trackingNumber } = request;
    const known = storedBooking(deps, trackingNumber);
    const safeNumber = escapeMrkdwn(trackingNumber);
    if (request.kind === 'show') {
      if (!known) {
        await ack({ response_type: 'ephemeral', text: `I have no record of waybill \`${safeNumber}\`.` });
        return;
      }
      const { catalog, currency, env } = deps.waybill;
      const card = bookingCard({
        booking: known.booking,
        trackingRefNo: known.record.trackingRefNo,
        bookedBy: known.record.bookedBy,
        bookedAt: known.record.bookedAt,
        updatedBy: known.record.updatedBy,
        catalog,
        currency,
        env,
      });
      await ack({ response_type: 'ephemeral', ...card });
      return;
    }
    const where = { userId: command.user_id, channelId: command.channel_id };
    const draft = known ? createUpdateDraft(deps, where, trackingNumber) : undefined;
    if (!draft) {
      await ack({ response_type: 'ephemeral', text: unknownWaybillText(safeNumber) });
      return;
    }
    await ack();
    openModalSoon(deps, client, {
      triggerId: command.trigger_id,
      respond,
      again: `type \`/waybill update ${safeNumber}\``,
      view: () => updateForm(deps, draft),
    });
  });
}
