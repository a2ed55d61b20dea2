/**
 * On SQLite and PostgreSQL: the pool's connections in use and callers waiting in the metrics, a pooled
 * connection the server ends reported.
 */
// The database pool as the metrics see it (connections in use, callers waiting), and a pooled connection's failure reported.
import { expect, it } from 'vitest';
import { Metrics } from '../../src/metrics.js';
import { sample, until } from '../support/metrics.js';
import { describeEachBackend } from './backends.js';

describeEachBackend(import.meta.filename, 'the pool', (backend) => {
  it('connections in use and callers waiting, in the metrics (SQLite has no pool: 0)', async () => {
    const store = await backend.open({ poolSize: 1 });
    const metrics = new Metrics();
    metrics.readFrom({ unknownOutcomes: () => store.attempts.countUnknown(), pool: () => store.pool() });
    const inUse = () => sample(metrics, 'waybill_db_pool_in_use');
    const waiting = () => sample(metrics, 'waybill_db_pool_waiting');
    if (backend.name === 'sqlite') {
      expect(store.pool()).toBeUndefined();
      expect([await inUse(), await waiting()]).toEqual([0, 0]);
      return;
    }
    let free = () => {};
    const freed = new Promise<void>((resolve) => {
      free = resolve;
    });
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const holder = store.transaction(async (tx) => {
      await tx.drafts.create({ kind: 'quote', userId: 'UHOLD', channelId: 'C1', data: 1 });
      entered();
      await freed;
    });
    await inside;
    expect([await inUse(), await waiting()]).toEqual([1, 0]);
    const queued = store.ping();
    await until(waiting, 1);
    free();
    await Promise.all([holder, queued]);
    expect([await inUse(), await waiting()]).toEqual([0, 0]);
  });

  it('a pooled connection the server ends is reported (the bot logs it), and the pool goes on', async () => {
    const failures: Error[] = [];
    const store = await backend.open({ onPoolError: (err) => failures.push(err) });
    await store.ping();
    if (backend.name === 'sqlite') return expect(failures).toEqual([]);
    await backend.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    await until(async () => Math.min(failures.length, 1), 1);
    expect(failures[0]?.message).toMatch(/terminat/);
    await store.ping();
  });
});
