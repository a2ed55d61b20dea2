/**
 * Every store behaviour on SQLite and PostgreSQL, several replicas at once, a replica killed mid-call; the
 * address book's search on 2,000 parties (seeded by `fakes/parties.ts`) against its rule, each way a query
 * is read (against a tenth of production's thresholds).
 */
// The store's contract, run against every backend: each behaviour, and several replicas at once.
import { describe, expect, it, vi } from 'vitest';
import { seededParty, seedParties } from '../../fakes/parties.js';
import {
  AttemptNotFoundError,
  type BeginOptions,
  BookingNotFoundError,
  DEFAULT_DRAFT_TTL_MS,
  DraftNotFoundError,
  DuplicateTrackingNumberError,
  PARTY_SEARCH_LIMIT,
  partyRevision,
  type SavedParty,
  StoreError,
  StoreUnavailableError,
} from '../../src/store/index.js';
import { termsOf, wordsOf } from '../../src/store/parties.js';
import type { Party } from '../../src/waybill/schemas.js';
import { maria, party } from '../fixtures/parties.js';
import { describeEachBackend } from './backends.js';
import { startChild } from './child.js';

const DAY = 24 * 60 * 60 * 1000;

/** A clock the test moves by hand. */
function fakeClock(start: string | number = '2025-03-01T09:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

function bookingInput(trackingNumber: string, record: unknown = { weight: 2, pickupDate: '2025-03-02' }) {
  return {
    trackingNumber,
    trackingRefNo: `REF-${trackingNumber}`,
    record,
    channelId: 'C123',
    bookedBy: 'U1',
    bookedAt: new Date('2025-03-01T09:30:00.000Z'),
  };
}

/** Resolves the returned promise only when `release` is called: holds a transaction open. */
function gate() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { released, release };
}

describeEachBackend(import.meta.filename, 'store', (backend) => {
  describe('drafts', () => {
    it('creates, gets, saves (version, updatedAt, expiry) and deletes', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      const created = await store.drafts.create({
        kind: 'booking',
        userId: 'U1',
        channelId: 'C1',
        data: { step: 1 },
      });
      expect(created.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(created).toMatchObject({
        kind: 'booking',
        userId: 'U1',
        channelId: 'C1',
        data: { step: 1 },
        version: 1,
      });
      expect(created.createdAt).toEqual(clock.now());
      expect(created.expiresAt.getTime()).toBe(clock.now().getTime() + DEFAULT_DRAFT_TTL_MS);
      expect(await store.drafts.get(created.id)).toEqual(created);

      clock.advance(60_000);
      const saved = await store.drafts.save(created.id, { step: 2 });
      expect(saved).toMatchObject({ version: 2, data: { step: 2 }, createdAt: created.createdAt });
      expect(saved.updatedAt).toEqual(clock.now());
      expect(saved.expiresAt.getTime()).toBe(clock.now().getTime() + DEFAULT_DRAFT_TTL_MS);
      expect(await store.drafts.get(created.id)).toEqual(saved);
      expect((await store.drafts.save(created.id, { step: 3 })).version).toBe(3);

      await store.drafts.delete(created.id);
      expect(await store.drafts.get(created.id)).toBeUndefined();
      await store.drafts.delete(created.id); // harmless
    });

    it('gives every draft a distinct id', async () => {
      const store = await backend.open();
      const created = await Promise.all(
        Array.from({ length: 200 }, () =>
          store.drafts.create({ kind: 'quote', userId: 'U', channelId: 'C', data: {} }),
        ),
      );
      expect(new Set(created.map((draft) => draft.id)).size).toBe(200);
    });

    it('creates a draft under a given id once: every other call, at the same moment or later, gets that one', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now, draftTtlMs: DAY });
      const calls = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          store.drafts.createOnce('step-Fx1', {
            kind: 'booking',
            userId: 'U1',
            channelId: 'C1',
            data: { n },
          }),
        ),
      );
      expect(calls.filter((call) => call?.created)).toHaveLength(1);
      const first = calls.find((call) => call?.created)?.draft;
      expect(new Set(calls.map((call) => JSON.stringify(call?.draft)))).toEqual(
        new Set([JSON.stringify(first)]),
      );
      await store.drafts.save('step-Fx1', { n: 9 });
      const later = await store.drafts.createOnce('step-Fx1', {
        kind: 'booking',
        userId: 'U1',
        channelId: 'C1',
        data: { n: 0 },
      });
      expect(later).toMatchObject({ created: false, draft: { id: 'step-Fx1', version: 2, data: { n: 9 } } });
      clock.advance(DAY);
      expect(
        await store.drafts.createOnce('step-Fx1', {
          kind: 'booking',
          userId: 'U1',
          channelId: 'C1',
          data: {},
        }),
      ).toBeUndefined();
    });

    it('returns Dates inside data as ISO strings and drops undefined properties; keeps null data', async () => {
      const store = await backend.open();
      const draft = await store.drafts.create({
        kind: 'quote',
        userId: 'U1',
        channelId: 'C1',
        data: { pickup: new Date('2025-03-02T08:00:00.000Z'), skipped: undefined },
      });
      expect((await store.drafts.get(draft.id))?.data).toEqual({ pickup: '2025-03-02T08:00:00.000Z' });
      const empty = await store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: null });
      expect((await store.drafts.get(empty.id))?.data).toBeNull();
    });

    it('expires drafts: get returns undefined, save rejects, purgeExpired removes them', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now, draftTtlMs: DAY });
      const old = await store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: 1 });
      clock.advance(DAY / 2);
      const young = await store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: 2 });
      clock.advance(DAY / 2 - 1);
      expect((await store.drafts.get(old.id))?.data).toBe(1);
      clock.advance(1);
      expect(await store.drafts.get(old.id)).toBeUndefined();
      await expect(store.drafts.save(old.id, 3)).rejects.toThrow(DraftNotFoundError);
      expect((await store.drafts.get(young.id))?.data).toBe(2);

      expect(await store.drafts.purgeExpired()).toBe(1);
      expect(await store.drafts.purgeExpired()).toBe(0);
      clock.advance(DAY);
      expect(await store.drafts.purgeExpired()).toBe(1);
    });

    it('saving extends the expiry', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now, draftTtlMs: DAY });
      const draft = await store.drafts.create({ kind: 'update', userId: 'U1', channelId: 'C1', data: 'a' });
      clock.advance(DAY - 1);
      await store.drafts.save(draft.id, 'b');
      clock.advance(DAY - 1);
      expect((await store.drafts.get(draft.id))?.data).toBe('b');
    });

    it('save rejects for a missing draft', async () => {
      const store = await backend.open();
      await expect(store.drafts.save('nope', {})).rejects.toThrow(DraftNotFoundError);
    });

    it("a form's steps may land on different replicas", async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const draft = await a.drafts.create({
        kind: 'booking',
        userId: 'U1',
        channelId: 'C1',
        data: { step: 1 },
      });
      expect((await b.drafts.get(draft.id))?.data).toEqual({ step: 1 });
      await b.drafts.save(draft.id, { step: 2 });
      expect(await a.drafts.get(draft.id)).toMatchObject({ version: 2, data: { step: 2 } });
      await a.drafts.delete(draft.id);
      expect(await b.drafts.get(draft.id)).toBeUndefined();
    });

    it('replicas purging at once remove each expired draft once and keep the live ones', async () => {
      const clock = fakeClock();
      const replicas = [
        await backend.open({ now: clock.now, draftTtlMs: DAY }),
        await backend.open({ now: clock.now, draftTtlMs: DAY }),
        await backend.open({ now: clock.now, draftTtlMs: DAY }),
      ];
      const [a] = replicas as [(typeof replicas)[0]];
      for (let i = 0; i < 20; i++)
        await a.drafts.create({ kind: 'quote', userId: 'U', channelId: 'C', data: i });
      clock.advance(DAY);
      const live = await a.drafts.create({ kind: 'quote', userId: 'U', channelId: 'C', data: 'live' });
      const purged = await Promise.all(replicas.map((replica) => replica.drafts.purgeExpired()));
      expect(purged.reduce((sum, count) => sum + count, 0)).toBe(20);
      expect((await a.drafts.get(live.id))?.data).toBe('live');
    });
  });

  describe('bookings', () => {
    it('inserts at version 1, its booker its owner, and gets it back', async () => {
      const store = await backend.open();
      const input = bookingInput('WB000001');
      const inserted = await store.bookings.insert({ ...input, cardTs: '111.1' });
      expect(inserted).toEqual({ ...input, cardTs: '111.1', version: 1, ownerId: input.bookedBy });
      expect(inserted.updatedBy).toBeUndefined();
      expect(inserted.updatedAt).toBeUndefined();
      expect(await store.bookings.get('WB000001')).toEqual(inserted);
      expect(await store.bookings.get('WB000002')).toBeUndefined();
    });

    it('refuses a duplicate tracking number and keeps the first, also when replicas insert at once', async () => {
      const store = await backend.open();
      await store.bookings.insert(bookingInput('WB000001', { first: true }));
      await expect(store.bookings.insert(bookingInput('WB000001', { first: false }))).rejects.toThrow(
        DuplicateTrackingNumberError,
      );
      expect((await store.bookings.get('WB000001'))?.record).toEqual({ first: true });

      const other = await backend.open();
      const outcomes = await Promise.allSettled(
        [store, other, store, other].map((replica, i) =>
          replica.bookings.insert(bookingInput('WB000002', { i })),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected')
          expect(outcome.reason).toBeInstanceOf(DuplicateTrackingNumberError);
      }
    });

    it('marks the booked tracking number as used', async () => {
      const store = await backend.open();
      await store.bookings.insert(bookingInput('WB000001'));
      expect(await store.trackingNumbers.reserve('WB000001')).toBe(false);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
    });

    it('updates with optimistic concurrency: a stale version gets the current booking', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      await store.bookings.insert(bookingInput('WB000001', { weight: 1 }));

      clock.advance(1000);
      const first = await store.bookings.updateRecord('WB000001', 1, { weight: 2 }, 'U2');
      if (!first.ok) throw new Error('the first update should apply');
      expect(first.booking).toMatchObject({ version: 2, record: { weight: 2 }, updatedBy: 'U2' });
      expect(first.booking.updatedAt).toEqual(clock.now());

      // Someone else still holding version 1.
      const stale = await store.bookings.updateRecord('WB000001', 1, { weight: 3 }, 'U3');
      expect(stale).toEqual({ ok: false, current: first.booking });
      expect((await store.bookings.get('WB000001'))?.record).toEqual({ weight: 2 });

      const second = await store.bookings.updateRecord('WB000001', 2, { weight: 3 }, 'U3');
      expect(second.ok && second.booking.version).toBe(3);

      expect(await store.bookings.updateRecord('WB999999', 1, {}, 'U1')).toEqual({
        ok: false,
        current: undefined,
      });
    });

    it('of replicas updating the same version at once, exactly one applies', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      await a.bookings.insert(bookingInput('WB000001', { weight: 1 }));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).bookings.updateRecord('WB000001', 1, { weight: 10 + i }, `U${i}`),
        ),
      );
      const applied = results.filter((result) => result.ok);
      expect(applied).toHaveLength(1);
      const winner = applied[0]?.ok ? applied[0].booking : undefined;
      for (const result of results) {
        if (!result.ok) expect(result.current?.version).toBe(2);
      }
      expect(await b.bookings.get('WB000001')).toEqual(winner);
    });

    it('sets card locations without touching the others or the version', async () => {
      const store = await backend.open();
      await store.bookings.insert(bookingInput('WB000001'));
      await store.bookings.setCard('WB000001', { cardChannelId: 'C9', cardTs: '1.1' });
      await store.bookings.setCard('WB000001', { auditCardTs: '2.2' });
      expect(await store.bookings.get('WB000001')).toMatchObject({
        cardChannelId: 'C9',
        cardTs: '1.1',
        auditCardTs: '2.2',
        version: 1,
      });
      await store.bookings.setCard('WB000001', { cardTs: '3.3' });
      await store.bookings.setCard('WB000001', {});
      expect(await store.bookings.get('WB000001')).toMatchObject({
        cardChannelId: 'C9',
        cardTs: '3.3',
        auditCardTs: '2.2',
      });
      await expect(store.bookings.setCard('WB404', { cardTs: '1' })).rejects.toThrow(BookingNotFoundError);
    });
  });

  describe('attempts', () => {
    it('begin twice: the second sees the first, whatever its state', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now, replicaId: 'replica-a' });
      const about = { trackingNumber: 'WB1', userId: 'U1', channelId: 'C1', claim: 'book:d1:WB1' };
      expect(await store.attempts.begin('book:d1:WB1', 'book', about)).toEqual({ started: true });
      expect(await store.attempts.begin('book:d1:WB1', 'book')).toEqual({
        started: false,
        attempt: {
          key: 'book:d1:WB1',
          operation: 'book',
          state: 'in-flight',
          ...about,
          owner: 'replica-a',
          createdAt: clock.now(),
          updatedAt: clock.now(),
        },
      });

      clock.advance(500);
      await store.attempts.finish('book:d1:WB1', 'succeeded', { trackingRefNo: 'R1' });
      const third = await store.attempts.begin<{ trackingRefNo: string }>('book:d1:WB1', 'book');
      if (third.started) throw new Error('a finished attempt should not start again');
      expect(third.attempt).toMatchObject({
        state: 'succeeded',
        result: { trackingRefNo: 'R1' },
        ...about,
      });
      expect(third.attempt.updatedAt).toEqual(clock.now());
      expect(await store.attempts.get('book:d1:WB1')).toEqual(third.attempt);
      expect(await store.attempts.get('other')).toBeUndefined();
    });

    it('50 concurrent begins on one key from two replicas: exactly one starts', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).attempts.begin('book:d1:WB1', 'book')),
      );
      expect(results.filter((result) => result.started)).toHaveLength(1);
      for (const result of results) {
        if (!result.started) expect(result.attempt.state).toBe('in-flight');
      }
    });

    it('finish rejects for an unknown key', async () => {
      const store = await backend.open();
      await expect(store.attempts.finish('nope', 'failed', null)).rejects.toThrow(AttemptNotFoundError);
    });

    it('starts an attempt again only from the state asked for (a Try again, a confirmed resend)', async () => {
      const store = await backend.open();
      for (const key of ['inflight', 'ok', 'bad', 'unsure']) await store.attempts.begin(key, 'book');
      await store.attempts.finish('ok', 'succeeded', { ok: true });
      await store.attempts.finish('bad', 'failed', { message: 'rejected' });
      await store.attempts.finish('unsure', 'unknown', { message: 'timeout' });

      for (const key of ['inflight', 'ok', 'unsure']) {
        expect((await store.attempts.begin(key, 'book', { again: 'failed' })).started).toBe(false);
      }
      expect((await store.attempts.begin('bad', 'book', { again: 'unknown' })).started).toBe(false);
      expect(await store.attempts.begin('bad', 'book', { again: 'failed' })).toEqual({ started: true });
      expect(await store.attempts.get('bad')).toMatchObject({ state: 'in-flight' });
      expect(await store.attempts.get('bad')).not.toHaveProperty('result');
      expect(await store.attempts.begin('unsure', 'book', { again: 'unknown' })).toEqual({ started: true });
      expect((await store.attempts.get('ok'))?.state).toBe('succeeded');
      // A second click finds the attempt under way.
      expect((await store.attempts.begin('bad', 'book', { again: 'failed' })).started).toBe(false);
    });

    it('lets one attempt at a time hold a claim: a failed one lets go, an unknown one holds until superseded', async () => {
      const store = await backend.open();
      const begin = (key: string, options: BeginOptions = {}) =>
        store.attempts.begin(key, 'update', { claim: 'update:WB1:v1', ...options });
      const holder = async (result: ReturnType<typeof begin>) => {
        const settled = await result;
        return settled.started ? undefined : settled.attempt.key;
      };

      expect((await begin('a')).started).toBe(true);
      expect(await holder(begin('b'))).toBe('a');
      expect(await holder(begin('b', { supersedeUnknown: true }))).toBe('a');
      await store.attempts.finish('a', 'failed', { message: 'rejected' });
      expect(await begin('b')).toEqual({ started: true });
      // Starting the failed one again needs the claim back.
      expect(await holder(begin('a', { again: 'failed' }))).toBe('b');

      await store.attempts.finish('b', 'unknown', { message: 'timeout' });
      expect(await holder(begin('c'))).toBe('b');
      const superseding = await begin('c', { supersedeUnknown: true });
      expect(superseding).toMatchObject({ started: true, superseded: { key: 'b', state: 'unknown' } });
      expect(await store.attempts.get('b')).toMatchObject({ state: 'unknown', supersededBy: 'c' });

      await store.attempts.finish('c', 'succeeded', { ok: true });
      expect(await holder(begin('d', { supersedeUnknown: true }))).toBe('c');
      expect(await holder(begin('b', { again: 'unknown', supersedeUnknown: true }))).toBe('c');
      // Another claim is another matter.
      expect((await store.attempts.begin('e', 'update', { claim: 'update:WB1:v2' })).started).toBe(true);
    });

    it('different attempts under one claim from two replicas at once: exactly one starts, the rest see it', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).attempts.begin(`update:WB1:v1:${i}`, 'update', { claim: 'update:WB1:v1' }),
        ),
      );
      const started = results.flatMap((result, i) => (result.started ? [`update:WB1:v1:${i}`] : []));
      expect(started).toHaveLength(1);
      for (const result of results) {
        if (!result.started) expect(result.attempt.key).toBe(started[0]);
      }
    });

    it('an unknown attempt is superseded once when replicas supersede it at once', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      await a.attempts.begin('old', 'update', { claim: 'c' });
      await a.attempts.finish('old', 'unknown', { message: 'timeout' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).attempts.begin(`new-${i}`, 'update', { claim: 'c', supersedeUnknown: true }),
        ),
      );
      const started = results.filter((result) => result.started);
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ superseded: { key: 'old' } });
      const winner = (await a.attempts.get('old'))?.supersededBy;
      for (const result of results) {
        if (!result.started) expect(result.attempt.key).toBe(winner);
      }
    });

    it("recovers a closed replica's in-flight attempts at once, with who and what they were about", async () => {
      const clock = fakeClock();
      const before = await backend.open({ now: clock.now, replicaId: 'before' });
      await before.attempts.begin('book:d1:WB1', 'book', {
        trackingNumber: 'WB1',
        userId: 'U1',
        channelId: 'C1',
      });
      clock.advance(10);
      await before.attempts.begin('update:WB2:abc', 'update', { trackingNumber: 'WB2', userId: 'U2' });
      await before.attempts.begin('done', 'book');
      await before.attempts.finish('done', 'succeeded', 1);
      await before.close(); // stopped mid-call; its lease is released

      clock.advance(60_000);
      const after = await backend.open({ now: clock.now, replicaId: 'after' });
      const abandoned = await after.attempts.recoverAbandoned();
      expect(abandoned).toEqual([
        {
          key: 'book:d1:WB1',
          operation: 'book',
          state: 'unknown',
          trackingNumber: 'WB1',
          userId: 'U1',
          channelId: 'C1',
          owner: 'before',
          createdAt: new Date(clock.now().getTime() - 60_010),
          updatedAt: clock.now(),
        },
        expect.objectContaining({
          key: 'update:WB2:abc',
          trackingNumber: 'WB2',
          userId: 'U2',
          state: 'unknown',
        }),
      ]);
      expect((await after.attempts.get('done'))?.state).toBe('succeeded');
      // A replay still sees the first attempt, and it cannot be started again as if it had failed.
      expect((await after.attempts.begin('book:d1:WB1', 'book')).started).toBe(false);
      expect((await after.attempts.begin('book:d1:WB1', 'book', { again: 'failed' })).started).toBe(false);
      expect(await after.attempts.recoverAbandoned()).toEqual([]);
    });

    it('keeps the view a call was made from, and a new one when it starts again from another', async () => {
      const gone = await backend.open({ replicaId: 'gone' });
      await gone.attempts.begin('book:d1:WB1', 'book', { userId: 'U1', viewId: 'V1' });
      await gone.attempts.begin('book:d2:WB2', 'book', { userId: 'U2' });
      expect((await gone.attempts.get('book:d1:WB1'))?.viewId).toBe('V1');
      expect(await gone.attempts.get('book:d2:WB2')).not.toHaveProperty('viewId');
      await gone.attempts.finish('book:d1:WB1', 'failed', { message: 'no' });
      await gone.attempts.begin('book:d1:WB1', 'book', { again: 'failed' });
      expect((await gone.attempts.get('book:d1:WB1'))?.viewId).toBe('V1');
      await gone.attempts.finish('book:d1:WB1', 'failed', { message: 'no' });
      await gone.attempts.begin('book:d1:WB1', 'book', { again: 'failed', viewId: 'V2' });
      await gone.close();

      const after = await backend.open({ replicaId: 'after' });
      expect(await after.attempts.recoverAbandoned()).toEqual([
        expect.objectContaining({ key: 'book:d1:WB1', viewId: 'V2', userId: 'U1' }),
        expect.not.objectContaining({ viewId: expect.anything() }),
      ]);
    });

    it('never touches the calls of a live replica, nor its own; takes them once the lease expires', async () => {
      const clock = fakeClock();
      const busy = await backend.open({ now: clock.now, replicaId: 'busy', leaseTtlMs: 30_000 });
      await busy.attempts.begin('book:d1:WB1', 'book', { trackingNumber: 'WB1' });
      const starting = await backend.open({ now: clock.now, replicaId: 'starting' });
      await starting.attempts.begin('book:d2:WB2', 'book');

      expect(await starting.attempts.recoverAbandoned()).toEqual([]);
      expect(await busy.attempts.recoverAbandoned()).toEqual([]);
      clock.advance(20_000);
      await busy.replica.renew();
      clock.advance(20_000);
      expect(await starting.attempts.recoverAbandoned()).toEqual([]);

      // `busy` stops renewing (it died); `starting` keeps its own lease.
      clock.advance(10_000);
      await starting.replica.renew();
      expect((await starting.attempts.recoverAbandoned()).map((attempt) => attempt.key)).toEqual([
        'book:d1:WB1',
      ]);
      expect(await busy.attempts.recoverAbandoned()).toEqual([]);
      expect((await starting.attempts.get('book:d2:WB2'))?.state).toBe('in-flight');
    });

    it('several replicas recovering at once: each abandoned attempt is returned once', async () => {
      const gone = await backend.open({ replicaId: 'gone' });
      const keys = Array.from({ length: 20 }, (_, i) => `book:d${i}:WB${i}`);
      for (const key of keys) await gone.attempts.begin(key, 'book');
      await gone.close();
      const replicas = await Promise.all([1, 2, 3].map((i) => backend.open({ replicaId: `r${i}` })));
      const recovered = (
        await Promise.all(replicas.map((replica) => replica.attempts.recoverAbandoned()))
      ).flat();
      expect(recovered.map((attempt) => attempt.key).sort()).toEqual([...keys].sort());
    });

    it('abandonOwn marks only this replica’s in-flight attempts unknown', async () => {
      const [mine, theirs] = [
        await backend.open({ replicaId: 'mine' }),
        await backend.open({ replicaId: 'theirs' }),
      ];
      await mine.attempts.begin('m1', 'book', { userId: 'U1' });
      await mine.attempts.begin('m2', 'update');
      await mine.attempts.finish('m2', 'failed', { message: 'no' });
      await theirs.attempts.begin('t1', 'book');
      expect(await mine.attempts.abandonOwn()).toEqual([
        expect.objectContaining({ key: 'm1', state: 'unknown', userId: 'U1', owner: 'mine' }),
      ]);
      expect((await theirs.attempts.get('t1'))?.state).toBe('in-flight');
      expect((await theirs.attempts.get('m2'))?.state).toBe('failed');
    });

    it('a replica killed mid-call: its call is left alone until its lease expires, then recovered', async () => {
      const child = await startChild('begin-and-wait', {
        target: backend.target(),
        replicaId: 'killed',
        leaseTtlMs: 60_000,
        key: 'book:d1:WB1',
        about: { trackingNumber: 'WB1', userId: 'U1', channelId: 'C1', claim: 'book:d1:WB1' },
      });
      const clock = fakeClock(Date.now());
      const survivor = await backend.open({ now: clock.now, replicaId: 'survivor' });
      expect(await survivor.attempts.recoverAbandoned()).toEqual([]);
      await child.kill();
      expect(await survivor.attempts.recoverAbandoned()).toEqual([]);
      clock.advance(61_000);
      expect(await survivor.attempts.recoverAbandoned()).toEqual([
        expect.objectContaining({
          key: 'book:d1:WB1',
          owner: 'killed',
          trackingNumber: 'WB1',
          userId: 'U1',
          channelId: 'C1',
        }),
      ]);
    });
  });

  describe('leases', () => {
    /** Waits (bounded) until the background renewal has moved the lease beyond `now`. */
    const renewedAfter = (replicaId: string, now: Date) =>
      vi.waitFor(
        async () => {
          const [lease] = await backend.query<{ expires_at: number | string }>(
            `SELECT expires_at FROM replica_leases WHERE replica_id = '${replicaId}'`,
          );
          expect(Number(lease?.expires_at)).toBeGreaterThan(now.getTime());
        },
        { timeout: 5000, interval: 10 },
      );

    it('are renewed in the background', async () => {
      const clock = fakeClock();
      const busy = await backend.open({
        now: clock.now,
        replicaId: 'busy',
        leaseTtlMs: 1000,
        leaseRenewMs: 10,
      });
      await busy.attempts.begin('k', 'book');
      const other = await backend.open({ now: clock.now, replicaId: 'other' });
      clock.advance(5000);
      // Renewed at the moved clock: the lease outlives it.
      await renewedAfter('busy', clock.now());
      expect(await other.attempts.recoverAbandoned()).toEqual([]);
    });

    it('a background renewal that fails is reported, and the next one recovers', async () => {
      const clock = fakeClock();
      const errors: unknown[] = [];
      await backend.open({
        now: clock.now,
        replicaId: 'flaky',
        leaseRenewMs: 10,
        onBackgroundError: (err) => errors.push(err),
      });
      await backend.query('ALTER TABLE replica_leases RENAME TO replica_leases_away');
      await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5000, interval: 10 });
      expect(errors[0]).toBeInstanceOf(Error);
      await backend.query('ALTER TABLE replica_leases_away RENAME TO replica_leases');
      clock.advance(60_000);
      await renewedAfter('flaky', clock.now());
    });
  });

  describe('audit', () => {
    it('records entries with JSON payloads and lists them newest first', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      const first = await store.audit.record({
        userId: 'U1',
        operation: 'quote',
        outcome: 'ok',
        request: { weight: 2, when: new Date('2025-03-02T00:00:00.000Z') },
        response: { price: '12.50' },
      });
      expect(first).toEqual({
        id: first.id,
        at: clock.now(),
        userId: 'U1',
        operation: 'quote',
        outcome: 'ok',
        request: { weight: 2, when: '2025-03-02T00:00:00.000Z' },
        response: { price: '12.50' },
      });
      clock.advance(1000);
      const second = await store.audit.record({
        userId: 'U2',
        operation: 'book',
        trackingNumber: 'WB000001',
        outcome: 'succeeded',
        detail: 'booked',
      });
      clock.advance(1000);
      const third = await store.audit.record({
        userId: 'U2',
        operation: 'refused',
        trackingNumber: 'WB000002',
        outcome: 'invalid',
      });
      clock.advance(1000);
      const fourth = await store.audit.record({
        userId: 'U3',
        operation: 'update',
        trackingNumber: 'WB000001',
        outcome: 'failed',
      });

      expect((await store.audit.list()).map((entry) => entry.id)).toEqual([
        fourth.id,
        third.id,
        second.id,
        first.id,
      ]);
      expect(await store.audit.list({ trackingNumber: 'WB000001' })).toEqual([fourth, second]);
      expect(await store.audit.list({ operation: 'refused' })).toEqual([third]);
      expect(await store.audit.list({ trackingNumber: 'WB000001', operation: 'book' })).toEqual([second]);
      expect(await store.audit.list({ limit: 2 })).toEqual([fourth, third]);
      expect(await store.audit.list({ trackingNumber: 'nope' })).toEqual([]);
      await expect(store.audit.list({ limit: -1 })).rejects.toThrow(RangeError);
    });

    it('keeps newest-first order even when the clock goes backwards', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      const a = await store.audit.record({ userId: 'U', operation: 'quote', outcome: 'ok' });
      clock.advance(-60_000);
      const b = await store.audit.record({ userId: 'U', operation: 'quote', outcome: 'ok' });
      expect(await store.audit.list()).toEqual([b, a]);
    });
  });

  describe('tracking numbers', () => {
    it('hands out zero-padded, unique numbers per prefix', async () => {
      const store = await backend.open();
      expect(await store.trackingNumbers.next('WB')).toBe('WB000001');
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
      expect(await store.trackingNumbers.next('XP')).toBe('XP000001');
      const many: string[] = [];
      for (let i = 0; i < 300; i++) many.push(await store.trackingNumbers.next('WB'));
      expect(new Set(many).size).toBe(300);
      expect(many.at(-1)).toBe('WB000302');
    });

    it('2 replicas × 200 at once: 400 distinct numbers, unique across reopen', async () => {
      const first = await backend.open();
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) seen.add(await first.trackingNumbers.next('WB'));
      await first.close();

      const [a, b] = [await backend.open(), await backend.open()];
      const numbers = await Promise.all(
        Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).trackingNumbers.next('WB')),
      );
      expect(new Set(numbers).size).toBe(400);
      for (const number of numbers) expect(seen.has(number)).toBe(false);
    });

    it('never hands out a reserved number', async () => {
      const store = await backend.open();
      expect(await store.trackingNumbers.reserve('WB000002')).toBe(true);
      expect(await store.trackingNumbers.reserve('WB000003')).toBe(true);
      expect(await store.trackingNumbers.reserve('WB000002')).toBe(false);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000001');
      expect(await store.trackingNumbers.next('WB')).toBe('WB000004');
      expect(await store.trackingNumbers.reserve('WB000004')).toBe(false);
    });

    it('reserves a typed number for one holder only, atomically across replicas', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const holders = Array.from({ length: 10 }, (_, i) => `draft-${i}`);
      const results = await Promise.all(
        holders.map((holder, i) => (i % 2 ? a : b).trackingNumbers.reserve('TYPED-1', holder)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = holders[results.indexOf(true)];
      // The holder may ask again (a retry of the same draft); nobody else, with or without a holder.
      expect(await a.trackingNumbers.reserve('TYPED-1', winner)).toBe(true);
      expect(await b.trackingNumbers.reserve('TYPED-1', 'draft-other')).toBe(false);
      expect(await b.trackingNumbers.reserve('TYPED-1')).toBe(false);

      const generated = await a.trackingNumbers.next('WB', 'draft-x');
      expect(await b.trackingNumbers.reserve(generated, 'draft-x')).toBe(true);
      expect(await b.trackingNumbers.reserve(generated, 'draft-y')).toBe(false);
    });

    it('never reuses a number even if the counters were reset', async () => {
      const first = await backend.open();
      const handedOut = [await first.trackingNumbers.next('WB'), await first.trackingNumbers.next('WB')];
      await first.close();
      await backend.query('DELETE FROM tracking_counters');

      const second = await backend.open();
      expect(handedOut).toEqual(['WB000001', 'WB000002']);
      expect(await second.trackingNumbers.next('WB')).toBe('WB000003');
    });

    it('rejects a prefix that could not be on a label', async () => {
      const store = await backend.open();
      await expect(store.trackingNumbers.next('WB 1')).rejects.toThrow(RangeError);
      await expect(store.trackingNumbers.next('x'.repeat(41))).rejects.toThrow(RangeError);
    });
  });

  describe('deliveries', () => {
    it('the first claim of a delivery wins, across replicas, until it expires', async () => {
      const clock = fakeClock();
      const [a, b] = [
        await backend.open({ now: clock.now, deliveryTtlMs: 60_000 }),
        await backend.open({ now: clock.now, deliveryTtlMs: 60_000 }),
      ];
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).deliveries.claim('trigger-1')),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await b.deliveries.claim('trigger-2')).toBe(true);

      clock.advance(59_999);
      expect(await a.deliveries.claim('trigger-1')).toBe(false);
      expect(await a.deliveries.purgeExpired()).toBe(0);
      clock.advance(1);
      // Past its TTL a claim is forgotten, purged or not.
      expect(await a.deliveries.claim('trigger-1')).toBe(true);
      expect(await b.deliveries.purgeExpired()).toBe(1);
      expect(await b.deliveries.claim('trigger-2')).toBe(true);
    });

    it('a burst of claims, each id delivered three times to two replicas at once: each claimed once', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      // 100 ids, each delivered three times (twice to one replica, once to the other), all at once.
      const ids = Array.from({ length: 300 }, (_, i) => `trigger-burst-${i % 100}`);
      const claims = await Promise.all(ids.map((id, i) => (i % 3 === 2 ? b : a).deliveries.claim(id)));
      const winners = ids.filter((_, i) => claims[i]);
      expect(winners).toHaveLength(100);
      expect(new Set(winners).size).toBe(100);
      expect(await a.deliveries.claim('trigger-burst-7')).toBe(false);
    });
  });

  describe('parties (address book)', () => {
    it('saves booked parties with their details and last use; the same name and phone is one party', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      const [saved, ...others] = await store.parties.save([
        maria,
        { ...maria, name: '  maria   SANTOS ' },
        party('', '0917 000 0000', 'Cebu'),
      ]);
      expect(others).toEqual([]);
      expect(saved).toEqual({
        ...maria,
        name: 'maria   SANTOS',
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        createdAt: clock.now(),
        lastUsedAt: clock.now(),
        uses: 1,
      });
      expect(await store.parties.get(saved?.id ?? '')).toEqual(saved);

      clock.advance(60_000);
      // Booked again, written the international way, with a new address and no coordinates.
      const [again] = await store.parties.save([
        {
          ...maria,
          phone: '+63 918 555 0202',
          street: '12 Mabini St',
          latitude: undefined,
          longitude: undefined,
        },
      ]);
      const { latitude: _lat, longitude: _lon, ...withoutCoordinates } = maria;
      expect(again).toEqual({
        ...withoutCoordinates,
        phone: '+63 918 555 0202',
        street: '12 Mabini St',
        id: saved?.id,
        createdAt: saved?.createdAt,
        lastUsedAt: clock.now(),
        uses: 2,
      });
      const [other] = await store.parties.save([{ ...maria, phone: '0918 555 0203' }]);
      expect(other?.id).not.toBe(saved?.id);
      // One per distinct party, in the order given.
      const juan = party('Juan dela Cruz', '0917 000 1111', 'Makati');
      const order = await store.parties.save([juan, maria, juan, party('Ana Cruz', '0917 222 3333', 'Naga')]);
      expect(order.map((p) => p.name)).toEqual(['Juan dela Cruz', 'Maria Santos', 'Ana Cruz']);
      expect(await store.parties.get('nope')).toBeUndefined();
    });

    it('finds parties by the start of any word of their name or city, or by phone, most recently used first', async () => {
      const clock = fakeClock();
      const store = await backend.open({ now: clock.now });
      const saveAt = async (details: Party) => {
        clock.advance(1000);
        return (await store.parties.save([details]))[0]?.id;
      };
      const ids = {
        maria: await saveAt(maria),
        juan: await saveAt(party('Juan dela Cruz', '+63 917 000 1111', 'Quezon City')),
        ana: await saveAt(party('Ana Peñafrancia', '(02) 8123 4567', 'Naga')),
        mario: await saveAt(party('Mario Reyes', '0999 888 7777', 'Manila')),
      };
      const found = async (query: string) => (await store.parties.find(query)).map((p) => p.id);
      expect(await found('mar')).toEqual([ids.mario, ids.maria]);
      expect(await found('MARIA')).toEqual([ids.maria]);
      expect(await found('santos')).toEqual([ids.maria]);
      expect(await found('manila')).toEqual([ids.mario, ids.maria]);
      expect(await found('mar manila')).toEqual([ids.mario, ids.maria]);
      expect(await found('maria quezon')).toEqual([]);
      expect(await found('quezon')).toEqual([ids.juan]);
      expect(await found('dela cruz')).toEqual([ids.juan]);
      expect(await found('pena')).toEqual([ids.ana]);
      expect(await found('peñafrancia')).toEqual([ids.ana]);
      // Phones: the digits as written, the last ten with or without the leading 0, the last seven or four.
      expect(await found('0918 555')).toEqual([ids.maria]);
      expect(await found('918-555')).toEqual([ids.maria]);
      expect(await found('0917')).toEqual([ids.juan]);
      expect(await found('+63 917')).toEqual([ids.juan]);
      expect(await found('(02) 8123')).toEqual([ids.ana]);
      expect(await found('555 0202')).toEqual([ids.maria]);
      expect(await found('0202')).toEqual([ids.maria]);
      expect(await found('maria 0918 555')).toEqual([ids.maria]);
      expect(await found('mario 0918')).toEqual([]);
      expect(await found('1000')).toEqual([]); // a postal code is not a phone
      expect(await found('zzz')).toEqual([]);
      expect(await found("'; drop table parties; --")).toEqual([]);
      // Nothing typed yet: the most recently used.
      expect(await found('')).toEqual([ids.mario, ids.ana, ids.juan, ids.maria]);
      expect((await store.parties.find('', 2)).map((p) => p.id)).toEqual([ids.mario, ids.ana]);
      await saveAt(maria);
      expect(await found('mar')).toEqual([ids.maria, ids.mario]);
      await expect(store.parties.find('', 0)).rejects.toThrow(RangeError);
    });

    it('answers with at most 100 parties', async () => {
      const store = await backend.open();
      await store.parties.save(
        Array.from({ length: 130 }, (_, i) =>
          party(`Rosa ${i}`, `0917 100 ${String(i).padStart(4, '0')}`, 'Pasig'),
        ),
      );
      expect(await store.parties.find('rosa')).toHaveLength(100);
      expect(await store.parties.find('rosa', 500)).toHaveLength(100);
      expect(await store.parties.find('rosa 12')).toHaveLength(11); // 12, 120–129
    });

    it('finds in a big address book what the rule says, most recent first, however common the words', async () => {
      // Above what SQLite fetches for a rare word, walks for common ones, and fetches when they seldom meet:
      // a tenth of production's address book, thresholds (PARTY_THRESHOLDS) and page, so each word is as
      // common against them as there.
      const count = 2000;
      const page = PARTY_SEARCH_LIMIT / 10;
      await seedParties(backend.target(), count);
      const store = await backend.open({
        searchThresholds: { parties: { few: 200, recent: 1000, many: 1000 } },
      });
      // Every word typed starts a word of the party's (its phone's only, for digits); party i used at minute i.
      const expected = (query: string) => {
        const phoneOnly = /^\d+$/.test(query);
        const words = wordsOf(query);
        const ids: string[] = [];
        for (let i = count - 1; i >= 0 && ids.length < page; i--) {
          const p = seededParty(i);
          const terms = termsOf(p).filter((t) => !phoneOnly || t.field === 'phone');
          if (words.every((w) => terms.some((t) => t.term.startsWith(w)))) ids.push(p.id);
        }
        return ids;
      };
      for (const query of [
        '0917',
        '',
        'ma',
        'maria',
        'maria manila',
        'maria santos',
        'maria juan',
        'maria santos manila',
        'rosa 1', // its number or phone's last four: every one of the most recent
        'santos 49',
        'zzz',
      ]) {
        expect(
          (await store.parties.find(query, page)).map((p) => p.id),
          query,
        ).toEqual(expected(query));
      }
    });

    it('finds the parties a message names: every word of the name, in any case', async () => {
      const store = await backend.open();
      const [mariaSantos, mariaClara, cruz] = await Promise.all(
        [
          party('Maria Santos', '0918 555 0202', 'Manila'),
          party('Maria Clara', '0918 555 0303', 'Manila'),
          party('Cruz', '0918 555 0404', 'Cebu'),
        ].map(async (details) => (await store.parties.save([details]))[0]?.name),
      );
      const named = async (text: string) => (await store.parties.namedIn(text)).map((p) => p.name).sort();
      expect(await named('pls book 2 boxes to MARIA SANTOS, 45 Rizal St')).toEqual([mariaSantos]);
      expect(await named('for Maria pls')).toEqual([]);
      expect(await named('Santos, Maria / Clara and Cruz')).toEqual([cruz, mariaClara, mariaSantos].sort());
      expect(await named('')).toEqual([]);
    });

    it('edits a party: new details and words, the same uses; never into a copy of another', async () => {
      const store = await backend.open();
      const [saved] = await store.parties.save([maria]);
      const [juan] = await store.parties.save([party('Juan dela Cruz', '0917 000 1111', 'Quezon City')]);
      if (!saved || !juan) throw new Error('both should be saved');
      const edited = await store.parties.edit(saved.id, { ...maria, city: 'Pasay', phone: '0918 555 9999' });
      expect(edited).toEqual({
        ok: true,
        party: { ...saved, city: 'Pasay', phone: '0918 555 9999' },
      });
      expect(await store.parties.find('manila')).toEqual([]);
      expect((await store.parties.find('pasay')).map((p) => p.id)).toEqual([saved.id]);
      expect(await store.parties.find('0918 555 0202')).toEqual([]);
      // Booking the edited party again finds it under its new key.
      expect((await store.parties.save([{ ...maria, phone: '0918 555 9999' }]))[0]?.id).toBe(saved.id);

      expect(await store.parties.edit(saved.id, party('JUAN DELA CRUZ', '0917 000 1111', 'Makati'))).toEqual({
        ok: false,
        reason: 'duplicate',
        other: juan,
      });
      expect(await store.parties.edit('nope', maria)).toEqual({ ok: false, reason: 'missing' });
      await expect(store.parties.edit(saved.id, { ...maria, name: ' ' })).rejects.toThrow(RangeError);
    });

    it('edits on the revision read (optimistic concurrency): of 10 at once on two replicas, one applies; a booking in between counts as a change', async () => {
      const [a, b] = [await backend.open({ replicaId: 'a' }), await backend.open({ replicaId: 'b' })];
      const [saved] = await a.parties.save([maria]);
      if (!saved) throw new Error('not saved');
      const revision = partyRevision(saved);
      expect(partyRevision((await b.parties.get(saved.id)) as SavedParty)).toBe(revision);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).parties.edit(saved.id, { ...maria, street: `${i} Edited St` }, revision),
        ),
      );
      const applied = results.filter((r) => r.ok);
      expect(applied).toHaveLength(1);
      const now = (await a.parties.get(saved.id)) as SavedParty;
      expect(now.street).toBe(applied[0]?.ok && applied[0].party.street);
      for (const refused of results.filter((r) => !r.ok)) {
        expect(refused).toEqual({ ok: false, reason: 'changed', current: now });
      }
      // A booking saving new details of the party: an edit of the details read before does not undo them.
      const before = partyRevision(now);
      await b.parties.save([{ ...maria, email: 'new@example.com' }]);
      const late = await a.parties.edit(saved.id, { ...maria, city: 'Pasay' }, before);
      expect(late).toMatchObject({ ok: false, reason: 'changed', current: { email: 'new@example.com' } });
      // Used again with the same details: nothing changed, so the edit applies.
      const current = (await a.parties.get(saved.id)) as SavedParty;
      await b.parties.save([{ ...maria, email: 'new@example.com' }]);
      expect(
        await a.parties.edit(saved.id, { ...current, city: 'Pasay' }, partyRevision(current)),
      ).toMatchObject({
        ok: true,
        party: { city: 'Pasay', email: 'new@example.com' },
      });
    });

    it('deletes a party and the words it was found by', async () => {
      const store = await backend.open();
      const [saved] = await store.parties.save([maria]);
      expect(await store.parties.delete(saved?.id ?? '')).toBe(true);
      expect(await store.parties.delete(saved?.id ?? '')).toBe(false);
      expect(await store.parties.find('maria')).toEqual([]);
      expect(await backend.query('SELECT term FROM party_terms')).toEqual([]);
    });

    it('two replicas saving the same parties at once, in either order, leave one row each', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      const juan = party('Juan dela Cruz', '0917 000 1111', 'Quezon City');
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? a.parties.save([maria, juan])
            : b.parties.save([{ ...juan, name: 'juan DELA cruz' }, maria]),
        ),
      );
      const rows = await backend.query<{ name: string; uses: number }>('SELECT name, uses FROM parties');
      expect(rows.map((row) => Number(row.uses))).toEqual([20, 20]);
      expect((await a.parties.find('juan')).map((p) => p.uses)).toEqual([20]);
    });

    it("is saved with a booking's bookkeeping, or not at all", async () => {
      const store = await backend.open();
      await store.bookings.insert(bookingInput('WB000001'));
      const failed = store.transaction(async (tx) => {
        await tx.parties.save([maria]);
        await tx.bookings.insert(bookingInput('WB000001'));
      });
      await expect(failed).rejects.toThrow(DuplicateTrackingNumberError);
      expect(await store.parties.find('')).toEqual([]);
    });
  });

  describe('transactions', () => {
    it("commits a booking's bookkeeping together; nobody sees any of it before the commit", async () => {
      const store = await backend.open();
      await store.attempts.begin('book:d1:WB000001', 'book');
      const inside = gate();
      const entered = gate();
      const done = store.transaction(async (tx) => {
        await tx.bookings.insert(bookingInput('WB000001'));
        await tx.audit.record({ userId: 'U1', operation: 'book', trackingNumber: 'WB000001', outcome: 'ok' });
        await tx.attempts.finish('book:d1:WB000001', 'succeeded', { trackingRefNo: 'R1' });
        entered.release();
        await inside.released;
        return 'committed';
      });
      try {
        await entered.released;
        // Another connection, as another replica's: the last commit only.
        expect(await backend.query('SELECT tracking_number FROM bookings')).toEqual([]);
        expect(await backend.query('SELECT id FROM audit')).toEqual([]);
        expect(await backend.query('SELECT state FROM attempts')).toEqual([{ state: 'in-flight' }]);
      } finally {
        inside.release();
      }
      expect(await done).toBe('committed');
      const other = await backend.open();
      expect(await other.bookings.get('WB000001')).toMatchObject({ trackingRefNo: 'REF-WB000001' });
      expect(await other.audit.list({ trackingNumber: 'WB000001' })).toHaveLength(1);
      expect((await other.attempts.get('book:d1:WB000001'))?.state).toBe('succeeded');
    });

    it('rolls everything back when the function rejects', async () => {
      const store = await backend.open();
      await store.attempts.begin('k', 'book');
      await store.bookings.insert(bookingInput('WB000001'));
      const failed = store.transaction(async (tx) => {
        await tx.audit.record({ userId: 'U1', operation: 'book', outcome: 'ok' });
        await tx.attempts.finish('k', 'succeeded', 1);
        await tx.bookings.insert(bookingInput('WB000001')); // a duplicate: rejects
      });
      await expect(failed).rejects.toThrow(DuplicateTrackingNumberError);
      expect(await store.audit.list()).toEqual([]);
      expect((await store.attempts.get('k'))?.state).toBe('in-flight');
      // The store is still usable afterwards.
      expect(await store.trackingNumbers.next('WB')).toBe('WB000002');
    });

    it('an operation kept waiting past the timeout rejects with StoreUnavailableError', async () => {
      const holder = await backend.open();
      await holder.bookings.insert(bookingInput('WB000001'));
      const waiter = await backend.open({ statementTimeoutMs: 200, busyTimeoutMs: 200 });
      const hold = gate();
      const locked = gate();
      const holding = holder.transaction(async (tx) => {
        await tx.bookings.updateRecord('WB000001', 1, { locked: true }, 'U1');
        locked.release();
        await hold.released;
      });
      await locked.released;
      try {
        const waited = waiter.bookings.updateRecord('WB000001', 1, { waited: true }, 'U2');
        await expect(waited).rejects.toThrow(StoreUnavailableError);
      } finally {
        hold.release();
      }
      await holding;
      expect((await waiter.bookings.updateRecord('WB000001', 2, { after: true }, 'U2')).ok).toBe(true);
    });
  });

  describe('persistence and life cycle', () => {
    it('keeps everything across close and reopen', async () => {
      const clock = fakeClock();
      const before = await backend.open({ now: clock.now });
      const draft = await before.drafts.create({
        kind: 'booking',
        userId: 'U1',
        channelId: 'C1',
        data: { a: 1 },
      });
      await before.bookings.insert(bookingInput('WB000001'));
      await before.bookings.updateRecord('WB000001', 1, { changed: true }, 'U2');
      await before.bookings.setCard('WB000001', { cardChannelId: 'C2', cardTs: '9.9' });
      await before.attempts.begin('k', 'book', { trackingNumber: 'WB000001' });
      await before.attempts.finish('k', 'failed', { message: 'no' });
      await before.audit.record({
        userId: 'U1',
        operation: 'book',
        outcome: 'failed',
        trackingNumber: 'WB000001',
      });
      await before.trackingNumbers.reserve('WB000002');
      await before.deliveries.claim('trigger-1');
      const snapshot = {
        draft: await before.drafts.get(draft.id),
        booking: await before.bookings.get('WB000001'),
        attempt: await before.attempts.get('k'),
        audit: await before.audit.list(),
      };
      await before.close();
      await before.close(); // harmless

      const after = await backend.open({ now: clock.now });
      expect({
        draft: await after.drafts.get(draft.id),
        booking: await after.bookings.get('WB000001'),
        attempt: await after.attempts.get('k'),
        audit: await after.audit.list(),
      }).toEqual(snapshot);
      expect(await after.trackingNumbers.next('WB')).toBe('WB000003');
      expect(await after.deliveries.claim('trigger-1')).toBe(false);
    });

    it('answers a ping, has a replica id, and rejects calls once closed', async () => {
      const store = await backend.open();
      await store.ping();
      expect(store.replica.id).toMatch(/\S/);
      await store.close();
      await expect(store.drafts.get('x')).rejects.toThrow(StoreError);
      await expect(store.ping()).rejects.toThrow(/closed/);
      await expect(store.transaction(async () => 1)).rejects.toThrow(/closed/);
    });
  });
});
