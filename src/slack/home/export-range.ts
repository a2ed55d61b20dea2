/** Export: `/waybill export <from>..<to>`, or the Home tab's Export and its two dates; the file comes in a DM. */

import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Store } from '../../store/index.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import { getPath, VALUE_ACTION } from '../kit/forms.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import type { SlackClient } from '../runtime/delivery.js';
import { exportBlocks, exportModal } from './blocks.js';
import { type ExportRange, parseExportRange, sendExport } from './export.js';
import { ids } from './ids.js';

/** Builds and sends the export after the ack; a failure is said to the person in their DM. */
function exportSoon(
  deps: Pick<Core, 'access' | 'bot' | 'waybill' | 'inFlight' | 'logger'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  },
  client: SlackClient,
  userId: string,
  range: ExportRange,
): void {
  deps.inFlight.run('export', () => sendExport(deps, client, userId, range), {
    client,
    userId,
    what: `the export of ${range.first} to ${range.last}`,
  });
}

/** `/waybill export …`, answered at once with what happens next. */
const exportCommand: CommandAnswer<
  { range: string },
  Pick<Core, 'access' | 'bot' | 'inFlight' | 'logger' | 'waybill'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  }
> = async (deps, { ack, client, command }, { range }) => {
  const parsed = parseExportRange(range);
  if ('problem' in parsed) {
    await ack({ response_type: 'ephemeral', text: parsed.problem });
    return;
  }
  exportSoon(deps, client, command.user_id, parsed);
  await ack({
    response_type: 'ephemeral',
    text: `Exporting ${parsed.first} to ${parsed.last}: the file comes to you in a DM from the bot.`,
  });
};

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    ids.exportOpen,
    requires(deps, 'show'),
    ackNow,
    openingModal(deps, 'click *Export*'),
    ({ context }) => {
      const { timeZone, env } = deps.waybill;
      const today = zonedDateAndTime(deps.now(), timeZone).date;
      return context.openModal(() =>
        exportModal({ from: `${today.slice(0, 8)}01`, to: today, env, timeZone }),
      );
    },
  );
  app.view<ViewSubmitAction>(ids.exportRange, requires(deps, 'show'), async ({ ack, body, view, client }) => {
    const day = (block: string) => getPath(view.state.values, `${block}.${VALUE_ACTION}.selected_date`);
    const parsed = parseExportRange(`${day(exportBlocks.from) ?? ''}..${day(exportBlocks.to) ?? ''}`);
    if ('problem' in parsed) {
      await ack({
        response_action: 'errors',
        errors: { [exportBlocks.to]: parsed.problem.replaceAll('`', '') },
      });
      return;
    }
    await ack();
    exportSoon(deps, client, body.user.id, parsed);
  });
}

/** `/waybill export`. */
export const exportVerb = waybillVerb({
  verb: 'export',
  usage:
    '`/waybill export 2026-11-01..2026-11-30`: the bookings and updates of those days as a CSV file, in a DM',
  // An export shows what is stored: whoever may look waybills up may have it.
  permission: 'show',
  parse: ({ rest }) => ({ range: rest }),
  answer: exportCommand,
});
