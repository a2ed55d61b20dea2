/** `/waybill cod`: the COD the courier still owes, aged by days since delivery and by sender, privately, with the list as a CSV file in a DM. */

import { type LedgerDeps, outstandingCod } from '../../operations/remittance.js';
import { ageCod } from '../../waybill/cod-ageing.js';
import { outstandingCsv } from '../../waybill/csv/remittance-results.js';
import type { Core } from '../core.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { uploadToUser } from '../kit/files.js';
import { codAgeingMessage } from './blocks.js';

/** Answered at once; the ageing, read from every outstanding booking, follows after the ack. */
const codCommand: CommandAnswer<object, LedgerDeps & Pick<Core, 'inFlight' | 'logger' | 'waybill'>> = async (
  deps,
  { ack, client, command, respond },
) => {
  await ack({ response_type: 'ephemeral', text: 'Working out the COD the courier still owes\u2026' });
  deps.inFlight.run('cod ageing', async () => {
    try {
      const outstanding = await outstandingCod(deps, { all: true });
      const message = codAgeingMessage(ageCod(outstanding.bookings), deps.waybill.currency);
      await respond({ response_type: 'ephemeral', replace_original: true, ...message });
      if (outstanding.bookings.length === 0) return;
      await uploadToUser(client, command.user_id, {
        filename: 'cod-outstanding.csv',
        title: 'COD still outstanding',
        content: outstandingCsv(outstanding.bookings),
        comment: message.text,
      });
    } catch (err) {
      deps.logger.error({ err }, 'the COD ageing could not be made');
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        text: ':warning: The COD ageing could not be made; try `/waybill cod` again later.',
      }).catch(() => undefined);
    }
  });
};

/** `/waybill cod`. */
export const codVerb = waybillVerb({
  verb: 'cod',
  usage:
    '`/waybill cod`: the COD the courier still owes, by days since delivery and by sender, just for you, with the list as a CSV file',
  // Money owed by the courier: whoever may reconcile its files.
  permission: 'remittance',
  parse: noWords,
  answer: codCommand,
});
