/**
 * On SQLite and PostgreSQL: one SMS row per booking and event; claimed by one replica; a call begun
 * once, within the calls a minute allowed across replicas; a call begun by a replica that is gone taken
 * over as begun (never as queued); a receiver's failed texts counted.
 */
import { expect, it } from 'vitest';
import type { SmsKey } from '../../src/store/index.js';
import { describeEachBackend } from './backends.js';

const key = (trackingNumber: string, event = 'booked', occurrence = 0) => ({
  trackingNumber,
  event,
  occurrence,
});

describeEachBackend(import.meta.filename, 'sms outbox', (backend) => {
  it('queues one SMS per booking and event, and claims it for one replica at a time', async () => {
    let now = Date.UTC(2026, 10, 30, 2);
    const a = await backend.open({ now: () => new Date(now), replicaId: 'a' });
    const b = await backend.open({ now: () => new Date(now), replicaId: 'b' });
    const row = { ...key('WB1'), phoneKey: '+639171234567', dueAt: new Date(now) };
    expect(await a.sms.enqueue(row)).toBe(true);
    expect(await b.sms.enqueue(row)).toBe(false);
    expect(
      await a.sms.enqueue({ ...row, event: 'failed_attempt', occurrence: 2, reason: 'refused', attempt: 1 }),
    ).toBe(true);
    // Not yet due: nothing to claim.
    await a.sms.enqueue({ ...row, trackingNumber: 'WB2', dueAt: new Date(now + 10_000) });

    const claimed = await a.sms.claim(10);
    expect(claimed.map((r) => [r.trackingNumber, r.event])).toEqual([
      ['WB1', 'booked'],
      ['WB1', 'failed_attempt'],
    ]);
    expect(claimed[1]).toMatchObject({
      reason: 'refused',
      attempt: 1,
      state: 'queued',
      noted: [],
    });
    expect(await b.sms.claim(10)).toEqual([]);
    await a.sms.release();
    expect((await b.sms.claim(1)).map((r) => r.event)).toEqual(['booked']);
    // Later: what this replica holds still, and what fell due; b's claim stays b's.
    now += 10_000;
    expect((await a.sms.claim(10)).map((r) => `${r.trackingNumber} ${r.event}`)).toEqual([
      'WB1 failed_attempt',
      'WB2 booked',
    ]);
  });

  it('begins at most perMinute calls a minute across replicas, each row once', async () => {
    let now = Date.UTC(2026, 10, 30, 2);
    const a = await backend.open({ now: () => new Date(now), replicaId: 'a' });
    const b = await backend.open({ now: () => new Date(now), replicaId: 'b' });
    for (const tn of ['WB1', 'WB2', 'WB3']) await a.sms.enqueue({ ...key(tn), dueAt: new Date(now) });
    const mine = await a.sms.claim(2);
    expect(mine).toHaveLength(2);
    const theirs = await b.sms.claim(10);
    expect(theirs).toHaveLength(1);
    const [first, second, third] = [...mine, ...theirs].map((r) => key(r.trackingNumber)) as [
      SmsKey,
      SmsKey,
      SmsKey,
    ];
    expect(await a.sms.startCall(first, 2)).toBe(true);
    expect(await a.sms.startCall(first, 2)).toBe(false);
    expect(await b.sms.startCall(first, 2)).toBe(false);
    expect(await b.sms.startCall(third, 2)).toBe(true);
    expect(await a.sms.startCall(second, 2)).toBe(false);
    now += 60_001;
    expect(await a.sms.startCall(second, 2)).toBe(true);
  });

  it('a call begun by a replica that is gone is claimed as begun, and a change needs the claim', async () => {
    const now = Date.UTC(2026, 10, 30, 2);
    const a = await backend.open({ now: () => new Date(now), replicaId: 'a' });
    const b = await backend.open({ now: () => new Date(now), replicaId: 'b' });
    await a.sms.enqueue({ ...key('WB1'), dueAt: new Date(now) });
    await a.sms.claim(1);
    expect(await a.sms.startCall(key('WB1'), 10)).toBe(true);
    expect(await b.sms.update(key('WB1'), { state: 'done', outcome: 'sent' })).toBe(false);
    await a.close();
    const [taken] = await b.sms.claim(10);
    expect(taken).toMatchObject({ state: 'calling', tries: 1 });
    expect(await b.sms.update(key('WB1'), { state: 'done', outcome: 'unknown', note: 'done' })).toBe(true);
    expect(await b.sms.update(key('WB1'), { note: undefined, noted: ['waiting', 'done'] })).toBe(true);
    expect((await b.sms.of('WB1'))[0]).toMatchObject({
      state: 'done',
      outcome: 'unknown',
      noted: ['waiting', 'done'],
    });
    expect((await b.sms.of('WB1'))[0]?.note).toBeUndefined();
  });

  it("counts a receiver's texts and those that failed, by phone", async () => {
    const now = Date.UTC(2026, 10, 30, 2);
    const a = await backend.open({ now: () => new Date(now), replicaId: 'a' });
    const outcomes = ['sent', 'refused', 'unknown', 'not_mobile'];
    for (const [index, outcome] of outcomes.entries()) {
      await a.sms.enqueue({
        ...key(`WB${index}`),
        phoneKey: '+639171234567',
        dueAt: new Date(now),
      });
      await a.sms.claim(10);
      await a.sms.update(key(`WB${index}`), { state: 'done', outcome });
    }
    expect(await a.sms.failuresTo('+639171234567')).toEqual({ texts: 3, failed: 2 });
    expect(await a.sms.failuresTo('+639170000000')).toEqual({ texts: 0, failed: 0 });
  });
});
