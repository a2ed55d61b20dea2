/** Work started after Slack was acknowledged, tracked so a stop and the tests can wait for it. */
import type { Logger } from 'pino';

/**
 * Work started after Slack was acknowledged (an upstream call, a views.update). Tracked so a
 * shutdown can wait for it, and so tests can wait until the bot is idle instead of sleeping.
 */
export class InFlight {
  private readonly tasks = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /**
   * Starts `work` on the next turn of the event loop, so requests already waiting are
   * acknowledged first: under a burst, acks stay fast while the slower work queues behind them.
   */
  run(name: string, work: () => Promise<void>): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.tasks.delete(task));
    this.tasks.add(task);
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Resolves once nothing is running, including work started by work that was running. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }
}
