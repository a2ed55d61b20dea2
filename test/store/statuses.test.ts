/**
 * On SQLite and PostgreSQL: a tracking number's statuses numbered in order, the same status not written
 * twice, latest and per day; 24 records from two replicas at once, none lost.
 */
// Parcel statuses on SQLite and PostgreSQL: a history per tracking number, numbered in commit order across replicas.
import { expect, it } from 'vitest';
import { describeEachBackend } from './backends.js';

describeEachBackend(import.meta.filename, 'statuses', (backend) => {
  it('records in order; the status it already has is not written again; latest, latestOf and between read it back', async () => {
    let now = Date.UTC(2026, 10, 24, 6);
    const store = await backend.open({ now: () => new Date(now) });
    const first = await store.statuses.record({ trackingNumber: 'WB1', status: 'picked_up', userId: 'UANA' });
    expect(first).toMatchObject({ recorded: true, entry: { seq: 1, status: 'picked_up', userId: 'UANA' } });
    now += 1000;
    const same = await store.statuses.record({ trackingNumber: 'WB1', status: 'picked_up', userId: 'UBEN' });
    expect(same).toMatchObject({ recorded: false, current: { seq: 1, userId: 'UANA' } });
    const failed = await store.statuses.record({
      trackingNumber: 'WB1',
      status: 'failed_attempt',
      reason: 'refused',
      note: 'said no',
      userId: 'UBEN',
    });
    expect(failed).toMatchObject({ recorded: true, entry: { seq: 2, reason: 'refused', note: 'said no' } });
    // Another reason is another status.
    const other = await store.statuses.record({
      trackingNumber: 'WB1',
      status: 'failed_attempt',
      reason: 'not_at_home',
      userId: 'UBEN',
    });
    expect(other).toMatchObject({ recorded: true, entry: { seq: 3 } });
    await store.statuses.record({ trackingNumber: 'WB2', status: 'delivered', userId: 'UANA' });

    expect((await store.statuses.latest('WB1'))?.seq).toBe(3);
    expect(await store.statuses.latest('WB3')).toBeUndefined();
    const latest = await store.statuses.latestOf(['WB1', 'WB2', 'WB3', 'WB1']);
    expect([...latest.entries()].map(([tn, e]) => [tn, e.status]).sort()).toEqual([
      ['WB1', 'failed_attempt'],
      ['WB2', 'delivered'],
    ]);
    const day = await store.statuses.between({
      from: new Date(Date.UTC(2026, 10, 24, 6, 0, 0, 500)),
      to: new Date(Date.UTC(2026, 10, 25)),
    });
    expect(day.map((e) => [e.trackingNumber, e.seq])).toEqual([
      ['WB1', 2],
      ['WB1', 3],
      ['WB2', 1],
    ]);
  });

  it('two replicas recording at once: none lost, none failed, numbered 1, 2, 3… in order', async () => {
    const a = await backend.open({ replicaId: 'a' });
    const b = await backend.open({ replicaId: 'b' });
    const statuses = ['picked_up', 'in_transit', 'delivered', 'returned'];
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? a : b).statuses.record({
          trackingNumber: 'WB1',
          status: statuses[i % statuses.length] ?? 'delivered',
          note: `n${i}`,
          userId: `U${i}`,
        }),
      ),
    );
    const history = await a.statuses.history('WB1');
    const recorded = results.filter((r) => r.recorded);
    expect(history).toHaveLength(recorded.length);
    expect(history.map((e) => e.seq)).toEqual(history.map((_, i) => i + 1));
    // Never the same status twice in a row: each was checked against the one before it.
    for (const [i, entry] of history.entries())
      if (i > 0) expect(entry.status).not.toBe(history[i - 1]?.status);
  });
});
