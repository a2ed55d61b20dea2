/** `/waybill report [from..to]`: the report of those days (the 7 before today if none), privately, its CSV in a DM. */

import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { localNow } from '../digest/index.js';
import { parseExportRange } from '../home/index.js';
import { type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import { uploadToUser } from '../kit/files.js';
import { reportFiles, reportMessage } from './blocks.js';
import { reportData } from './data.js';
import { weekBefore } from './send.js';

/** Answered at once; the report, read from the store, follows after the ack. */
const reportCommand: CommandAnswer<
  { range: string },
  Pick<Core, 'bot' | 'inFlight' | 'logger' | 'now' | 'render' | 'waybill'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'remittances' | 'statuses'>;
  }
> = async (deps, { ack, client, command, respond }, { range }) => {
  const parsed = range ? parseExportRange(range, 'report') : undefined;
  if (parsed && 'problem' in parsed) {
    await ack({ response_type: 'ephemeral', text: parsed.problem });
    return;
  }
  const [from, to] = parsed ? [parsed.first, parsed.last] : weekBefore(localNow(deps).date, deps);
  await ack({ response_type: 'ephemeral', text: `Working out the report of ${from} to ${to}\u2026` });
  deps.inFlight.run('report', async () => {
    try {
      const data = await reportData(deps, from, to);
      const message = reportMessage(data, { currency: deps.waybill.currency, title: 'Report' });
      await respond({ response_type: 'ephemeral', replace_original: true, ...message });
      const [csv, chart] = await reportFiles(deps, data, 'Report');
      if (csv) await uploadToUser(client, command.user_id, { ...csv, comment: message.text });
      if (chart) await uploadToUser(client, command.user_id, chart);
    } catch (err) {
      deps.logger.error({ err }, 'the report could not be made');
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        text: ':warning: The report could not be made; try `/waybill report` again later.',
      }).catch(() => undefined);
    }
  });
};

/** `/waybill report`. */
export const reportVerb = waybillVerb({
  verb: 'report',
  usage:
    '`/waybill report [2026-11-01..2026-11-07]`: the report of those days (the 7 before today if none), just for you, its numbers as a CSV file',
  permission: 'remittance',
  parse: ({ rest }) => ({ range: rest }),
  answer: reportCommand,
});
