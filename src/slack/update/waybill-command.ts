/** /waybill: help, `show`, `update` and `rebook <tracking number>`, `addresses` (the address book) and `export <from>..<to>`. */
import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { openAddressBook } from '../addresses/index.js';
import { rebookForm } from '../book/index.js';
import type { BotDeps } from '../deps.js';
import { exportFromCommand } from '../home/index.js';
import { bookingCard } from '../shared/booking-card.js';
import { readCommand } from '../shared/command-request.js';
import { openModalSoon } from '../shared/modal.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import { storedBooking } from '../shared/stored-booking.js';
import { waybillHelp } from './blocks.js';
import { createUpdateDraft, unknownWaybillText, updateForm } from './flow.js';

/** The update form of a known booking, or why there is none. */
async function updateOpening(
  deps: BotDeps,
  where: { userId: string; channelId: string },
  trackingNumber: string,
  known: boolean,
): Promise<(() => ModalView) | string> {
  const draft = known ? await createUpdateDraft(deps, where, trackingNumber) : undefined;
  return draft ? () => updateForm(deps, draft) : unknownWaybillText(escapeMrkdwn(trackingNumber));
}

/** `/waybill`, `/waybill help`, `/waybill show|update|rebook <tn>`, `/waybill addresses [words]`. */
export function register(app: App, deps: BotDeps): void {
  app.command('/waybill', async ({ command, ack, client, respond }) => {
    const request = readCommand('/waybill', command.text);
    if (request?.kind === 'export') {
      await ack({
        response_type: 'ephemeral',
        text: await exportFromCommand(deps, client, command, request.range),
      });
      return;
    }
    if (request?.kind === 'addresses') {
      await ack();
      openAddressBook(deps, client, {
        userId: command.user_id,
        channelId: command.channel_id,
        triggerId: command.trigger_id,
        query: request.query,
        respond,
      });
      return;
    }
    if (request?.kind !== 'show' && request?.kind !== 'update' && request?.kind !== 'rebook') {
      await ack({ response_type: 'ephemeral', text: waybillHelp() });
      return;
    }
    const { trackingNumber } = request;
    const known = await storedBooking(deps, trackingNumber);
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
    // `update` and `rebook` open a form, or say why they cannot.
    const where = {
      userId: command.user_id,
      channelId: command.channel_id,
      responseUrl: command.response_url,
    };
    const form =
      request.kind === 'update'
        ? await updateOpening(deps, where, trackingNumber, Boolean(known))
        : rebookForm(deps, where, trackingNumber, known?.booking);
    if (typeof form === 'string') {
      await ack({ response_type: 'ephemeral', text: form });
      return;
    }
    await ack();
    openModalSoon(deps, client, {
      triggerId: command.trigger_id,
      respond,
      again: `type \`/waybill ${request.kind} ${safeNumber}\``,
      view: form,
    });
  });
}
