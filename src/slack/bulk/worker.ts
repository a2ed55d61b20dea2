/**
 * This replica's share of the bulk-rows queue: rows claimed from the store a few at a time
 * (BULK_CONCURRENCY), slowed down when the courier answers 429, a run's summary posted by whichever
 * replica finishes it, and rows left by a replica that is gone (or by this one's last run) resumed.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { RowDone } from '../../operations/book-row.js';
import {
  bookNextRow,
  countOutcomes,
  type OutcomeCounts,
  postSummaries,
  requeueLeft,
} from '../../operations/bulk-queue.js';
import { type ImportRun, StoreUnavailableError } from '../../store/index.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import type { SlackClient } from '../runtime/delivery.js';
import { BackOff } from './back-off.js';
import { progressView } from './blocks.js';
import type { BulkDeps } from './check.js';
import { summarise } from './send.js';

/** Progress is redrawn at most this often by each replica booking the run. */
const PROGRESS_EVERY_MS = 2000;
/** The window's note while the database does not answer. */
const DATABASE_AWAY =
  "The bot's database is not answering right now: the booking goes on once it is back. No row is sent twice or lost meanwhile; a row the courier booked is recorded then.";

/** What a run's window shows: rows not done yet, and the outcomes so far. */
interface Shown {
  left: number;
  counts: OutcomeCounts;
}

interface Progress {
  last: number;
  open: boolean;
  drawing: Promise<void>;
  /** Drawn last, to draw again with a note when the database cannot be read. */
  shown?: Shown;
  /** Its window says the database is away (once, until the next redraw). */
  away: boolean;
}

/** What the worker uses: what booking a row and summarising a run use, work in flight, metrics and the settings. */
export type WorkerDeps = Pick<
  BulkDeps,
  'store' | 'courier' | 'logger' | 'now' | 'activity' | 'schemas' | 'waybill' | 'bot' | 'inFlight' | 'metrics'
>;

export class BulkWorker {
  /** Loops claiming rows now; how many may is the back-off's. */
  private loops = 0;
  private readonly backOff: BackOff;
  private stopping = false;
  /** This replica's own claims are going back in the queue: no loop claims meanwhile. */
  private releasing = false;
  private readonly stopped = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly runs = new Map<string, Promise<ImportRun | undefined>>();
  private readonly progress = new Map<string, Progress>();

  /** `deps` and `client`: what every row and summary uses. */
  constructor(
    private readonly deps: WorkerDeps,
    private readonly client: SlackClient,
  ) {
    this.backOff = new BackOff(deps.bot.bulk.concurrency);
  }

  /** Claims rows with as many loops as allowed (a run just queued, or found by `poll`). */
  wake(): void {
    if (this.stopping || this.releasing) return;
    while (this.loops < this.backOff.limit) {
      this.loops += 1;
      this.deps.inFlight.run('bulk rows', () => this.loop(this.deps, this.client));
    }
  }

  /**
   * Looks for queued rows every `everyMs`: a run another replica started, rows a gone replica
   * held (requeued once its lease has lapsed), a run this replica's last process left.
   */
  start(everyMs: number): void {
    const tick = () => {
      void this.poll().catch((err: unknown) =>
        this.deps.logger.warn({ err }, 'looking for bulk rows to book failed; trying again'),
      );
    };
    tick();
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
  }

  async poll(): Promise<void> {
    if (this.stopping) return;
    // With no row in hand, a row still claimed here lost its answer with a connection: queued
    // again, while no loop claims.
    const releaseOwn = async (release: () => Promise<unknown>) => {
      if (this.loops > 0 || this.releasing) return;
      this.releasing = true;
      try {
        await release();
      } finally {
        this.releasing = false;
      }
    };
    if (await requeueLeft(this.deps.store, releaseOwn)) this.wake();
  }

  /**
   * No row starts from now on; rows already at the courier finish (the shutdown waits for them),
   * then each run's modal says where it stands and that the rest goes on elsewhere or at the next start.
   */
  stop(): void {
    this.stopping = true;
    clearInterval(this.timer);
    this.stopped.abort();
    if (this.loops === 0) this.tellStopped();
  }

  /** Once this replica's last row is done: each run it was booking says so in its modal. */
  private tellStopped(): void {
    const { deps, client } = this;
    deps.inFlight.run('bulk booking stopped', async () => {
      for (const [runId, progress] of this.progress) {
        progress.open = false;
        await progress.drawing;
        // A run another replica has finished keeps its finished window.
        const run = await deps.store.imports.run(runId).catch(() => undefined);
        if (run?.state !== 'running') continue;
        const note =
          'This copy of the bot is stopping: the rows left are booked by another copy of it, or when it starts again; the summary is posted when every row is done.';
        await this.draw(deps, client, run, note).catch((err: unknown) =>
          deps.logger.warn({ err }, 'a stopped bulk booking could not be shown'),
        );
      }
    });
  }

  private async loop(deps: WorkerDeps, client: SlackClient): Promise<void> {
    /** The runs this loop booked rows of: those whose windows are told if the database goes. */
    const booking = new Map<string, ImportRun>();
    try {
      await this.claimAndBook(deps, client, booking);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      // The next look for rows (`poll`) starts again once the database answers.
      deps.logger.warn({ err }, 'the database is not answering: bulk rows wait for it');
      this.tellDatabaseAway(deps, client, [...booking.values()]);
    } finally {
      this.loops -= 1;
      if (this.stopping && this.loops === 0) this.tellStopped();
    }
  }

  private async claimAndBook(
    deps: WorkerDeps,
    client: SlackClient,
    booking: Map<string, ImportRun>,
  ): Promise<void> {
    for (;;) {
      // Fewer loops after a 429: the extra ones end here.
      if (this.stopping || this.loops > this.backOff.limit) return;
      // Another loop's 429 may lengthen the pause while this one waits.
      for (let wait = this.backOff.waitMs(); wait > 0 && !this.stopping; wait = this.backOff.waitMs())
        await delay(wait, undefined, { signal: this.stopped.signal }).catch(() => undefined);
      if (this.stopping) return;
      const taken = await bookNextRow(deps, (id) => this.runOf(deps, id), {
        stopping: () => this.stopping,
        databaseAway: (run) => this.tellDatabaseAway(deps, client, [run]),
      });
      if (!taken) break;
      if (taken.run) {
        this.went(deps, client, taken.run, taken.done);
        booking.set(taken.run.id, taken.run);
      }
    }
    await postSummaries(deps, (run, results, counts) => {
      this.runs.delete(run.id);
      this.progress.delete(run.id);
      return summarise(deps, client, run, results, counts);
    });
  }

  /** The run of a claimed row, read once per run; read again after a failure. */
  private runOf(deps: Pick<WorkerDeps, 'store'>, id: string): Promise<ImportRun | undefined> {
    let run = this.runs.get(id);
    if (!run) {
      run = deps.store.imports.run(id);
      run.catch(() => this.runs.delete(id));
      this.runs.set(id, run);
    }
    return run;
  }

  /** What a booked (or released) row changes here: the pace, the metrics, the run's window. */
  private went(deps: WorkerDeps, client: SlackClient, run: ImportRun, done: RowDone): void {
    if ('again' in done) {
      if (done.again === 'slow down') this.slowDown(deps, done.retryAfterMs);
      if (done.again === 'database') this.tellDatabaseAway(deps, client, [run]);
      return;
    }
    deps.metrics.bulkRows.inc({ outcome: done.outcome });
    this.wentThrough();
    this.showProgress(deps, client, run);
  }

  /** A 429: fewer rows at once, none for a while (the back-off's); said in the log. */
  private slowDown(deps: Pick<WorkerDeps, 'logger'>, retryAfterMs = 0): void {
    const slower = this.backOff.slowDown(retryAfterMs);
    deps.logger.warn(
      { ...slower, ...(retryAfterMs ? { retryAfterMs } : {}) },
      'the courier asked to slow down: fewer bulk rows at once',
    );
  }

  /** A row through: one more loop when the back-off allows it. */
  private wentThrough(): void {
    if (this.backOff.wentThrough()) this.wake();
  }

  /** The run's window, made the first time a row of it goes through (or the database keeps one waiting). */
  private progressOf(runId: string): Progress {
    let progress = this.progress.get(runId);
    if (!progress) {
      progress = { last: performance.now(), open: true, drawing: Promise.resolve(), away: false };
      this.progress.set(runId, progress);
    }
    return progress;
  }

  /** Redraws the window after `draw`, one drawing at a time, and not at all once it is closed. */
  private redraw(deps: Pick<WorkerDeps, 'logger'>, progress: Progress, draw: () => Promise<boolean>): void {
    progress.drawing = progress.drawing
      .then(draw)
      .then((open) => {
        progress.open &&= open;
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 'bulk booking progress could not be shown'));
  }

  /** Redraws the run's progress now and then, never waiting for Slack, and not at all once its window is closed. */
  private showProgress(
    deps: Pick<WorkerDeps, 'store' | 'logger' | 'waybill'>,
    client: SlackClient,
    run: ImportRun,
  ): void {
    const progress = this.progressOf(run.id);
    if (!progress.open || this.stopping || performance.now() - progress.last < PROGRESS_EVERY_MS) return;
    progress.last = performance.now();
    this.redraw(deps, progress, () => this.draw(deps, client, run));
  }

  /**
   * The database does not answer: the windows of these runs say so, with the counts they showed
   * last (the store cannot be read), once each until the next redraw.
   */
  private tellDatabaseAway(
    deps: Pick<WorkerDeps, 'logger' | 'waybill'>,
    client: SlackClient,
    runs: ImportRun[],
  ): void {
    for (const run of runs) {
      const progress = this.progressOf(run.id);
      if (!progress.open || progress.away) continue;
      progress.away = true;
      const shown = progress.shown ?? { left: run.toBook, counts: countOutcomes([]) };
      this.redraw(deps, progress, () => this.render(client, deps, run, shown, DATABASE_AWAY));
    }
  }

  private async draw(
    deps: Pick<WorkerDeps, 'store' | 'waybill'>,
    client: SlackClient,
    run: ImportRun,
    note?: string,
  ): Promise<boolean> {
    const counts = await deps.store.imports.runCounts(run.id);
    const outcomes = countOutcomes([]);
    for (const outcome of Object.keys(outcomes) as (keyof typeof outcomes)[]) {
      outcomes[outcome] = counts[outcome] ?? 0;
    }
    const left = counts[''] ?? 0;
    // Every row done: the finished window comes with the summary, and must not be drawn over.
    if (left === 0) return true;
    const shown = { left, counts: outcomes };
    const progress = this.progress.get(run.id);
    if (progress) Object.assign(progress, { shown, away: false });
    return this.render(client, deps, run, shown, note);
  }

  private render(
    client: SlackClient,
    deps: Pick<WorkerDeps, 'waybill'>,
    run: ImportRun,
    { left, counts }: Shown,
    note?: string,
  ): Promise<boolean> {
    const view = progressView({
      fileName: run.fileName,
      done: run.toBook - left,
      total: run.toBook,
      counts,
      env: deps.waybill.env,
      metadata: viewMetadata({ draftId: run.id }),
      ...(note ? { note } : {}),
    });
    return showInModal(client, run.viewId, view);
  }
}
