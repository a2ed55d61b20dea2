/** Export: `/waybill export <from>..<to>`, or the Home tab's Export and its two dates; the file comes in a DM. */
import type { App, SlashCommand, ViewSubmitAction } from '@slack/bolt';
import { zonedDateAndTime } from '../../waybill/dates.js';
import type { BotDeps } from '../deps.js';
import { notice } from '../shared/blocks.js';
import { onButton } from '../shared/buttons.js';
import type { SlackClient } from '../shared/delivery.js';
import { getPath, VALUE_ACTION } from '../shared/forms.js';
import { ids } from '../shared/ids.js';
import { openModalSoon } from '../shared/modal.js';
import { exportBlocks, exportModal } from './blocks.js';
import { type ExportRange, parseExportRange, sendExport } from './export.js';

/** Builds and sends the export after the ack; a failure is said to the person in their DM. */
function exportSoon(deps: BotDeps, client: SlackClient, userId: string, range: ExportRange): void {
  deps.inFlight.run('export', async () => {
    try {
      await sendExport(deps, client, userId, range);
    } catch (err) {
      deps.logger.error({ err, user: userId }, 'an export could not be sent');
      await client.chat
        .postMessage({
          channel: userId,
          ...notice(
            ':warning:',
            `The export of ${range.first} to ${range.last} could not be made; try again later.`,
          ),
        })
        .catch(() => undefined);
    }
  });
}

/** `/waybill export …`, answered at once with what happens next. */
export async function exportFromCommand(
  deps: BotDeps,
  client: SlackClient,
  command: SlashCommand,
  range: string,
): Promise<string> {
  const parsed = parseExportRange(range);
  if ('problem' in parsed) return parsed.problem;
  exportSoon(deps, client, command.user_id, parsed);
  return `Exporting ${parsed.first} to ${parsed.last}: the file comes to you in a DM from the bot.`;
}

export function register(app: App, deps: BotDeps): void {
  onButton(app, ids.exportOpen, async (body, client, tell) => {
    const { timeZone, env } = deps.waybill;
    const today = zonedDateAndTime(deps.now(), timeZone).date;
    openModalSoon(deps, client, {
      triggerId: body.trigger_id,
      respond: tell,
      again: 'click *Export*',
      view: () => exportModal({ from: `${today.slice(0, 8)}01`, to: today, env, timeZone }),
    });
  });
  app.view<ViewSubmitAction>(ids.exportRange, async ({ ack, body, view, client }) => {
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
