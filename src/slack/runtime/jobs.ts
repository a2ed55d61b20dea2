/** Background work of the features (the bulk rows queue, the daily digest): added as each registers, started once the bot serves, stopped first when it stops. */
import type { Logger } from 'pino';

export interface Job {
  /** Begins its timers; it does its work as tracked work in flight, so a stop waits for it. */
  start(): void;
  /** No new work starts after this. */
  stop(): void;
  /** One turn now, as its timer would take it (tests take turns themselves). */
  turn(): Promise<void>;
}

export class Jobs {
  private readonly jobs = new Map<string, Job>();
  private started = false;

  constructor(private readonly logger: Logger) {}

  add(name: string, job: Job): void {
    this.jobs.set(name, job);
    if (this.started) job.start();
  }

  start(): void {
    this.started = true;
    for (const [name, job] of this.jobs) {
      this.logger.debug({ job: name }, 'background job started');
      job.start();
    }
  }

  stop(): void {
    this.started = false;
    for (const job of this.jobs.values()) job.stop();
  }

  /** The job's turn now; nothing when no feature added one of that name. */
  async turn(name: string): Promise<void> {
    await this.jobs.get(name)?.turn();
  }
}
