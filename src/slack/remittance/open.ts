/** Opening the remittance modal: COD remittance on the Home tab, and `/waybill remittance`. */
import type { App } from '@slack/bolt';
import { MAX_REMITTANCE_LINES } from '../../operations/remittance.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { openModalSoon, type Respond } from '../kit/modal.js';
import type { SlackClient } from '../runtime/delivery.js';
import { remittanceModal } from './blocks.js';
import { ids } from './ids.js';

/** The file modal; from a command, its channel is chosen for the results. */
function openRemittance(
  deps: Pick<Core, 'waybill' | 'inFlight' | 'logger'>,
  client: SlackClient,
  input: { triggerId: string; channelId?: string; respond: Respond },
): void {
  openModalSoon(deps, client, {
    triggerId: input.triggerId,
    respond: input.respond,
    again: input.channelId ? 'type `/waybill remittance`' : 'click *COD remittance*',
    view: () =>
      remittanceModal({
        env: deps.waybill.env,
        maxLines: MAX_REMITTANCE_LINES,
        ...(input.channelId ? { channelId: input.channelId } : {}),
      }),
  });
}

/** `/waybill remittance`: the file modal, the command's channel chosen for the results. */
const remittanceCommand: CommandAnswer<object, Pick<Core, 'waybill' | 'logger' | 'inFlight'>> = async (
  deps,
  { ack, client, command, respond },
) => {
  await ack();
  openRemittance(deps, client, { triggerId: command.trigger_id, channelId: command.channel_id, respond });
};

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Told>(
    ids.remittanceOpen,
    requires(deps, 'remittance'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell: respond } }) => {
      openRemittance(deps, client, { triggerId: body.trigger_id, respond });
    },
  );
}

/** `/waybill remittance`. */
export const remittanceVerb = waybillVerb({
  verb: 'remittance',
  usage: "`/waybill remittance`: reconcile the courier's COD remittance file against our bookings",
  permission: 'remittance',
  parse: noWords,
  answer: remittanceCommand,
});
