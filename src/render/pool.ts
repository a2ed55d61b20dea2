/**
 * Heavy rendering off the main thread: a few worker threads make PDFs and large CSV files, so a
 * 999-page print never holds other people's acks or a SIGTERM. A bounded queue; stopped at once on shutdown.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { TaskName, Tasks } from './tasks.js';

type Result<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;

interface Job {
  task: TaskName;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Why a task was not made: the bot is stopping, or too many wait already. Its message is for the person who asked. */
export class RenderRefused extends Error {
  /** Said as it is to the person (plain words, nothing internal): see `InFlight.run`. */
  readonly tellable = true;
}

export interface RenderPoolOptions {
  /** Worker threads at most, started on first use (each loads pdfkit and the fonts once). */
  workers: number;
  /**
   * How long a worker is kept once it has nothing to do: a print is usually followed by others, but a
   * worker holds its own heap with the libraries and fonts, tens of MB, which the bot needs only while printing.
   */
  idleMs: number;
  /** Tasks that may wait for a worker; one more is refused. */
  queue: number;
  /** The worker's bundle when it is elsewhere (the tests' bundles); by default, found as below. */
  script?: string;
}

/** One core left for the event loop, and never more than two workers (each holds its own heap). */
const defaults: RenderPoolOptions = {
  workers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  queue: 16,
  idleMs: 60_000,
};

// Bundled, this module is in dist/app.js beside dist/render-worker.js (scripts/build.mjs); run from the
// sources (tsx in `npm run dev`, vitest), the worker is worker.ts here, loaded through tsx.
const fromSources = import.meta.url.endsWith('.ts');
const workerFile = new URL(fromSources ? './worker.ts' : './render-worker.js', import.meta.url);
const workerArgs = fromSources ? { execArgv: ['--import', 'tsx'] } : {};

/** Structured cloning hands a Buffer back as a Uint8Array: Buffers again, wherever they are in the result. */
function withBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(withBuffers);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withBuffers(field)]));
  }
  return value;
}

export class RenderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly waiting: Job[] = [];
  private readonly workers = new Set<Worker>();
  /** When each idle worker is ended. */
  private readonly ending = new Map<Worker, NodeJS.Timeout>();
  private stopped = false;

  private readonly options: RenderPoolOptions;

  constructor(options: Partial<RenderPoolOptions> = {}) {
    this.options = { ...defaults, ...options };
  }

  /** `tasks[task](...args)`, made in a worker thread; what crosses is plain data. */
  run<K extends TaskName>(task: K, ...args: Parameters<Tasks[K]>): Promise<Result<K>> {
    if (this.stopped) return Promise.reject(new RenderRefused('the bot is stopping'));
    if (this.waiting.length >= this.options.queue) {
      return Promise.reject(new RenderRefused(`${this.waiting.length} files are waiting to be made already`));
    }
    return new Promise<Result<K>>((resolve, reject) => {
      this.waiting.push({ task, args, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  /** Worker threads running now, at work or idle. */
  get threads(): number {
    return this.workers.size;
  }

  /** Ends every worker now: what was being made and what waited is refused, so a stop waits for none of it. */
  async stop(): Promise<void> {
    this.stopped = true;
    const refused = new RenderRefused('the bot is stopping');
    for (const job of [...this.waiting.splice(0), ...this.busy.values()]) job.reject(refused);
    this.busy.clear();
    this.idle.length = 0;
    for (const timer of this.ending.values()) clearTimeout(timer);
    this.ending.clear();
    const workers = [...this.workers];
    this.workers.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private next(): void {
    while (this.waiting.length > 0) {
      const worker = this.idle.pop() ?? (this.workers.size < this.options.workers ? this.start() : undefined);
      if (!worker) return;
      clearTimeout(this.ending.get(worker));
      this.ending.delete(worker);
      const job = this.waiting.shift() as Job;
      this.busy.set(worker, job);
      // A worker at work keeps the process alive; an idle one does not.
      worker.ref();
      worker.postMessage({ task: job.task, args: job.args });
    }
  }

  private start(): Worker {
    const { script } = this.options;
    const worker = script ? new Worker(script) : new Worker(workerFile, workerArgs);
    this.workers.add(worker);
    worker.on('message', (reply: { value?: unknown; error?: unknown }) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      this.endWhenIdle(worker);
      if ('error' in reply) job?.reject(reply.error);
      else job?.resolve(withBuffers(reply.value));
      this.next();
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`a render worker exited (code ${code})`)));
    return worker;
  }

  /** Ends `worker` once it has had nothing to do for `idleMs`; another is started when a task comes. */
  private endWhenIdle(worker: Worker): void {
    const timer = setTimeout(() => {
      this.ending.delete(worker);
      if (!this.idle.includes(worker)) return;
      this.idle.splice(this.idle.indexOf(worker), 1);
      this.workers.delete(worker);
      void worker.terminate();
    }, this.options.idleMs);
    timer.unref();
    this.ending.set(worker, timer);
  }

  /** A worker that failed or exited: its task refused, another started for the next. */
  private lost(worker: Worker, err: unknown): void {
    if (!this.workers.delete(worker)) return;
    clearTimeout(this.ending.get(worker));
    this.ending.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    this.busy.get(worker)?.reject(err);
    this.busy.delete(worker);
    this.next();
  }
}
