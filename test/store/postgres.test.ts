/**
 * PostgreSQL unreachable at start, lost and back, connections terminated, not answering (a connection that
 * does not open, a statement nobody answers); a busy pool waited for; passwords masked.
 */
// PostgreSQL faults: unreachable at start, lost while running, connections killed, a busy pool; passwords never shown.

import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore, redactUrl, StoreError, StoreUnavailableError } from '../../src/store/index.js';
import { describeEachBackend } from './backends.js';
import { proxyDatabase, type TcpProxy } from './tcp-proxy.js';

const PASSWORD = 'pw-Secret-4711';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** No part of the password: not its first few characters either. */
function expectNoPassword(text: string) {
  expect(text).not.toContain(PASSWORD.slice(0, 4));
}

describe('redactUrl', () => {
  it('masks the password whole, in the user-info part and in a password parameter', () => {
    expect(redactUrl(`postgres://bot:${PASSWORD}@db.internal:5432/waybill`)).toBe(
      'postgres://bot:***@db.internal:5432/waybill',
    );
    expect(redactUrl(`postgres://bot@db/waybill?sslmode=require&password=${PASSWORD}`)).toBe(
      'postgres://bot@db/waybill?sslmode=require&password=***',
    );
    expect(redactUrl('postgres://bot@db/waybill')).toBe('postgres://bot@db/waybill');
    expect(redactUrl(`postgres://bot:${encodeURIComponent('p@ss:w/rd')}@db/waybill`)).toBe(
      'postgres://bot:***@db/waybill',
    );
  });

  it('masks all before the host when the password has an unencoded /, ? or #, which a URL reader misplaces', () => {
    expect(redactUrl('postgres://waybill:p@ss/w#rd@db:5432/waybill')).toBe('postgres://***@db:5432/waybill');
    expect(redactUrl('postgres://waybill:pa?ss@db/waybill')).toBe('postgres://***@db/waybill');
  });

  it('masks by pattern what is not a URL at all', () => {
    expect(redactUrl(`postgres://bot:${PASSWORD}@[bad/waybill`)).toBe('postgres://bot:***@[bad/waybill');
  });
});

describe('PostgreSQL unreachable at start', () => {
  it('rejects with one line naming the database, password masked', async () => {
    const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${await closedPort()}/waybill`;
    const failure = (await openStore({ url, connectTimeoutMs: 2000 }).catch((err: unknown) => err)) as Error;
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect(failure.message).toMatch(
      /^Cannot reach the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/waybill: .*ECONNREFUSED/,
    );
    expect(failure.message).not.toContain('\n');
    expectNoPassword(failure.message);
  });

  it('refuses a URL that is not PostgreSQL, or not a URL', async () => {
    await expect(openStore({ url: 'mysql://db/waybill' })).rejects.toThrow(/postgres:\/\//);
    const failure = (await openStore({ url: `postgres://bot:${PASSWORD}@[bad/x` }).catch(
      (err: Error) => err,
    )) as Error;
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure.message).toMatch(/not a valid URL/);
    expectNoPassword(failure.message);
  });
});

describeEachBackend(
  import.meta.filename,
  'PostgreSQL faults',
  (backend) => {
    let proxy: TcpProxy | undefined;
    afterEach(async () => {
      await proxy?.close();
      proxy = undefined;
    });

    it('the pool reconnects by itself after its connections were terminated', async () => {
      const store = await backend.open();
      await store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: 1 });
      const killed = await backend.query<{ pid: number }>(
        `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      expect(killed.length).toBeGreaterThan(0);
      expect(await store.trackingNumbers.next('WB')).toBe('WB000001');
      await store.ping();
    });

    it('a busy pool: calls wait their turn past the connect timeout and succeed; the wait has its own bound', async () => {
      const connectTimeoutMs = 100;
      const poolWaitMs = 30_000;
      const store = await backend.open({ poolSize: 2, connectTimeoutMs, poolWaitMs });
      /** Both connections taken, each by a transaction that holds it until `free` is called. */
      const holdBoth = async () => {
        let free = () => {};
        const freed = new Promise<void>((resolve) => {
          free = resolve;
        });
        const inside: Promise<void>[] = [];
        const holders = [1, 2].map((n) => {
          let entered = () => {};
          inside.push(new Promise<void>((resolve) => (entered = resolve)));
          return store.transaction(async (tx) => {
            await tx.drafts.create({ kind: 'quote', userId: `UHOLD${n}`, channelId: 'C1', data: n });
            entered();
            await freed;
          });
        });
        await Promise.all(inside);
        return async () => {
          free();
          await Promise.all(holders);
        };
      };
      /** Moves the pool's clock by `ms`, a turn of the event loop at a time, so calls just made have queued. */
      const pass = async (ms: number) => {
        for (let step = 0; step < 10; step += 1) {
          await new Promise((resolve) => setImmediate(resolve));
          await vi.advanceTimersByTimeAsync(ms / 10);
        }
      };

      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let release = await holdBoth();
        const queued = Array.from({ length: 6 }, (_, n) =>
          store.drafts.create({ kind: 'quote', userId: `UQ${n}`, channelId: 'C1', data: n }),
        );
        const settled = Promise.allSettled(queued);
        await pass(connectTimeoutMs * 20);
        await release();
        expect((await settled).map((outcome) => outcome.status)).toEqual(Array(6).fill('fulfilled'));
        expect(await backend.query('SELECT 1 FROM drafts')).toHaveLength(8);

        // A pool that stays busy for longer than the wait: the plain failure, as for a database away.
        release = await holdBoth();
        const late = store.drafts.create({ kind: 'quote', userId: 'ULATE', channelId: 'C1', data: 0 });
        const failure = late.catch((err: unknown) => err);
        await pass(poolWaitMs + connectTimeoutMs);
        expect(await failure).toBeInstanceOf(StoreUnavailableError);
        expect(((await failure) as Error).message).toBe(
          `The database did not answer: all 2 connections stayed in use for ${poolWaitMs} ms`,
        );
        await release();
      } finally {
        vi.useRealTimers();
      }
      await store.ping();
    });

    it('a database that stops answering: calls fail within its timeouts, not the pool wait, and work once it is back', async () => {
      const proxied = await proxyDatabase((backend.target() as { url: string }).url);
      proxy = proxied.proxy;
      const connectTimeoutMs = 300;
      const statementTimeoutMs = 300;
      const store = await backend.open({
        url: proxied.url.toString(),
        poolSize: 2,
        connectTimeoutMs,
        statementTimeoutMs,
        poolWaitMs: 60_000,
      });
      await store.ping();

      await proxy.silence();
      const started = Date.now();
      const failures = await Promise.all(
        Array.from({ length: 4 }, () =>
          store.ping().then(
            () => new Error('answered'),
            (err: Error) => err,
          ),
        ),
      );
      const elapsed = Date.now() - started;
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(StoreUnavailableError);
        expect(failure.message).toMatch(/^The database did not answer: /);
      }
      // One went to the open connection, which no longer answers; the others waited for new ones.
      const said = failures.map((failure) => failure.message);
      expect(said).toContain(
        `The database did not answer: no answer to a statement within ${statementTimeoutMs + connectTimeoutMs} ms`,
      );
      expect(said).toContain(
        `The database did not answer: no connection opened within ${connectTimeoutMs} ms`,
      );
      // Four calls on two connections: a few rounds of those timeouts, far from the minute's wait.
      expect(elapsed).toBeGreaterThanOrEqual(connectTimeoutMs);
      expect(elapsed).toBeLessThan(10 * connectTimeoutMs);

      await proxy.restore();
      await store.ping();
    });

    it('a transaction whose statement got no answer sends nothing more, on that connection or another', async () => {
      const proxied = await proxyDatabase((backend.target() as { url: string }).url);
      proxy = proxied.proxy;
      const store = await backend.open({
        url: proxied.url.toString(),
        connectTimeoutMs: 200,
        statementTimeoutMs: 200,
      });
      const draft = (userId: string) => ({ kind: 'quote', userId, channelId: 'C1', data: 1 });
      const outcome = await store
        .transaction(async (tx) => {
          await tx.drafts.create(draft('UBEFORE'));
          await proxy?.silence();
          await tx.drafts.create(draft('UUNANSWERED')).catch(() => undefined);
          await proxy?.restore();
          await tx.drafts.create(draft('UAFTER'));
        })
        .catch((err: unknown) => err);
      expect(outcome).toBeInstanceOf(StoreUnavailableError);
      expect(await backend.query('SELECT user_id FROM drafts')).toEqual([]);
      await store.ping();
    });

    it('lost while running: calls reject with StoreUnavailableError, and work again once it is back', async () => {
      const proxied = await proxyDatabase((backend.target() as { url: string }).url);
      proxy = proxied.proxy;
      const viaProxy = proxied.url;
      viaProxy.password = PASSWORD;
      const store = await backend.open({ url: viaProxy.toString(), connectTimeoutMs: 2000 });
      expect(store.location).toBe(redactUrl(viaProxy.toString()));
      expectNoPassword(store.location);
      await store.attempts.begin('k1', 'book');

      await proxy.cut();
      const failure = (await store.attempts.begin('k2', 'book').catch((err: unknown) => err)) as Error;
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect(failure.message).toMatch(/^The database did not answer: /);
      expectNoPassword(failure.message);
      await expect(store.ping()).rejects.toThrow(StoreUnavailableError);

      await proxy.restore();
      expect(await store.attempts.begin('k2', 'book')).toEqual({ started: true });
      expect((await store.attempts.get('k1'))?.state).toBe('in-flight');
    });
  },
  ['postgres'],
);
