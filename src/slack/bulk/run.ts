/** Booking a checked file row by row through the one booking path, with progress, one card, its thread and a results file. */
import type { Draft, ImportRow } from '../../store/index.js';
import { bookingOfRow, type CsvBooking, type CsvProblem } from '../../waybill/csv/read-bookings.js';
import { type RowResult, resultsCsv } from '../../waybill/csv/results.js';
import { toBookingWire } from '../../waybill/wire.js';
import type { BotDeps } from '../deps.js';
import { beginAttempt, bookingAttempt } from '../shared/attempts.js';
import { sendBooking } from '../shared/booking-send.js';
import { type Delivered, deliveredNote, postToChannel, type SlackClient } from '../shared/delivery.js';
import { downloadFile, FileNotReadError, uploadFile, uploadToUser } from '../shared/files.js';
import { getPath } from '../shared/forms.js';
import { viewMetadata } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import {
  countOutcomes,
  finishedView,
  notCheckedView,
  progressView,
  rowMessages,
  summaryCard,
} from './blocks.js';
import { type BulkDraft, fileHash, readBookings, settledBefore } from './check.js';

/** Progress is redrawn at most this often (and at every tenth of the rows). */
const PROGRESS_EVERY_MS = 2000;

/** One line per row with problems: what the results file and the thread say of it. */
function notValid(problems: readonly CsvProblem[]): RowResult[] {
  const byRow = new Map<number, string[]>();
  for (const problem of problems) {
    if (problem.row === undefined || problem.row < 2) continue;
    const text = problem.column ? `${problem.column}: ${problem.message}` : problem.message;
    byRow.set(problem.row, [...(byRow.get(problem.row) ?? []), text]);
  }
  return [...byRow].map(([row, messages]) => ({
    row,
    receiver: '',
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

interface RunContext {
  deps: BotDeps;
  draft: Draft<BulkDraft>;
}

/** The row's tracking number: the one an earlier run gave it, the one typed, or the next free one. */
async function numberFor(
  { deps, draft }: RunContext,
  row: CsvBooking,
  before: ImportRow | undefined,
  holder: string,
): Promise<string | { taken: string }> {
  if (before) return before.trackingNumber;
  const { store } = deps;
  if (row.trackingNumber && !(await store.trackingNumbers.reserve(row.trackingNumber, holder))) {
    return { taken: row.trackingNumber };
  }
  const number = row.trackingNumber || (await store.trackingNumbers.next(deps.bot.trackingPrefix, holder));
  return (await store.imports.addRow(draft.data.fileHash, row.row, number)).trackingNumber;
}

/**
 * One row, once: what an earlier run settled is reported, not sent; otherwise the row gets its
 * number and goes through the booking path every booking takes (attempt keyed to the file and
 * row, the courier call, the booking, the audit entry), and the import keeps its outcome.
 */
async function bookRow(run: RunContext, row: CsvBooking, before: ImportRow | undefined): Promise<RowResult> {
  const { deps, draft } = run;
  const { fileHash: hash, fileName } = draft.data;
  const receiver = receiverOf(row);
  const result = (
    outcome: RowResult['outcome'],
    trackingNumber: string,
    message: string,
    reference = '',
  ): RowResult => ({
    row: row.row,
    receiver,
    trackingNumber,
    courierReference: reference,
    outcome,
    message,
  });
  const settled = settledBefore(before);
  if (before && settled === 'booked') {
    return result(
      'already booked',
      before.trackingNumber,
      'Booked by an earlier run of this file',
      before.trackingRefNo,
    );
  }
  if (before && settled === 'unknown') {
    return result(
      'unknown',
      before.trackingNumber,
      before.message ??
        'Outcome unknown in an earlier run of this file: not sent again. Check with the courier.',
    );
  }
  const holder = `import:${hash}:${row.row}`;
  const number = await numberFor(run, row, before, holder);
  if (typeof number !== 'string') {
    return result('not valid', number.taken, `Tracking number ${number.taken} is already used`);
  }
  const checked = bookingOfRow(
    { schema: deps.schemas.booking, timeZone: deps.waybill.timeZone },
    row.values,
    number,
  );
  if (!checked.ok) return result('not valid', number, checked.errors.map((e) => e.message).join('; '));
  const request = toBookingWire(checked.value, deps.waybill.timeZone);
  const attempt = bookingAttempt(holder, request);
  const who = { userId: draft.userId, channelId: draft.channelId };
  const begun = await beginAttempt(deps.store, attempt, who, { again: 'failed' });
  if (!begun.started) {
    const earlier = begun.attempt;
    const reference = (earlier.result as { trackingRefNo?: string } | undefined)?.trackingRefNo;
    if (earlier.state === 'succeeded' && reference) {
      return result('already booked', number, 'Booked by an earlier run of this file', reference);
    }
    return result(
      'unknown',
      number,
      'Being booked by another run of this file, or of unknown outcome: not sent again',
    );
  }
  const sent = await sendBooking(deps, {
    key: attempt.key,
    request,
    booking: checked.value,
    userId: draft.userId,
    channelId: draft.channelId,
    postedNote: `Booked from ${fileName}.`,
  });
  const outcome =
    sent.state === 'failed' || sent.state === 'unknown'
      ? result(sent.state, number, sent.message)
      : result(
          'booked',
          number,
          sent.state === 'unrecorded'
            ? 'Booked, but the bot could not store it: its database did not answer'
            : '',
          sent.result.trackingRefNo,
        );
  await deps.store.imports
    .setRow(hash, row.row, {
      state: outcome.outcome === 'booked' ? 'booked' : sent.state === 'failed' ? 'failed' : 'unknown',
      ...(outcome.courierReference ? { trackingRefNo: outcome.courierReference } : {}),
      ...(outcome.message ? { message: outcome.message } : {}),
    })
    .catch((err: unknown) =>
      deps.logger.error({ err, row: row.row }, 'the outcome of an imported row could not be kept'),
    );
  return outcome;
}

/** Redraws the progress now and then, never waiting for Slack, and not at all once the window is closed. */
function progressReporter(
  deps: BotDeps,
  client: SlackClient,
  viewId: string,
  draft: Draft<BulkDraft>,
  total: number,
) {
  let last = performance.now();
  let lastTenth = 0;
  let open = true;
  let drawing: Promise<void> = Promise.resolve();
  return {
    report(results: readonly RowResult[], done: number) {
      const tenth = Math.floor((done / Math.max(total, 1)) * 10);
      if (!open || (tenth === lastTenth && performance.now() - last < PROGRESS_EVERY_MS)) return;
      last = performance.now();
      lastTenth = tenth;
      const view = progressView({
        fileName: draft.data.fileName,
        done,
        total,
        counts: countOutcomes(results),
        env: deps.waybill.env,
        metadata: viewMetadata({ draftId: draft.id }),
      });
      drawing = drawing
        .then(() => showInModal(client, viewId, view))
        .then((shown) => {
          open &&= shown;
        })
        .catch((err: unknown) => deps.logger.warn({ err }, 'bulk booking progress could not be shown'));
    },
    done: () => drawing,
  };
}

/** The card in the chosen channel, each row's outcome in its thread, and the results file there too. */
async function report(
  deps: BotDeps,
  client: SlackClient,
  draft: Draft<BulkDraft>,
  results: RowResult[],
): Promise<Delivered | undefined> {
  const { fileName } = draft.data;
  const counts = countOutcomes(results);
  const card = summaryCard({ fileName, userId: draft.userId, counts, env: deps.waybill.env });
  const delivered = await postToChannel(client, draft, card, deps.logger).catch((err: unknown) => {
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
      await uploadToUser(client, draft.userId, { ...file, comment: card.text });
    }
  } catch (err) {
    deps.logger.error({ err }, 'the outcome of each row could not all be posted');
  }
  return delivered;
}

/**
 * After "Book N rows": the file once more (it must be the one checked), then each ready row in
 * turn; a row that fails or whose outcome is unknown does not stop the others. Ends with the card,
 * its thread and the results file, and the finished window.
 */
export async function runImport(
  deps: BotDeps,
  client: SlackClient,
  { viewId, draft }: { viewId: string; draft: Draft<BulkDraft> },
): Promise<void> {
  const { env } = deps.waybill;
  const { fileId, fileName } = draft.data;
  let bytes: Uint8Array;
  try {
    bytes = (await downloadFile(client, fileId, deps.bot.bulk.maxBytes)).bytes;
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    await showInModal(client, viewId, notCheckedView(`${err.message}. Nothing was booked.`, env));
    return;
  }
  if (fileHash(bytes) !== draft.data.fileHash) {
    await showInModal(
      client,
      viewId,
      notCheckedView(`${fileName} changed since it was checked: import it again.`, env),
    );
    return;
  }
  const csv = readBookings(deps, bytes);
  await deps.store.imports.record({
    fileHash: draft.data.fileHash,
    fileName,
    userId: draft.userId,
    channelId: draft.channelId,
    rowCount: csv.rowCount,
  });
  const earlier = new Map((await deps.store.imports.rows(draft.data.fileHash)).map((row) => [row.row, row]));
  const results = notValid(csv.problems);
  const progress = progressReporter(deps, client, viewId, draft, csv.ready.length);
  const started = performance.now();
  for (const [index, row] of csv.ready.entries()) {
    const outcome = await bookRow({ deps, draft }, row, earlier.get(row.row)).catch((err: unknown) => {
      deps.logger.error({ err, row: row.row }, 'an imported row could not be booked');
      return {
        row: row.row,
        receiver: receiverOf(row),
        trackingNumber: earlier.get(row.row)?.trackingNumber ?? row.trackingNumber,
        courierReference: '',
        outcome: 'failed' as const,
        message:
          'Not sent: the bot could not prepare it (see its log); importing the file again tries it again',
      };
    });
    results.push(outcome);
    progress.report(results, index + 1);
  }
  await progress.done();
  const counts = countOutcomes(results);
  deps.logger.info({ fileName, ...counts, ms: Math.round(performance.now() - started) }, 'bulk booking done');
  await deps.store.audit.record({
    userId: draft.userId,
    operation: 'bulk',
    outcome: 'done',
    detail: `${fileName}: ${counts.booked} booked, ${counts['already booked']} booked earlier, ${counts.failed} refused, ${counts.unknown} unknown, ${counts['not valid']} not valid`,
  });
  const delivered = await report(deps, client, draft, results);
  const postedNote = delivered
    ? deliveredNote(delivered)
    : 'Slack did not take the summary card; the results file is in your DM with the bot.';
  await showInModal(
    client,
    viewId,
    finishedView({ fileName, counts, postedNote, env, metadata: viewMetadata({ draftId: draft.id }) }),
  );
}
