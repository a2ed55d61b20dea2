/**
 * On SQLite and PostgreSQL: the activity log numbered in order, read by another replica from where it
 * started, its own told apart, old rows purged.
 */
// The activity log on SQLite and PostgreSQL: changes numbered in order, read after a point by any replica, each knowing its own; old ones purged.
import { expect, it } from 'vitest';
import { ACTIVITY_TTL_MS } from '../../src/store/activity.js';
import { describeEachBackend } from './backends.js';

describeEachBackend(import.meta.filename, 'activity', (backend) => {
  it('numbers changes in order; another replica reads those after where it started, telling its own apart', async () => {
    let now = Date.UTC(2026, 10, 24);
    const clock = () => new Date(now);
    const first = await backend.open({ replicaId: 'replica-a', now: clock });
    const second = await backend.open({ replicaId: 'replica-b', now: clock });
    await first.activity.record('UEARLIER');
    const start = await second.activity.latest();
    await first.activity.record('UONE');
    await second.activity.record('UTWO');
    await first.activity.record('UONE');
    const read = await second.activity.since(start);
    expect(read.map((c) => [c.userId, c.byThisReplica])).toEqual([
      ['UONE', false],
      ['UTWO', true],
      ['UONE', false],
    ]);
    expect(read.map((c) => c.seq)).toEqual([...read.map((c) => c.seq)].sort((a, b) => a - b));
    expect(await second.activity.since(read.at(-1)?.seq ?? 0)).toEqual([]);

    now += ACTIVITY_TTL_MS + 1;
    await first.activity.record('ULATER');
    expect(await first.activity.purgeExpired()).toBe(4);
    expect((await first.activity.since(0)).map((c) => c.userId)).toEqual(['ULATER']);
  });
});
