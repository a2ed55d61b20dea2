/** Booking a checked file: its rows queued (operations/bulk-queue.ts, each booked by book-row.ts), then one card, its thread and a results file. */
import { type QueuedBooking, settledResult } from '../../operations/book-row.js';
import { type OutcomeCounts, startRun } from '../../operations/bulk-queue.js';
import type { Draft, ImportRow, ImportRun, NewQueuedRow } from '../../store/index.js';
import type { BookingCsv, CsvBooking, CsvProblem } from '../../waybill/csv/read-bookings.js';
import { type RowResult, resultsCsv } from '../../waybill/csv/results.js';
import { downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError, uploadFile, uploadToUser } from '../kit/files.js';
import { getPath } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import { type Delivered, deliveredNote, postToChannel, type SlackClient } from '../runtime/delivery.js';
import { alreadyRunningView, finishedView, notCheckedView, rowMessages, summaryCard } from './blocks.js';
import { type BulkDeps, type BulkDraft, fileHash, readBookings, settledBefore } from './check.js';

/** One line per row with problems: what the results file and the thread say of it. */
function notValid(problems: readonly CsvProblem[]): RowResult[] {
  const byRow = new Map<number, { receiver: string; messages: string[] }>();
  for (const problem of problems) {
    if (problem.row === undefined || problem.row < 2) continue;
    const text = problem.column ? `${problem.column}: ${problem.message}` : problem.message;
    const entry = byRow.get(problem.row) ?? { receiver: problem.receiver ?? '', messages: [] };
    entry.messages.push(text);
    byRow.set(problem.row, entry);
  }
  return [...byRow].map(([row, { receiver, messages }]) => ({
    row,
    receiver,
    trackingNumber: '',
    courierReference: '',
    outcome: 'not valid',
    message: messages.join('; '),
  }));
}

function receiverOf(row: CsvBooking): string {
  const name = getPath(row.values, 'consignee.name');
  return typeof name === 'string' ? name : '';
}

/** The card in the chosen channel, each row's outcome in its thread, and the results file there too. */
async function report(
  deps: Pick<BulkDeps, 'logger' | 'waybill'>,
  client: SlackClient,
  run: ImportRun,
  results: RowResult[],
  counts: OutcomeCounts,
): Promise<Delivered | undefined> {
  const { fileName } = run;
  const card = summaryCard({
    fileName,
    userId: run.userId,
    counts,
    env: deps.waybill.env,
    fileHash: run.fileHash,
  });
  const delivered = await postToChannel(client, run, card, deps.logger).catch((err: unknown) => {
    deps.logger.error({ err }, 'the bulk booking card could not be posted');
    return undefined;
  });
  const file = {
    filename: `results-${fileName.replace(/\.csv$/i, '')}.csv`,
    title: `Results of ${fileName}`,
    content: resultsCsv(results),
  };
  try {
    if (delivered && 'ts' in delivered && delivered.ts) {
      for (const message of rowMessages(results)) {
        await client.chat.postMessage({ channel: delivered.channelId, thread_ts: delivered.ts, ...message });
      }
      await uploadFile(client, delivered.channelId, { ...file, threadTs: delivered.ts });
    } else {
      // The card's text has the file name escaped already.
      await uploadToUser(client, run.userId, { ...file, comment: card.text });
    }
  } catch (err) {
    deps.logger.error({ err }, 'the outcome of each row could not all be posted');
  }
  return delivered;
}

/**
 * The summary port (operations/bulk-queue.ts) once every row of a run is done: the card, its
 * thread and the results file, and the finished window; where the card went, for the thread.
 */
export async function summarise(
  deps: Pick<BulkDeps, 'logger' | 'waybill'>,
  client: SlackClient,
  run: ImportRun,
  results: RowResult[],
  counts: OutcomeCounts,
): Promise<{ channelId: string; ts: string } | undefined> {
  const { env } = deps.waybill;
  const { fileName } = run;
  const delivered = await report(deps, client, run, results, counts);
  const postedNote = delivered
    ? deliveredNote(delivered)
    : 'Slack did not take the summary card; the results file is in your DM with the bot.';
  await showInModal(
    client,
    run.viewId,
    finishedView({ fileName, counts, postedNote, env, metadata: viewMetadata({ draftId: run.id }) }),
  ).catch((err: unknown) => deps.logger.warn({ err }, 'the finished bulk booking could not be shown'));
  return delivered && 'ts' in delivered ? { channelId: delivered.channelId, ts: delivered.ts } : undefined;
}

/** Each row of the file as the run starts: to book (queued), or settled already (not valid, or by an earlier run). */
function queueOf(csv: BookingCsv, earlier: Map<number, ImportRow>): NewQueuedRow[] {
  const rows: NewQueuedRow[] = notValid(csv.problems).map((result) => ({
    row: result.row,
    outcome: result.outcome,
    result,
  }));
  for (const row of csv.ready) {
    const before = earlier.get(row.row);
    const queued: QueuedBooking = {
      row,
      receiver: receiverOf(row),
      ...(before ? { earlierNumber: before.trackingNumber } : {}),
    };
    if (before && settledBefore(before)) {
      const result = settledResult(queued, before);
      rows.push({ row: row.row, outcome: result.outcome, result });
    } else {
      rows.push({ row: row.row, booking: queued });
    }
  }
  return rows;
}

/**
 * After "Book N rows": the file once more (it must be the one checked), then its rows queued in
 * the store for whichever replicas book them (`queue.wake()` starts this one). A run of the same
 * file under way already is not doubled: the dispatcher is pointed to it.
 */
export async function startImport(
  deps: Pick<BulkDeps, 'store' | 'logger' | 'now' | 'schemas' | 'waybill' | 'bot' | 'profiles'>,
  client: SlackClient,
  { viewId, draft, wake }: { viewId: string; draft: Draft<BulkDraft>; wake: () => void },
): Promise<void> {
  const { env } = deps.waybill;
  const { fileId, fileName, fileHash: hash } = draft.data;
  let bytes: Uint8Array;
  try {
    bytes = (await downloadChosenFile(deps, client, fileId, draft.userId)).bytes;
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    await showInModal(client, viewId, notCheckedView(`${err.message}. Nothing was booked.`, env));
    return;
  }
  if (fileHash(bytes) !== hash) {
    await showInModal(
      client,
      viewId,
      notCheckedView(`${fileName} changed since it was checked: import it again.`, env),
    );
    return;
  }
  const csv = readBookings(deps, bytes);
  const { id, userId, channelId } = draft;
  const run = { id, fileHash: hash, fileName, userId, channelId, viewId, rowCount: csv.rowCount };
  const started = await startRun(deps, run, (earlier) => queueOf(csv, earlier));
  if (!started.started) {
    await showInModal(client, viewId, alreadyRunningView(started.running, env));
    return;
  }
  wake();
}
