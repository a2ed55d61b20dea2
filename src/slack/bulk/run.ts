/** Booking a checked file: its rows queued in the store, each booked once through the one booking path, then one card, its thread and a results file. */
import { beginAttempt, bookingAttempt, storeOutcome } from '../../operations/attempts.js';
import { sendBooking } from '../../operations/book.js';
import { unconfirmedCheck } from '../../operations/receiver-record.js';
import {
  type Attempt,
  type Draft,
  type ImportRow,
  type ImportRun,
  type NewQueuedRow,
  type StoreTables,
  StoreUnavailableError,
} from '../../store/index.js';
import {
  type BookingCsv,
  bookingOfRow,
  type CsvBooking,
  type CsvProblem,
} from '../../waybill/csv/read-bookings.js';
import { type RowResult, resultsCsv } from '../../waybill/csv/results.js';
import { toBookingWire } from '../../waybill/wire.js';
import type { Core } from '../core.js';
import { type Delivered, deliveredNote, postToChannel, type SlackClient } from '../kit/delivery.js';
import { downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError, uploadFile, uploadToUser } from '../kit/files.js';
import { getPath } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import {
  alreadyRunningView,
  countOutcomes,
  finishedView,
  notCheckedView,
  rowMessages,
  summaryCard,
} from './blocks.js';
import { type BulkDraft, fileHash, readBookings, settledBefore } from './check.js';

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

/** What a queued row carries, so any replica can book it without the file: the row as read, and its number from an earlier run. */
export interface QueuedBooking {
  row: CsvBooking;
  receiver: string;
  earlierNumber?: string;
}

/**
 * What became of a claimed row: its result, or not sent and back in the queue (the bot is
 * stopping, the courier asked to slow down, or the database did not answer before the call).
 */
export type RowDone =
  | RowResult
  | { again: 'stopping' | 'database' }
  /** The courier answered 429, and perhaps said for how long (Retry-After). */
  | { again: 'slow down'; retryAfterMs?: number };

/** How a worker books a row: whether it is stopping, and whom to tell while the database keeps a booked row waiting. */
export interface RowBooking {
  stopping: () => boolean;
  databaseAway: () => void;
}

/** The row's tracking number: the one an earlier run gave it, the one typed, or the next free one. */
async function numberFor(
  deps: Pick<Core, 'store' | 'bot'>,
  run: ImportRun,
  { row, earlierNumber }: QueuedBooking,
  holder: string,
): Promise<string | { taken: string }> {
  if (earlierNumber) return earlierNumber;
  const { store } = deps;
  if (row.trackingNumber && !(await store.trackingNumbers.reserve(row.trackingNumber, holder))) {
    return { taken: row.trackingNumber };
  }
  const number = row.trackingNumber || (await store.trackingNumbers.next(deps.bot.trackingPrefix, holder));
  return (await store.imports.addRow(run.fileHash, row.row, number)).trackingNumber;
}

function resultOf(row: number, receiver: string) {
  return (
    outcome: RowResult['outcome'],
    trackingNumber: string,
    message: string,
    reference = '',
  ): RowResult => ({
    row,
    receiver,
    trackingNumber,
    courierReference: reference,
    outcome,
    message,
  });
}

/** A row an earlier run settled: reported, never sent. */
export function settledResult(queued: QueuedBooking, before: ImportRow): RowResult {
  const result = resultOf(queued.row.row, queued.receiver);
  return before.state === 'booked'
    ? result(
        'already booked',
        before.trackingNumber,
        'Booked by an earlier run of this file',
        before.trackingRefNo,
      )
    : result(
        'unknown',
        before.trackingNumber,
        before.message ??
          'Outcome unknown in an earlier run of this file: not sent again. Check with the courier.',
      );
}

/**
 * One claimed row, once: it gets its number and goes through the booking path every booking takes
 * (attempt keyed to the file and row, the courier call, the booking, the audit entry), and the
 * import keeps its outcome. The attempt's claim makes it exact: a row another replica began (and
 * died in) is reported as outcome unknown, never sent again. Nothing starts once `stopping()`.
 */
export async function bookRow(
  deps: Core,
  run: ImportRun,
  queued: QueuedBooking,
  { stopping, databaseAway }: RowBooking,
): Promise<RowDone> {
  const { row } = queued;
  const result = resultOf(row.row, queued.receiver);
  const holder = `import:${run.fileHash}:${row.row}`;
  let number: string | undefined = queued.earlierNumber;
  let begun = false;
  try {
    const given = await numberFor(deps, run, queued, holder);
    if (typeof given !== 'string') {
      return done(
        deps,
        run,
        result('not valid', given.taken, `Tracking number ${given.taken} is already used`),
      );
    }
    number = given;
    const checked = bookingOfRow(
      { schema: deps.schemas.booking, timeZone: deps.waybill.timeZone },
      row.values,
      number,
    );
    if (!checked.ok) {
      return done(deps, run, result('not valid', number, checked.errors.map((e) => e.message).join('; ')));
    }
    const request = toBookingWire(checked.value, deps.waybill.timeZone);
    const attempt = bookingAttempt(holder, request);
    // Kept with the booking, as the form's are: a file has no box to confirm a call with.
    const receiver = await unconfirmedCheck(deps.store, deps.bot.receiverRisk, checked.value.consignee);
    if (stopping()) return { again: 'stopping' };
    const who = { userId: run.userId, channelId: run.channelId };
    const started = await beginAttempt(deps.store, attempt, who, { again: 'failed' });
    if (!started.started) return kept(deps, run, earlierAttempt(run, started.attempt, result, number));
    begun = true;
    const booked = (reference: string, message = '') => result('booked', number ?? '', message, reference);
    const sent = await sendBooking(deps, {
      attempt,
      request,
      booking: checked.value,
      userId: run.userId,
      channelId: run.channelId,
      postedNote: `Booked from ${run.fileName}.`,
      ...(receiver ? { receiver } : {}),
      // The row is done with its booking, in the same transaction.
      alsoRecord: (tx, answer) => keepRow(tx, run, booked(answer.trackingRefNo)),
      waiting: async () => databaseAway(),
    });
    if (sent.state === 'failed' && sent.rateLimited) return { again: 'slow down', ...sent.rateLimited };
    if (sent.state === 'done') return booked(sent.answer.trackingRefNo);
    const outcome =
      sent.state === 'unrecorded'
        ? booked(
            sent.answer.trackingRefNo,
            'Booked, but the bot could not store it: its database did not answer',
          )
        : result(sent.state, number, sent.message);
    return kept(deps, run, outcome);
  } catch (err) {
    deps.logger.error({ err, row: row.row }, 'an imported row could not be booked');
    // Once its attempt is begun the courier may have it: whatever failed, it is never "refused".
    if (begun) {
      const unknown = result(
        'unknown',
        number ?? '',
        'Outcome unknown: the bot failed while booking it (see its log). Not sent again: check with the courier.',
      );
      return kept(deps, run, unknown);
    }
    if (stopping()) return { again: 'stopping' };
    // Nothing went to the courier: the row waits in the queue for the database, never "refused".
    if (err instanceof StoreUnavailableError) return { again: 'database' };
    return done(
      deps,
      run,
      result(
        'failed',
        number ?? row.trackingNumber,
        'Not sent: the bot could not prepare it (see its log); importing the file again tries it again',
      ),
    );
  }
}

/** The row's attempt was begun before, by this run on a replica that is gone, or by another run. */
function earlierAttempt(
  run: ImportRun,
  earlier: Attempt,
  result: ReturnType<typeof resultOf>,
  number: string,
): RowResult {
  const reference = (earlier.result as { trackingRefNo?: string } | undefined)?.trackingRefNo;
  if (earlier.state === 'succeeded' && reference) {
    return earlier.createdAt >= run.startedAt
      ? result('booked', number, '', reference)
      : result('already booked', number, 'Booked by another import of this file', reference);
  }
  if (earlier.state === 'in-flight' || earlier.state === 'unknown') {
    return result(
      'unknown',
      number,
      'Outcome unknown: the bot stopped while it was being sent to the courier. Not sent again: check with the courier.',
    );
  }
  return result('unknown', number, 'Being booked by another import of this file: not sent again');
}

/** The row's outcome: in the file's record, for later runs (booked, refused or unknown), and done in its run's queue. */
async function keepRow(tx: StoreTables, run: ImportRun, outcome: RowResult): Promise<void> {
  await tx.imports.setRow(run.fileHash, outcome.row, {
    state: outcome.courierReference ? 'booked' : outcome.outcome === 'failed' ? 'failed' : 'unknown',
    ...(outcome.courierReference ? { trackingRefNo: outcome.courierReference } : {}),
    ...(outcome.message ? { message: outcome.message } : {}),
  });
  await tx.imports.finishRow(run.id, outcome.row, outcome.outcome, outcome);
}

/**
 * The row done in its run's queue (`kept`: also in the file's record) on its own, outside a
 * booking's transaction: a database briefly away is waited for rather than the outcome lost.
 */
async function done(
  deps: Pick<Core, 'store' | 'logger'>,
  run: ImportRun,
  outcome: RowResult,
  record = false,
): Promise<RowResult> {
  await storeOutcome(deps, async (tx) => {
    if (record) await keepRow(tx, run, outcome);
    else await tx.imports.finishRow(run.id, outcome.row, outcome.outcome, outcome);
  }).catch((err: unknown) =>
    deps.logger.error({ err, row: outcome.row }, 'the outcome of an imported row could not be kept'),
  );
  return outcome;
}

const kept = (deps: Pick<Core, 'store' | 'logger'>, run: ImportRun, outcome: RowResult) =>
  done(deps, run, outcome, true);

/** The card in the chosen channel, each row's outcome in its thread, and the results file there too. */
async function report(
  deps: Pick<Core, 'logger' | 'waybill'>,
  client: SlackClient,
  run: ImportRun,
  results: RowResult[],
): Promise<Delivered | undefined> {
  const { fileName } = run;
  const counts = countOutcomes(results);
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
 * Once every row of a run is done (on whichever replica finished it): the audit entry, the card,
 * its thread and the results file, and the finished window.
 */
export async function summarise(
  deps: Pick<Core, 'store' | 'logger' | 'waybill'>,
  client: SlackClient,
  run: ImportRun,
): Promise<void> {
  const { env } = deps.waybill;
  const { fileName } = run;
  const results = await deps.store.imports.runResults<RowResult>(run.id);
  const counts = countOutcomes(results);
  deps.logger.info({ fileName, ...counts, ms: Date.now() - run.startedAt.getTime() }, 'bulk booking done');
  await deps.store.audit
    .record({
      userId: run.userId,
      operation: 'bulk',
      outcome: 'done',
      detail: `${fileName}: ${counts.booked} booked, ${counts['already booked']} booked earlier, ${counts.failed} refused, ${counts.unknown} unknown, ${counts['not valid']} not valid`,
    })
    // Each row has its own audit entry already; the card still comes.
    .catch((err: unknown) => deps.logger.error({ err }, 'the bulk booking could not be audited'));
  const delivered = await report(deps, client, run, results);
  const postedNote = delivered
    ? deliveredNote(delivered)
    : 'Slack did not take the summary card; the results file is in your DM with the bot.';
  await showInModal(
    client,
    run.viewId,
    finishedView({ fileName, counts, postedNote, env, metadata: viewMetadata({ draftId: run.id }) }),
  ).catch((err: unknown) => deps.logger.warn({ err }, 'the finished bulk booking could not be shown'));
  await deps.store.imports.closeRun(run.id);
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
  deps: Core,
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
  await deps.store.imports.record({
    fileHash: hash,
    fileName,
    userId: draft.userId,
    channelId: draft.channelId,
    rowCount: csv.rowCount,
  });
  const earlier = new Map((await deps.store.imports.rows(hash)).map((row) => [row.row, row]));
  const rows = queueOf(csv, earlier);
  const started = await deps.store.imports.startRun(
    {
      id: draft.id,
      fileHash: hash,
      fileName,
      userId: draft.userId,
      channelId: draft.channelId,
      viewId,
      toBook: rows.filter((row) => 'booking' in row).length,
    },
    rows,
  );
  if (!started.started) {
    await showInModal(client, viewId, alreadyRunningView(started.running, env));
    return;
  }
  wake();
}
