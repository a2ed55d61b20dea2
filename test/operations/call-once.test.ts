/**
 * CallOnce on SQLite and PostgreSQL with the sandbox courier: done (the record step, the attempt and the
 * audit entry together), failed (a refusal, a 429 rate-limited), unknown (a timeout), the database briefly
 * away (waited for, told once) or never answering (unrecorded); the same key twice calls the courier once.
 */
// callOnce against a real store (SQLite, PostgreSQL) and the real sandbox courier over loopback: each tagged result, recorded once.
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { beginAttempt, bookingAttempt } from '../../src/operations/attempts.js';
import { type Call, callOnce, type OperationDeps } from '../../src/operations/call-once.js';
import type { Store } from '../../src/store/index.js';
import { createWaybillClient, type WaybillClient } from '../../src/waybill/client.js';
import type { BookingResult } from '../../src/waybill/responses.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import { describeEachBackend } from '../store/backends.js';
import { sampleBooking } from '../support/wire-samples.js';

const TOKEN = 'call-once-token';
const who = { userId: 'UDISPATCH', channelId: 'CDISPATCH' };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());

function courier(timeoutMs = 2_000): WaybillClient {
  return createWaybillClient({
    baseUrl: sandbox.baseUrl,
    token: TOKEN,
    timeoutMs,
    logger: pino({ level: 'silent' }),
  });
}

/** An operation's deps on this store, with whose work changed kept. */
function depsOf(store: Store, client = courier()) {
  const changed: string[] = [];
  const deps: OperationDeps = {
    store,
    courier: client,
    logger: pino({ level: 'silent' }),
    now: () => new Date('2030-03-14T02:00:00Z'),
    activity: { changed: (userId) => changed.push(userId) },
  };
  return { deps, changed };
}

/** A booking attempt begun on the store, and a call of it whose record step creates a draft (to see it in the same transaction). */
async function begunBooking(store: Store, overrides: Partial<Call<BookingResult, string>> = {}) {
  const request = sampleBooking();
  const attempt = bookingAttempt('draft-1', request);
  const begun = await beginAttempt(store, attempt, who);
  expect(begun.started).toBe(true);
  const call: Call<BookingResult, string> = {
    attempt,
    userId: who.userId,
    request,
    send: (client) => client.book(request),
    succeeded: (answer) => ({ trackingRefNo: answer.trackingRefNo }),
    record: async (tx, answer) => {
      const draft = await tx.drafts.create({ kind: 'booking', ...who, data: answer.trackingRefNo });
      return draft.id;
    },
    ...overrides,
  };
  return { request, attempt, call };
}

const booksOf = (trackingNumber: string) =>
  sandbox.received.filter(
    (r) =>
      r.operation === 'book' && (r.body as { trackingNumber?: string }).trackingNumber === trackingNumber,
  );

describeEachBackend(import.meta.filename, 'callOnce', (backend) => {
  it('done: the courier called once; the record step, the attempt and the audit entry stored together', async () => {
    const store = await backend.open();
    const { deps, changed } = depsOf(store);
    const { request, attempt, call } = await begunBooking(store);
    const result = await callOnce(deps, call);
    if (result.state !== 'done') throw new Error(`expected done, got ${result.state}`);
    expect(booksOf(request.trackingNumber)).toHaveLength(1);
    expect((await store.drafts.get(result.recorded))?.data).toBe(result.answer.trackingRefNo);
    expect(await store.attempts.get(attempt.key)).toMatchObject({
      state: 'succeeded',
      result: { trackingRefNo: result.answer.trackingRefNo },
    });
    const audit = await store.audit.list({ trackingNumber: request.trackingNumber });
    expect(audit.map((entry) => [entry.operation, entry.outcome])).toEqual([['book', 'ok']]);
    expect(changed).toEqual([who.userId]);
  });

  it('the same key twice: the second begin is refused with the first outcome, so the courier is called once', async () => {
    const store = await backend.open();
    const { deps } = depsOf(store);
    const { request, attempt, call } = await begunBooking(store);
    await callOnce(deps, call);
    const again = await beginAttempt(store, attempt, who);
    expect(again).toMatchObject({ started: false, attempt: { key: attempt.key, state: 'succeeded' } });
    expect(booksOf(request.trackingNumber)).toHaveLength(1);
  });

  it('failed: a refusal is written to the attempt and the audit trail, nothing recorded; a 429 says rateLimited', async () => {
    const store = await backend.open();
    const { deps, changed } = depsOf(store);
    const refused = await begunBooking(store);
    sandbox.injectNext({ status: 400 });
    const result = await callOnce(deps, refused.call);
    expect(result).toMatchObject({ state: 'failed' });
    expect(result).not.toHaveProperty('rateLimited');
    expect(await store.attempts.get(refused.attempt.key)).toMatchObject({
      state: 'failed',
      result: { message: expect.any(String) },
    });
    const audit = await store.audit.list({ trackingNumber: refused.request.trackingNumber });
    expect(audit.map((entry) => entry.outcome)).toEqual(['failed']);
    expect(await store.drafts.listOpen({ userId: who.userId, kind: 'booking', limit: 5 })).toEqual([]);
    const slowed = await begunBooking(store);
    sandbox.injectNext({ status: 429, retryAfter: '2' });
    expect(await callOnce(deps, slowed.call)).toMatchObject({
      state: 'failed',
      rateLimited: { retryAfterMs: 2000 },
    });
    expect(changed).toEqual([]);
  });

  it('unknown: a courier that does not answer in time is outcome unknown, recorded, never sent again', async () => {
    const store = await backend.open();
    const { deps } = depsOf(store, courier(300));
    const { request, attempt, call } = await begunBooking(store);
    let answer = () => {};
    sandbox.injectNext({ holdUntil: new Promise<void>((resolve) => (answer = resolve)) });
    const result = await callOnce(deps, call);
    answer();
    expect(result).toMatchObject({
      state: 'unknown',
      message: expect.stringMatching(/^Booking outcome unknown/),
    });
    expect(await store.attempts.get(attempt.key)).toMatchObject({ state: 'unknown' });
    expect(
      (await store.audit.list({ trackingNumber: request.trackingNumber })).map((e) => e.outcome),
    ).toEqual(['unknown']);
    expect((await beginAttempt(store, attempt, who, { again: 'failed' })).started).toBe(false);
    expect(booksOf(request.trackingNumber)).toHaveLength(1);
  });
});

describeEachBackend(
  import.meta.filename,
  'callOnce with the database away',
  (backend) => {
    /** A store of one connection, which `hold()` keeps in a transaction until `free()`: every other caller waits, then gives up. */
    async function heldStore() {
      const store = await backend.open({ poolSize: 1, poolWaitMs: 200 });
      let free = () => {};
      let holder: Promise<void> = Promise.resolve();
      const hold = () =>
        new Promise<void>((entered) => {
          holder = store.transaction(async () => {
            entered();
            await new Promise<void>((resolve) => {
              free = resolve;
            });
          });
        });
      const release = async () => {
        free();
        await holder;
      };
      return { store, hold, free: release };
    }

    it('briefly away: waited for, `waiting` told once with the answer, then recorded', async () => {
      const { store, hold, free } = await heldStore();
      const { deps } = depsOf(store);
      const told: string[] = [];
      const { attempt, call } = await begunBooking(store, {
        waiting: async (answer) => {
          told.push(answer.trackingRefNo);
          await free();
        },
      });
      await hold();
      const result = await callOnce(deps, call);
      if (result.state !== 'done') throw new Error(`expected done, got ${result.state}`);
      expect(told).toEqual([result.answer.trackingRefNo]);
      expect(await store.attempts.get(attempt.key)).toMatchObject({ state: 'succeeded' });
    });

    it('never answers: unrecorded, with the courier answer kept for the dispatcher', async () => {
      const { store, hold, free } = await heldStore();
      const { deps, changed } = depsOf(store);
      const { request, attempt, call } = await begunBooking(store, { withinMs: 600 });
      await hold();
      const result = await callOnce(deps, call);
      await free();
      expect(result).toMatchObject({ state: 'unrecorded', answer: { trackingRefNo: expect.any(String) } });
      expect(await store.attempts.get(attempt.key)).toMatchObject({ state: 'in-flight' });
      expect(booksOf(request.trackingNumber)).toHaveLength(1);
      expect(changed).toEqual([]);
    });
  },
  ['postgres'],
);
