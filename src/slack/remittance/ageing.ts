/** `/waybill cod`: the COD the courier owes (aged by days since delivery and by sender), overdue and in the pipeline, privately, with the list as a CSV file in a DM. */

import { codLedger, type LedgerDeps, summariseCod } from '../../operations/remittance.js';
import { outstandingCsv } from '../../waybill/csv/remittance-results.js';
import type { Core } from '../core.js';
import { scopeOf } from '../guards/person.js';
import { type CommandAnswer, noWords, waybillVerb } from '../kit/command-request.js';
import { uploadToUser } from '../kit/files.js';
import { codAgeingMessage } from './blocks.js';
import { seenRows } from './seen.js';

/** Answered at once; the ageing, read from every outstanding booking, follows after the ack. */
const codCommand: CommandAnswer<
  object,
  LedgerDeps & Pick<Core, 'access' | 'inFlight' | 'logger' | 'waybill'>
> = async (deps, { ack, client, command, respond }) => {
  await ack({ response_type: 'ephemeral', text: 'Working out the COD the courier owes\u2026' });
  deps.inFlight.run('cod ageing', async () => {
    try {
      const ledger = await codLedger(deps);
      const message = codAgeingMessage(summariseCod(ledger), deps.waybill.currency);
      await respond({ response_type: 'ephemeral', replace_original: true, ...message });
      if (ledger.owed.length === 0) return;
      await uploadToUser(client, command.user_id, {
        filename: 'cod-owed.csv',
        title: 'COD owed',
        // Privately to the asker: the parties of the bookings they see.
        content: outstandingCsv(
          seenRows(
            deps.access,
            await scopeOf(deps.access, client, command.user_id, command.team_id),
            { kind: 'private' },
            ledger.owed,
          ),
        ),
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
    '`/waybill cod`: the COD the courier owes (by days since delivery and by sender), overdue and in the pipeline, just for you, with the list as a CSV file',
  // Money owed by the courier: whoever may reconcile its files.
  permission: 'remittance',
  parse: noWords,
  answer: codCommand,
});
