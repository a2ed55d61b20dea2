/**
 * What the bot asks of V8 for itself: after start-up, what it left behind is given back, and the bot's
 * global never gets a `gc`.
 */
import { describe, expect, it } from 'vitest';
import { releaseStartupMemory } from '../src/v8-options.js';

describe('releaseStartupMemory', () => {
  it('collects what start-up left behind, without exposing gc to the bot', () => {
    // About 10 MB of objects nothing refers to any more, as start-up leaves its settings and schemas.
    let leftBehind: { at: number; text: string }[] | undefined = Array.from({ length: 200_000 }, (_, at) => ({
      at,
      text: `row ${at}`,
    }));
    expect(leftBehind.length).toBe(200_000);
    leftBehind = undefined;
    const before = process.memoryUsage().heapUsed;
    releaseStartupMemory();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 5_000_000);
    expect('gc' in globalThis).toBe(false);
  });
});
