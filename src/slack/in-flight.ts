import type { Logger } from 'pino';

/**
 * Work started after Slack was acknowledged (an upstream call, a views.update). Tracked so a
 * shutdown can wait for it, and so tests can wait until the bot is idle instead of sleeping.
 */
export class InFlight {
  private readonly tasks = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, work: () => Promise<void>): void {
    const task = work()
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
