/** Publishing Home tabs without hitting views.publish's rate limit: per person at most so often, everyone's spaced out. */
import type { RefreshTiming } from '../core.js';
import type { InFlight } from '../runtime/in-flight.js';

export const DEFAULT_REFRESH_TIMING: RefreshTiming = { perPersonMs: 3000, spacingMs: 700 };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Coalesces requests to redraw someone's Home tab. A request while one is already due for that
 * person joins it; a person's next publish waits until `perPersonMs` after their last; all
 * publishes queue `spacingMs` apart. Only people who opened their tab are redrawn on changes (the
 * others get a fresh one when they open it). The waits run as tracked background work, so a stop
 * (and a test) can wait for them.
 */
export class HomeRefresher {
  private readonly due = new Set<string>();
  private readonly lastPublished = new Map<string, number>();
  private readonly viewers = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private lastAny = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly inFlight: InFlight,
    private readonly publish: (userId: string) => Promise<void>,
    private readonly timing: RefreshTiming = DEFAULT_REFRESH_TIMING,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The person opened their Home tab: draw it, and keep it current from now on. */
  opened(userId: string): void {
    this.viewers.add(userId);
    this.request(userId);
  }

  /** Something the person's tab shows changed. */
  changed(userId: string): void {
    if (this.viewers.has(userId)) this.request(userId);
  }

  private request(userId: string): void {
    if (this.due.has(userId)) return;
    this.due.add(userId);
    this.inFlight.run('home tab', async () => {
      const last = this.lastPublished.get(userId) ?? Number.NEGATIVE_INFINITY;
      const delay = last + this.timing.perPersonMs - this.now();
      if (delay > 0) await wait(delay);
      await this.inTurn(async () => {
        // Taken off before publishing: a change during the publish gets a publish of its own.
        this.due.delete(userId);
        this.lastPublished.set(userId, this.now());
        await this.publish(userId);
      });
    });
  }

  /** Runs `work` after every publish queued before it, at least `spacingMs` after the last. */
  private inTurn(work: () => Promise<void>): Promise<void> {
    const turn = this.queue.then(async () => {
      const delay = this.lastAny + this.timing.spacingMs - this.now();
      if (delay > 0) await wait(delay);
      this.lastAny = this.now();
      await work();
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}
