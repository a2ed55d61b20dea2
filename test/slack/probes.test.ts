/**
 * The probes in both modes: live, ready (the database, the receiver or the Socket Mode connection: not ready
 * while it reconnects), 503 while stopping; `/metrics` only on `HEALTH_PORT` (the entry point in HTTP mode
 * with and without it); the entry point in Socket Mode with `HEALTH_PORT`, SIGTERM with a call in flight.
 */
// The probes in both modes: liveness, readiness (the database and Slack's connection or the receiver), 503 while stopping; /metrics only on HEALTH_PORT; the real entry point in both modes.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-fake.js';
import { type SocketModeFake, startSocketModeFake } from '../../fakes/socket-mode-fake.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';
import { killStarted, spawnBot, startServingBot } from '../support/bot-process.js';
import { slackDriver } from '../support/slack-driver.js';

let bot: TestBot | undefined;
let server: Server | undefined;
let fake: FakeSlack | undefined;
let socket: SocketModeFake | undefined;

afterEach(async () => {
  killStarted();
  server?.close();
  await bot?.stop();
  await socket?.close();
  await fake?.close();
  [bot, server, fake, socket] = [undefined, undefined, undefined, undefined];
});

const probe = async (origin: string, path: string) => {
  const response = await fetch(`${origin}${path}`);
  return `${response.status} ${await response.text()}`;
};

/** Polls a probe until it answers `expected`, for at most `ms`. */
async function probeUntil(origin: string, path: string, expected: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  let said = '';
  while (performance.now() < deadline) {
    said = await probe(origin, path).catch((err: Error) => err.message);
    if (said === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} said ${said}, not ${expected}, within ${ms} ms`);
}

describe('HTTP mode: the probes on the receiver', () => {
  it('live and ready while the database answers; not ready without it; both 503 once stopping', async () => {
    bot = await startTestBot();
    const origin = new URL(bot.url).origin;
    expect(await probe(origin, '/livez')).toBe('200 ok');
    expect(await probe(origin, '/readyz')).toBe('200 ok');
    expect(await probe(origin, '/healthz')).toBe('200 ok');
    expect((await fetch(`${origin}/metrics`)).status).toBe(404);

    await bot.deps.store.close();
    expect(await probe(origin, '/readyz')).toBe('503 database unavailable');
    expect(await probe(origin, '/livez')).toBe('200 ok');
    bot.deps.probes.stop();
    expect(await probe(origin, '/livez')).toBe('503 stopping');
    expect(await probe(origin, '/readyz')).toBe('503 stopping');
  });
});

describe('HTTP mode, the entry point: /metrics only on HEALTH_PORT, never on the port Slack reaches', () => {
  it('with HEALTH_PORT: the probes on both ports, /metrics on HEALTH_PORT only; without it: the probes on PORT, no /metrics', async () => {
    fake = await startFakeSlack();
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-metrics-SECRET-1',
      SLACK_SIGNING_SECRET: 'metrics-signing-SECRET-2',
      SLACK_API_URL: fake.apiUrl,
      DATABASE_PATH: ':memory:',
    };
    const [withHealthPort, withoutHealthPort] = await Promise.all([
      startServingBot({ ...env, HEALTH_PORT: '0' }),
      startServingBot(env),
    ]);
    const ready = JSON.parse(
      await withHealthPort.lineMatching((line) => line.includes('Waybill bot ready')),
    ) as { mode: string; healthPort: number };
    expect(ready.mode).toBe('http');
    const healthOrigin = `http://127.0.0.1:${ready.healthPort}`;
    const scraped = await probe(healthOrigin, '/metrics');
    expect(scraped).toMatch(/^200 .*waybill_slack_requests_total/s);
    // The memory after each start-up step, for the bench's breakdown: each step's RSS at least Node's own.
    for (const step of [
      'modules loaded, settings read',
      'store open, Slack answered',
      'listeners registered, receiving',
    ]) {
      const rss = new RegExp(`waybill_startup_memory_bytes\\{step="${step}",kind="rss"\\} (\\d+)`).exec(
        scraped,
      );
      expect(Number(rss?.[1]), step).toBeGreaterThan(20 * 1024 * 1024);
    }
    // And when each step ended: in the order they run.
    const endedAt = [
      'modules loaded, settings read',
      'store open, Slack answered',
      'listeners registered, receiving',
    ].map((step) =>
      Number(new RegExp(`waybill_startup_seconds\\{step="${step}"\\} (\\S+)`).exec(scraped)?.[1]),
    );
    expect(endedAt[0]).toBeGreaterThan(0);
    expect(endedAt).toEqual([...endedAt].sort((a, b) => a - b));
    for (const origin of [healthOrigin, withHealthPort.origin, withoutHealthPort.origin])
      expect(await probe(origin, '/readyz')).toBe('200 ok');
    for (const origin of [withHealthPort.origin, withoutHealthPort.origin])
      expect((await fetch(`${origin}/metrics`)).status).toBe(404);
  });
});

describe('Socket Mode: the probes on a listener of their own', () => {
  it('ready while the WebSocket is open: not while it reconnects, ready again after', async () => {
    bot = await startTestBot({ socketMode: true });
    server = await bot.deps.probes.listen(0);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await probe(origin, '/livez')).toBe('200 ok');
    expect(await probe(origin, '/readyz')).toBe('200 ok');
    expect(await probe(origin, '/metrics')).toMatch(/^200 .*process_cpu_seconds_total/s);
    // Slack asks for a new connection; the client waits a few seconds before it opens one.
    bot.socket?.disconnect('refresh_requested');
    await probeUntil(origin, '/readyz', '503 slack not connected');
    expect(await probe(origin, '/livez')).toBe('200 ok');
    await probeUntil(origin, '/readyz', '200 ok');
  });

  it('the entry point with HEALTH_PORT: probes and /metrics answer; on SIGTERM both say 503 until the call in flight is done', async () => {
    fake = await startFakeSlack();
    socket = await startSocketModeFake();
    fake.respond('apps.connections.open', { ok: true, url: socket.url });
    const secrets = {
      SLACK_BOT_TOKEN: 'xoxb-probes-SECRET-1',
      SLACK_SIGNING_SECRET: 'probes-signing-SECRET-2',
    };
    const running = spawnBot({
      ...secrets,
      SLACK_APP_TOKEN: 'xapp-probes-SECRET-3',
      SLACK_API_URL: fake.apiUrl,
      HEALTH_PORT: '0',
      DATABASE_PATH: ':memory:',
      WAYBILL_SANDBOX_LATENCY_MS: '2000',
    });
    const ready = JSON.parse(await running.lineMatching((line) => line.includes('Waybill bot ready'))) as {
      mode: string;
      healthPort: number;
    };
    expect(ready.mode).toBe('socket');
    const origin = `http://127.0.0.1:${ready.healthPort}`;
    expect(await probe(origin, '/livez')).toBe('200 ok');
    expect(await probe(origin, '/readyz')).toBe('200 ok');
    expect(await probe(origin, '/metrics')).toMatch(/waybill_slack_requests_total/);

    const connected = socket;
    const driver = slackDriver(fake, (body, options) => connected.deliver(body, options));
    await driver.command('/quote', quoteCommandText);
    await driver.submit(await driver.openedView(), quoteTyped);
    running.proc.kill('SIGTERM');
    await running.lineMatching((line) => line.includes('stopping'));
    expect(await probe(origin, '/readyz')).toBe('503 stopping');
    expect(await probe(origin, '/livez')).toBe('503 stopping');
    expect(await running.exited).toBe(0);
    const courierCall = running.lines.findIndex((line) => line.includes('"operation":"quote"'));
    expect(courierCall).toBeGreaterThan(running.lines.findIndex((line) => line.includes('stopping')));
  });
});
