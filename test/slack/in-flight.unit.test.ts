/**
 * Work after an ack waits while other requests wait for theirs (one piece per turn, at most 750 ms), so a
 * burst is acknowledged first.
 */
// Work after an ack waits while other requests wait for theirs: a burst is acknowledged first.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/slack/runtime/in-flight.js';

const silent = pino({ level: 'silent' });
/** Lets the event loop go round `n` times (no clock involved). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('InFlight: acks first', () => {
  it('holds work while a request waits for its ack, and starts it once the last one is answered', async () => {
    const inFlight = new InFlight(silent, 60_000);
    const started: string[] = [];
    const first = inFlight.awaitingAck();
    const second = inFlight.awaitingAck();
    inFlight.run('a', async () => void started.push('a'));
    inFlight.run('b', async () => void started.push('b'));
    await turns(20);
    expect(started).toEqual([]);
    first();
    first(); // answered twice: counted once
    await turns(20);
    expect(started).toEqual([]);
    second();
    await inFlight.idle();
    expect(started).toEqual(['a', 'b']);
  });

  it('starts one piece per turn of the event loop, so a request arriving in between is answered first', async () => {
    const inFlight = new InFlight(silent, 60_000);
    const order: string[] = [];
    for (const name of ['a', 'b', 'c']) inFlight.run(name, async () => void order.push(name));
    // What a receiver does when a request comes in while the first piece runs.
    let answered: (() => void) | undefined;
    inFlight.run('arrival', async () => {
      order.push('arrival');
      answered = inFlight.awaitingAck();
    });
    inFlight.run('d', async () => void order.push('d'));
    await turns(20);
    expect(order).toEqual(['a', 'b', 'c', 'arrival']);
    answered?.();
    await inFlight.idle();
    expect(order).toEqual(['a', 'b', 'c', 'arrival', 'd']);
  });

  it('starts held work anyway once it has waited the longest hold, well inside a trigger_id’s 3 s', async () => {
    const inFlight = new InFlight(silent, 80);
    inFlight.awaitingAck(); // never answered
    const queuedAt = performance.now();
    let startedAfter = -1;
    inFlight.run('form', async () => {
      startedAfter = performance.now() - queuedAt;
    });
    await inFlight.idle();
    expect(startedAfter).toBeGreaterThanOrEqual(79);
    expect(startedAfter).toBeLessThan(3000);
  });

  it('waits for a pause in arrivals, so work does not start in the gap before the next request of a burst is read', async () => {
    const inFlight = new InFlight(silent, 60_000, 40);
    let startedAfter = -1;
    inFlight.awaitingAck()(); // arrived and answered at once
    const arrivedAt = performance.now();
    inFlight.run('quote', async () => {
      startedAfter = performance.now() - arrivedAt;
    });
    await turns(20);
    expect(startedAfter).toBe(-1);
    await inFlight.idle();
    expect(startedAfter).toBeGreaterThanOrEqual(39);
  });

  it('keeps a failing piece from stopping the rest', async () => {
    const inFlight = new InFlight(silent, 60_000);
    const done: string[] = [];
    inFlight.run('fails', async () => {
      throw new Error('boom');
    });
    inFlight.run('next', async () => void done.push('next'));
    await inFlight.idle();
    expect(done).toEqual(['next']);
    expect(inFlight.size).toBe(0);
  });
});
