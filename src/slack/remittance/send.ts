/** A remittance file from Slack: downloaded, reconciled and recorded (operations/remittance.ts), told in the modal; card, results file, the COD overdue, booking cards. */

import { codLedger, reconcileRemittance, summariseCod } from '../../operations/remittance.js';
import { RenderRefused } from '../../render/pool.js';
import type { Store } from '../../store/index.js';
import { type RemittanceFileRecord, StoreUnavailableError } from '../../store/index.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { redrawCards } from '../booking/index.js';
import type { Core } from '../core.js';
import { storeUnavailableText } from '../kit/blocks.js';
import { type ChosenFile, downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError, uploadFile, uploadToUser } from '../kit/files.js';
import { showInModal } from '../kit/modal.js';
import {
  type Delivered,
  deliveredNote,
  type Message,
  postToChannel,
  type SlackClient,
} from '../runtime/delivery.js';
import {
  alreadyReconciledView,
  notReconciledView,
  overdueMessage,
  reconciledView,
  remittanceCard,
} from './blocks.js';
import { seenRows } from './seen.js';

/** Posts a message, and a file in its thread (or, with no thread to post in, to the person). */
async function postWithFile(
  deps: Pick<Core, 'logger'>,
  client: SlackClient,
  where: { channelId: string; userId: string },
  message: Message,
  file: { filename: string; title: string; content: string },
): Promise<Delivered | undefined> {
  const delivered = await postToChannel(client, where, message, deps.logger).catch((err: unknown) => {
    deps.logger.error({ err }, 'a COD remittance message could not be posted');
    return undefined;
  });
  try {
    if (delivered && 'ts' in delivered && delivered.ts) {
      await uploadFile(client, delivered.channelId, { ...file, threadTs: delivered.ts });
    } else {
      await uploadToUser(client, where.userId, { ...file, comment: message.text });
    }
  } catch (err) {
    deps.logger.error({ err }, 'a COD remittance file could not be shared');
  }
  return delivered;
}

/** Each paid booking's card (and audit card) redrawn with what it was remitted. */
async function redrawPaidCards(
  deps: Pick<Core, 'schemas' | 'logger' | 'waybill' | 'bot'> & {
    store: Pick<Store, 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  },
  client: SlackClient,
  trackingNumbers: readonly string[],
) {
  for (const trackingNumber of trackingNumbers) await redrawCards(deps, client, trackingNumber);
}

/** The same content was reconciled before: nothing changes, and the modal says so. */
async function tellReconciledBefore(
  deps: Pick<Core, 'logger' | 'waybill'>,
  client: SlackClient,
  viewId: string,
  fileName: string,
  earlier: RemittanceFileRecord,
): Promise<void> {
  deps.logger.info({ fileHash: earlier.fileHash }, 'remittance file reconciled before: nothing changed');
  const date = zonedDateAndTime(earlier.createdAt, deps.waybill.timeZone).date;
  await showInModal(
    client,
    viewId,
    alreadyReconciledView(
      { fileName, earlierName: earlier.fileName, userId: earlier.userId, date },
      deps.waybill.env,
    ),
  );
}

/** What reconciling a file from Slack reads and writes: the store, the settings, the clock, the files made. */
type Reconciling = Pick<Core, 'access' | 'schemas' | 'logger' | 'waybill' | 'bot' | 'now' | 'render'> & {
  store: Pick<Store, 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
};

/** After "Reconcile": the whole way from the chosen file to the card, told in the modal. */
export async function reconcileFile(
  deps: Reconciling,
  client: SlackClient,
  input: ChosenFile,
): Promise<void> {
  const progress = { recorded: false };
  try {
    await reconcileChosen(deps, client, input, progress);
  } catch (err) {
    if (err instanceof RenderRefused) {
      // Made after the file was recorded: the bot stopping (or too busy) leaves only the files unsent.
      deps.logger.warn({ err }, 'remittance: a results file was not made');
      const said = `The file was reconciled and recorded, but its results could not be made now (${err.message}). Importing the same file again says when it was reconciled.`;
      await showInModal(client, input.viewId, notReconciledView(said, deps.waybill.env, true));
      return;
    }
    if (!(err instanceof StoreUnavailableError)) throw err;
    deps.logger.warn({ err, recorded: progress.recorded }, 'remittance: the database did not answer');
    const said = progress.recorded
      ? "The file was reconciled and recorded, but the bot's database stopped answering before everything was posted. Its result is kept: importing the same file again says when it was reconciled."
      : storeUnavailableText;
    await showInModal(client, input.viewId, notReconciledView(said, deps.waybill.env, progress.recorded));
  }
}

async function reconcileChosen(
  deps: Reconciling,
  client: SlackClient,
  input: ChosenFile,
  progress: { recorded: boolean },
): Promise<void> {
  const { env, currency } = deps.waybill;
  let file: { name: string; bytes: Uint8Array };
  try {
    // The same limits as a bulk booking file: its size, its time; only the submitter's own file.
    file = await downloadChosenFile(deps, client, input.fileId, input.userId);
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    deps.logger.warn({ err, fileId: input.fileId }, 'a remittance file could not be read');
    await showInModal(client, input.viewId, notReconciledView(err.message, env));
    return;
  }
  const reconciled = await reconcileRemittance(deps, {
    ...file,
    userId: input.userId,
    channelId: input.channelId,
  });
  if (reconciled.state === 'not read') {
    await showInModal(client, input.viewId, notReconciledView(reconciled.message, env));
    return;
  }
  if (reconciled.state === 'reconciled before') {
    await tellReconciledBefore(deps, client, input.viewId, file.name, reconciled.earlier);
    return;
  }
  progress.recorded = true;
  const { result, paid } = reconciled;
  const where = { channelId: input.channelId, userId: input.userId };
  const base = file.name.replace(/\.csv$/i, '');
  const delivered = await postWithFile(
    deps,
    client,
    where,
    remittanceCard({ fileName: file.name, userId: input.userId, ...result, currency, env }),
    {
      filename: `remittance-results-${base}.csv`,
      title: `Results of ${file.name}`,
      content: await deps.render.run('remittanceResults', result.lines),
    },
  );
  const ledger = await codLedger(deps);
  // Posted in the import's conversation: the parties only of the bookings booked there (the access rule).
  const overdue = seenRows(
    deps.access,
    deps.access.teamScope,
    { kind: 'conversation', channelId: input.channelId },
    ledger.overdue,
  );
  await postWithFile(deps, client, where, overdueMessage({ cod: summariseCod(ledger), overdue, currency }), {
    filename: 'cod-overdue.csv',
    title: 'COD overdue',
    content: await deps.render.run('outstanding', overdue),
  });
  await showInModal(
    client,
    input.viewId,
    reconciledView(
      {
        fileName: file.name,
        totals: result.totals,
        note: delivered ? deliveredNote(delivered) : 'The card could not be posted.',
      },
      env,
    ),
  );
  await redrawPaidCards(deps, client, paid);
}
