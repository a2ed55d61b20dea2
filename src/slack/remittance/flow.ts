/** A remittance file reconciled: downloaded, read, matched against our bookings, recorded once; card, results file, outstanding list, booking cards. */
import { createHash } from 'node:crypto';
import { type BookingRecord, type RemittanceFileRecord, StoreUnavailableError } from '../../store/index.js';
import { readRemittanceCsv } from '../../waybill/csv/read-remittance.js';
import { outstandingCsv, remittanceResultsCsv } from '../../waybill/csv/remittance-results.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { formatCents, isObject } from '../../waybill/fields.js';
import {
  centsOf,
  type ExpectedCod,
  PAYING_OUTCOMES,
  type Reconciliation,
  reconcile,
} from '../../waybill/remittance.js';
import type { Core } from '../core.js';
import { storeUnavailableText } from '../kit/blocks.js';
import {
  type Delivered,
  deliveredNote,
  type Message,
  postToChannel,
  type SlackClient,
} from '../kit/delivery.js';
import { type ChosenFile, downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError, uploadFile, uploadToUser } from '../kit/files.js';
import { showInModal } from '../kit/modal.js';
import { redrawCards } from '../kit/stored-booking.js';
import {
  alreadyReconciledView,
  notReconciledView,
  type OutstandingBooking,
  outstandingMessage,
  reconciledView,
  remittanceCard,
} from './blocks.js';

/** Lines in one file: a month of a busy team's COD. */
export const MAX_REMITTANCE_LINES = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 500;

/** What reconciling a file reads and writes: the store, the settings, the clock. */
type Reconciling = Pick<Core, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot' | 'now'>;

/** What a stored booking is owed in COD (its record is the domain booking as JSON). */
function expectedOf(record: unknown, codPaymentMethod: string): ExpectedCod {
  const booking = isObject(record) ? record : {};
  const codAmount = typeof booking.codAmount === 'string' ? booking.codAmount : '0.00';
  const cod = booking.paymentMethod === codPaymentMethod && centsOf(codAmount) > 0n;
  return { cod, codAmount };
}

/** Every line matched against our bookings and what earlier files paid on them. */
async function reconcileLines(
  deps: Pick<Core, 'store' | 'waybill'>,
  lines: Parameters<typeof reconcile>[0],
): Promise<Reconciliation> {
  const numbers = lines.map((l) => l.trackingNumber).filter(Boolean);
  const [bookings, earlier] = await Promise.all([
    deps.store.remittances.bookingsNamed(numbers),
    deps.store.remittances.ofBookings(numbers),
  ]);
  const expected = new Map(
    bookings.map((b) => [b.trackingNumber, expectedOf(b.record, deps.waybill.catalog.codPaymentMethod)]),
  );
  const paid = new Map<string, bigint>();
  for (const line of earlier) {
    if (line.amount && (PAYING_OUTCOMES as readonly string[]).includes(line.outcome)) {
      paid.set(line.trackingNumber, (paid.get(line.trackingNumber) ?? 0n) + centsOf(line.amount));
    }
  }
  return reconcile(
    lines,
    (tn) => expected.get(tn),
    (tn) => paid.get(tn) ?? 0n,
  );
}

/** COD bookings older than the setting that no file has paid, read in pages. */
export async function outstandingCod(
  deps: Pick<Core, 'store' | 'waybill' | 'bot' | 'now'>,
): Promise<{ bookings: OutstandingBooking[]; total: string }> {
  const bookedBefore = new Date(deps.now().getTime() - deps.bot.remittance.outstandingDays * DAY_MS);
  const found: OutstandingBooking[] = [];
  let total = 0n;
  let after: string | undefined;
  for (;;) {
    const page: BookingRecord[] = await deps.store.remittances.unremitted({
      bookedBefore,
      paying: PAYING_OUTCOMES,
      limit: PAGE,
      ...(after === undefined ? {} : { afterTrackingNumber: after }),
    });
    for (const booking of page) {
      const { cod, codAmount } = expectedOf(booking.record, deps.waybill.catalog.codPaymentMethod);
      if (!cod) continue;
      const consignee =
        isObject(booking.record) && isObject(booking.record.consignee) ? booking.record.consignee : {};
      total += centsOf(codAmount);
      found.push({
        trackingNumber: booking.trackingNumber,
        codAmount,
        receiver: typeof consignee.name === 'string' ? consignee.name : '',
        bookedDate: zonedDateAndTime(booking.bookedAt, deps.waybill.timeZone).date,
      });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)?.trackingNumber;
  }
  return { bookings: found, total: formatCents(total) };
}

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
  deps: Pick<Core, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot'>,
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
  const read = readRemittanceCsv(file.bytes, {
    columns: deps.bot.remittance.columns,
    maxLines: MAX_REMITTANCE_LINES,
    maxBytes: deps.bot.bulk.maxBytes,
  });
  const fileProblem = read.problems[0];
  if (fileProblem) {
    await showInModal(client, input.viewId, notReconciledView(fileProblem.message, env));
    return;
  }
  const fileHash = createHash('sha256').update(file.bytes).digest('hex');
  const earlier = await deps.store.remittances.get(fileHash);
  if (earlier) {
    await tellReconciledBefore(deps, client, input.viewId, file.name, earlier);
    return;
  }
  const result = await reconcileLines(deps, read.lines);
  const recorded = await deps.store.remittances.record(
    {
      fileHash,
      fileName: file.name,
      userId: input.userId,
      channelId: input.channelId,
      lineCount: read.lines.length,
    },
    result.lines.map((l) => ({
      line: l.line,
      trackingNumber: l.trackingNumber,
      outcome: l.outcome,
      ...(l.amount === undefined ? {} : { amount: l.amount }),
      ...(l.difference === undefined ? {} : { difference: l.difference }),
      ...(l.remittedAt ? { remittedAt: l.remittedAt } : {}),
    })),
  );
  progress.recorded = recorded.first;
  if (!recorded.first) {
    // Another replica (a double click) recorded the same content a moment ago.
    await tellReconciledBefore(deps, client, input.viewId, file.name, recorded.record);
    return;
  }
  deps.logger.info(
    { fileHash, lines: read.lines.length, counts: result.totals.counts },
    'remittance file reconciled',
  );
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
      content: remittanceResultsCsv(result.lines),
    },
  );
  const outstanding = await outstandingCod(deps);
  await postWithFile(
    deps,
    client,
    where,
    outstandingMessage({ ...outstanding, days: deps.bot.remittance.outstandingDays, currency }),
    {
      filename: 'cod-outstanding.csv',
      title: 'COD still outstanding',
      content: outstandingCsv(outstanding.bookings),
    },
  );
  const paid = [
    ...new Set(result.lines.filter((l) => PAYING_OUTCOMES.includes(l.outcome)).map((l) => l.trackingNumber)),
  ];
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
