/** `/waybill cod`: the COD the courier still owes, aged by days since delivery and by sender, privately, with the list as a CSV file in a DM. */
import { ageCod } from '../../waybill/cod-ageing.js';
import { outstandingCsv } from '../../waybill/csv/remittance-results.js';
import type { CommandAnswer } from '../kit/command-request.js';
import { uploadToUser } from '../kit/files.js';
import { codAgeingMessage } from './blocks.js';
import { outstandingCod } from './flow.js';

export const codCommand: CommandAnswer<'cod'> = async (deps, { ack, client, command }) => {
  const outstanding = await outstandingCod(deps, { all: true });
  const message = codAgeingMessage(ageCod(outstanding.bookings), deps.waybill.currency);
  await ack({ response_type: 'ephemeral', ...message });
  if (outstanding.bookings.length === 0) return;
  deps.inFlight.run('cod ageing', async () => {
    await uploadToUser(client, command.user_id, {
      filename: 'cod-outstanding.csv',
      title: 'COD still outstanding',
      content: outstandingCsv(outstanding.bookings),
      comment: message.text,
    }).catch((err: unknown) => deps.logger.error({ err }, 'the COD outstanding file could not be sent'));
  });
};
