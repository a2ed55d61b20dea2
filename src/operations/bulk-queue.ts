/**
 * The bulk-rows queue's bookkeeping, shared by every replica: a file's run started once, its rows
 * claimed one at a time and booked (book-row.ts), rows put back, rows a gone replica held queued
 * again, and each finished run's summary posted once (post-once.ts) through the caller's port.
 *
 * Rules:
 * - One check of a file starts one run, however often "Book N rows" is delivered; a run of the
 *   same file under way is not doubled (the caller is handed it).
 * - A claimed row is booked or put back in the queue, never dropped: not sent (stopping, the
 *   courier asked to slow down, the database away, its run unreadable), it is released; a
 *   release that cannot be written is left for `requeueLeft` (this replica's claims once it holds
 *   none in hand, a gone replica's once its lease has lapsed).
 * - A run's summary is taken by one replica once every row is done (or its reporter is gone),
 *   posted through the port, and the run closed after: a summary not posted stays taken until this
 *   replica's lease lapses, then another posts it.
 */
import type { Logger } from 'pino';
import type { ImportRow, ImportRun, NewImportRun, NewQueuedRow, Store } from '../store/index.js';
import type { RowResult } from '../waybill/csv/results.js';
import { bookRow, type QueuedBooking, type RowBooking, type RowDeps, type RowDone } from './book-row.js';
import { postOnce } from './post-once.js';

/** How many rows of a run came to each outcome. */
export type OutcomeCounts = Record<RowResult['outcome'], number>;

export function countOutcomes(results: readonly RowResult[]): OutcomeCounts {
  const counts: OutcomeCounts = { booked: 0, 'already booked': 0, failed: 0, unknown: 0, 'not valid': 0 };
  for (const result of results) counts[result.outcome] += 1;
  return counts;
}

/** Whether this check of a file is the first to be started (one check is booked once, on any replica). */
export function firstStart(store: Pick<Store, 'deliveries'>, checkId: string): Promise<boolean> {
  return store.deliveries.claim(`bulk:${checkId}`);
}

/**
 * The file recorded (once, whoever sends it), then its run started with the rows `rowsOf` makes of
 * what earlier runs settled, unless a run of the file is under way: then that run.
 */
export async function startRun(
  deps: { store: Pick<Store, 'imports'> },
  run: Omit<NewImportRun, 'toBook'> & { rowCount: number },
  rowsOf: (earlier: Map<number, ImportRow>) => NewQueuedRow[],
): Promise<{ started: true } | { started: false; running: ImportRun }> {
  const { imports } = deps.store;
  const { fileHash, fileName, userId, channelId, rowCount } = run;
  await imports.record({ fileHash, fileName, userId, channelId, rowCount });
  const earlier = new Map((await imports.rows(fileHash)).map((row) => [row.row, row]));
  const rows = rowsOf(earlier);
  const { id, viewId } = run;
  const toBook = rows.filter((row) => 'booking' in row).length;
  return imports.startRun({ id, fileHash, fileName, userId, channelId, viewId, toBook }, rows);
}

/**
 * Whether any run is under way; if so, rows a gone replica held are queued again, and this
 * replica's own claims too when `releaseOwn` runs the release it is handed (when it holds no row
 * in hand: their answer was lost with a connection).
 */
export async function requeueLeft(
  store: Pick<Store, 'imports'>,
  releaseOwn: (release: () => Promise<unknown>) => Promise<unknown>,
): Promise<boolean> {
  if (!(await store.imports.anyRunning())) return false;
  await releaseOwn(() => store.imports.releaseClaimed());
  await store.imports.requeueAbandoned();
  return true;
}

/** A row claimed and what became of it, with its run; `run` undefined: its run is gone, nothing done. */
export type RowTaken = { run: ImportRun; done: RowDone } | { run: undefined };

/**
 * The next queued row of any run, claimed and booked once (bookRow), or put back when it was not
 * sent; undefined when the queue is empty. `runOf` finds its run (a worker keeps them);
 * `databaseAway` is told when the database keeps a booked row of it waiting.
 */
export async function bookNextRow(
  deps: RowDeps,
  runOf: (id: string) => Promise<ImportRun | undefined>,
  how: Pick<RowBooking, 'stopping'> & { databaseAway: (run: ImportRun) => void },
): Promise<RowTaken | undefined> {
  const { imports } = deps.store;
  const claimed = await imports.claimRow();
  if (!claimed) return undefined;
  const putBack = () => imports.releaseRow(claimed.runId, claimed.row);
  let run: ImportRun | undefined;
  try {
    run = await runOf(claimed.runId);
  } catch (err) {
    // Not sent: back in the queue for this replica or another, rather than held by a live one for ever.
    await putBack().catch(() => undefined);
    throw err;
  }
  if (!run) return { run: undefined };
  const booking = run;
  const done = await bookRow(deps, run, claimed.booking as QueuedBooking, {
    stopping: how.stopping,
    databaseAway: () => how.databaseAway(booking),
  });
  if ('again' in done) {
    // With the database away the release may not get through either: `requeueLeft` queues it then.
    if (done.again === 'database') await putBack().catch(() => undefined);
    else await putBack();
  }
  return { run, done };
}

/**
 * The caller's port for a run's summary: posts it (Slack, say), and says where, when it went where a
 * thread can follow it: the file's bookings have no card, so their later lines go in that thread.
 */
export type PostSummary = (
  run: ImportRun,
  results: RowResult[],
  counts: OutcomeCounts,
) => Promise<{ channelId: string; ts: string } | undefined>;

/**
 * Each run whose rows are all done (or whose reporter is gone), taken by this replica alone: its
 * audit entry, its summary posted through `post`, then the run closed (the file may run again).
 */
export async function postSummaries(
  deps: { store: Pick<Store, 'imports' | 'audit'>; logger: Logger },
  post: PostSummary,
): Promise<ImportRun[]> {
  const { imports } = deps.store;
  const taken = await imports.takeReports();
  for (const run of taken) {
    await postOnce(
      {
        claim: async () => run,
        // Taken under this replica's lease: another replica posts it once the lease lapses.
        release: async () => undefined,
        sent: (_run, at) => imports.closeRun(run.id, at),
      },
      async () => {
        const results = await imports.runResults<RowResult>(run.id);
        const counts = countOutcomes(results);
        const { fileName } = run;
        deps.logger.info(
          { fileName, ...counts, ms: Date.now() - run.startedAt.getTime() },
          'bulk booking done',
        );
        await deps.store.audit
          .record({
            userId: run.userId,
            operation: 'bulk',
            outcome: 'done',
            detail: `${fileName}: ${counts.booked} booked, ${counts['already booked']} booked earlier, ${counts.failed} refused, ${counts.unknown} unknown, ${counts['not valid']} not valid`,
          })
          // Each row has its own audit entry already; the summary still comes.
          .catch((err: unknown) => deps.logger.error({ err }, 'the bulk booking could not be audited'));
        return post(run, results, counts);
      },
    );
  }
  return taken;
}
