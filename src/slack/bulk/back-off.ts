/**
 * How many bulk rows this replica sends at once, and when it may claim the next: halved and paused
 * at each 429, one more loop back each time as many rows as the loops allowed went through.
 */

/**
 * After a 429, this replica claims nothing for this long, doubled at each 429 in a row up to the cap;
 * or for as long as the courier's Retry-After said, if longer, up to its own cap (a courier asking
 * for an hour would leave the file standing: a minute, then the 429 again says so again).
 */
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 15_000;
const MAX_RETRY_AFTER_MS = 60_000;

export class BackOff {
  /** Loops that may claim rows now (lower after a 429, back up as rows go through). */
  limit: number;
  private goneThrough = 0;
  private pauseMs = FIRST_PAUSE_MS;
  private pausedUntil = 0;

  /** `max`: BULK_CONCURRENCY; `now`: the clock the pause is measured on. */
  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = max;
  }

  /** How long to wait before claiming a row: 0 when not paused. */
  waitMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** A 429: half as many rows at once, none for a while (at least as long as the courier asked). */
  slowDown(retryAfterMs = 0): { concurrency: number; pauseMs: number } {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.goneThrough = 0;
    const pauseMs = Math.max(this.pauseMs, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + pauseMs);
    this.pauseMs = Math.min(this.pauseMs * 2, MAX_PAUSE_MS);
    return { concurrency: this.limit, pauseMs };
  }

  /** A row through: after as many as the loops allowed, one more loop (true), up to the most. */
  wentThrough(): boolean {
    this.pauseMs = FIRST_PAUSE_MS;
    if (this.limit >= this.max) return false;
    this.goneThrough += 1;
    if (this.goneThrough < this.limit) return false;
    this.goneThrough = 0;
    this.limit += 1;
    return true;
  }
}
