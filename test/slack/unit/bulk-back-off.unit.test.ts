/**
 * The bulk worker's back-off on a clock the test moves: halved and paused at a 429, the pause doubled to its
 * cap or as long as Retry-After says, a loop back as rows go through.
 */
// The bulk worker's back-off on its own, on a clock the test moves: halved and paused at each 429,
// the pause doubled up to its cap or as long as Retry-After said (up to its own), and back up a
// loop at a time as rows go through.
import { describe, expect, it } from 'vitest';
import { BackOff } from '../../../src/slack/bulk/back-off.js';

function clocked(max: number) {
  const clock = { ms: 1_000_000 };
  return { clock, backOff: new BackOff(max, () => clock.ms) };
}

describe('bulk back-off', () => {
  it('starts at the most loops, unpaused', () => {
    const { backOff } = clocked(8);
    expect(backOff.limit).toBe(8);
    expect(backOff.waitMs()).toBe(0);
  });

  it('halves the loops at each 429 (never below one) and doubles the pause up to 15 s', () => {
    const { clock, backOff } = clocked(8);
    const pauses = [];
    for (let i = 0; i < 7; i += 1) {
      const slower = backOff.slowDown();
      pauses.push(slower.pauseMs);
      expect(backOff.waitMs()).toBe(slower.pauseMs);
      clock.ms += slower.pauseMs;
      expect(backOff.waitMs()).toBe(0);
    }
    expect(pauses).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect(backOff.limit).toBe(1);
  });

  it("pauses as long as the courier's Retry-After says, up to a minute", () => {
    const { backOff } = clocked(4);
    expect(backOff.slowDown(30_000)).toEqual({ concurrency: 2, pauseMs: 30_000 });
    expect(backOff.waitMs()).toBe(30_000);
    expect(backOff.slowDown(3_600_000).pauseMs).toBe(60_000);
    // A shorter pause asked later does not cut the longer one short.
    expect(backOff.slowDown(0).pauseMs).toBe(2000);
    expect(backOff.waitMs()).toBe(60_000);
  });

  it('adds a loop each time as many rows as the loops allowed went through, up to the most, and resets the pause', () => {
    const { clock, backOff } = clocked(4);
    backOff.slowDown();
    backOff.slowDown();
    expect(backOff.limit).toBe(1);
    const grew = [];
    for (let i = 0; i < 8; i += 1) grew.push(backOff.wentThrough());
    // 1 row at one loop, 2 at two, 3 at three: then four, the most.
    expect(grew).toEqual([true, false, true, false, false, true, false, false]);
    expect(backOff.limit).toBe(4);
    clock.ms += 60_000;
    expect(backOff.slowDown().pauseMs).toBe(500);
  });
});
