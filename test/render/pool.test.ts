/**
 * The render pool: a PDF's bytes and its unprintable characters back, and a manifest (BigInt cents) made into
 * the same CSV as on the main thread; a task past the queue refused; on stop, the task running and those
 * waiting refused, and any after; a worker ended once idle, another started for the next task.
 */
// The render pool: results as the rendering functions return them (Buffers, BigInts), its queue bounded, everything refused once stopped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleBooking, samplePrintSettings as settings } from '../../fakes/label-bookings.js';
import { buildManifest, lineOfBooking, manifestCsv } from '../../src/labels/manifest.js';
import { RenderPool, RenderRefused } from '../../src/render/pool.js';

let pool: RenderPool | undefined;

afterEach(async () => {
  await pool?.stop();
  pool = undefined;
});

describe('RenderPool', () => {
  it('hands back what the function returns: the bytes of a PDF with its unprintable characters, a manifest with BigInt cents made into the same CSV', async () => {
    pool = new RenderPool({ workers: 1, queue: 4 });
    const manifest = buildManifest(
      '2026-11-23',
      ['WB000001', 'WB000002'].map((n) => lineOfBooking(sampleBooking(n), 'COD')),
      [],
    );
    const [labels, csv] = await Promise.all([
      pool.run('labels', [{ booking: sampleBooking('WB000001', { quantity: '2' }) }], settings),
      pool.run('manifestCsv', manifest),
    ]);
    expect(labels.pdf).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(labels.pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(labels.unprintable).toEqual([]);
    expect(csv).toBe(manifestCsv(manifest));
  }, 60_000);

  it('refuses a task past its queue, and on stop what runs, what waits and what comes after', async () => {
    pool = new RenderPool({ workers: 1, queue: 1 });
    const big = [{ booking: sampleBooking('WB000999', { quantity: '999' }) }];
    const running = pool.run('labels', big, settings);
    const waiting = pool.run('labels', big, settings);
    await expect(pool.run('labels', big, settings)).rejects.toThrow(RenderRefused);
    const settled = Promise.allSettled([running, waiting]);
    await pool.stop();
    for (const result of await settled) {
      expect(result.status).toBe('rejected');
      expect(result.status === 'rejected' && result.reason).toEqual(new RenderRefused('the bot is stopping'));
    }
    await expect(pool.run('manifestCsv', buildManifest('2026-11-23', [], []))).rejects.toThrow(RenderRefused);
  }, 60_000);

  it('ends a worker that has had nothing to do for its idle time, and starts another for the next task', async () => {
    pool = new RenderPool({ workers: 1, queue: 4, idleMs: 50 });
    const empty = buildManifest('2026-11-23', [], []);
    expect(pool.threads).toBe(0);
    await expect(pool.run('manifestCsv', empty)).resolves.toBe(manifestCsv(empty));
    expect(pool.threads).toBe(1);
    await vi.waitFor(() => expect(pool?.threads).toBe(0), { timeout: 10_000 });
    await expect(pool.run('manifestCsv', empty)).resolves.toBe(manifestCsv(empty));
    expect(pool.threads).toBe(1);
  }, 60_000);
});
