/** Background work of the features (the bulk rows queue, the daily digest): added as each registers, started once the bot serves, stopped first when it stops. */
import type { Logger } from 'pino';
import type { InFlight } from './in-flight.js';

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

/**
 * A look at the clock every `everyMs` while started, one look at a time (a scheduled post's).
 * Each look is work in flight, so a stop waits for a post claimed: nobody else would post it.
 */
export function clockJob(
  deps: { inFlight: InFlight; logger: Logger },
  name: string,
  look: () => Promise<unknown>,
  everyMs: number,
): Job {
  let looking: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const turn = () => {
    looking ??= new Promise<void>((done) => {
      deps.inFlight.run(name, () =>
        look()
          .then(() => undefined)
          .catch((err: unknown) => deps.logger.error({ err }, `the ${name} could not be posted`))
          .finally(() => {
            looking = undefined;
            done();
          }),
      );
    });
    return looking;
  };
  return {
    start: () => {
      void turn();
      timer = setInterval(() => void turn(), everyMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),
    turn,
  };
}
