/** Work started after Slack was acknowledged, tracked so a stop and the tests can wait for it. */
import type { Logger } from 'pino';

/**
 * How long work after an ack may be held back while other requests wait for theirs. Under it, a
 * burst is acknowledged first; past it the work starts anyway, well inside the 3 s a trigger_id
 * lives, so a form is still opened in time.
 */
const MAX_HOLD_MS = 750;

/**
 * Work started after Slack was acknowledged (an upstream call, a views.update). Tracked so a
 * shutdown can wait for it, and so tests can wait until the bot is idle instead of sleeping.
 *
 * Acks come first: Slack gives each request 3 s, and a burst of them (200 dispatchers' commands)
 * is answered fastest when nothing else runs in between. So work is started one piece per turn of
 * the event loop, and only while no request is waiting for its ack (or once it has waited
 * `MAX_HOLD_MS`); the receivers report each request from arrival to answer (`awaitingAck`).
 */
export class InFlight {
  private readonly tasks = new Set<Promise<void>>();
  private readonly queue: { start: () => void; since: number }[] = [];
  private unanswered = 0;
  private turnScheduled = false;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly maxHoldMs = MAX_HOLD_MS,
  ) {}

  run(name: string, work: () => Promise<void>): void {
    const task = new Promise<void>((start) => {
      this.queue.push({ start, since: performance.now() });
      this.scheduleTurn();
    })
      .then(work)
      .catch((err: unknown) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.tasks.delete(task));
    this.tasks.add(task);
  }

  /** A request arrived and waits for its ack: call the function returned once it is answered (twice is harmless). */
  awaitingAck(): () => void {
    this.unanswered += 1;
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      this.unanswered -= 1;
      if (this.unanswered === 0) this.scheduleTurn();
    };
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Resolves once nothing is running, including work started by work that was running. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private scheduleTurn(): void {
    if (this.turnScheduled || this.queue.length === 0) return;
    this.turnScheduled = true;
    // setImmediate runs after the event loop has read what arrived: new requests go first.
    setImmediate(() => {
      this.turnScheduled = false;
      this.takeTurn();
    });
  }

  private takeTurn(): void {
    const next = this.queue[0];
    if (!next) return;
    const held = performance.now() - next.since;
    if (this.unanswered > 0 && held < this.maxHoldMs) {
      // Woken by the last ack, or when the oldest piece has waited long enough.
      clearTimeout(this.holdTimer);
      this.holdTimer = setTimeout(() => this.scheduleTurn(), this.maxHoldMs - held);
      return;
    }
    this.queue.shift();
    next.start();
    this.scheduleTurn();
  }
}
