/**
 * The real entry point as a child process: sandbox notice, SIGTERM exit 0 (also with a client still sending),
 * a call abandoned by the last run reported at start-up, a bulk file stopped mid-way finished at the next
 * start (SQLite), start-up errors (PostgreSQL unreachable included)
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postToApp } from '../fakes/post-to-app.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { slashCommandBody } from '../fakes/slack-requests.js';
import { beginAttempt, updateAttempt } from '../src/operations/attempts.js';
import { openStore } from '../src/store/index.js';
import { closedPort, killStarted, spawnBot } from './support/bot-process.js';
import { bulkFile, bulkRow } from './support/bulk-file.js';
import { until } from './support/replicas.js';
import { checkedImport, slackDriver } from './support/slack-driver.js';
import { sampleUpdate } from './support/wire-samples.js';

/** The real entry point (what `npm start` runs), as a child process, against a fake Slack Web API. */

const secrets = { SLACK_BOT_TOKEN: 'xoxb-proc-SECRET-1', SLACK_SIGNING_SECRET: 'proc-signing-SECRET-2' };

let fake: FakeSlack | undefined;

afterEach(async () => {
  killStarted();
  await fake?.close();
  fake = undefined;
});

/** The bot in HTTP mode against a fake Slack, once it says it is ready (its port is in that line). */
async function startServing(env: Record<string, string> = {}, dotEnv?: string) {
  fake = await startFakeSlack();
  const bot = spawnBot(
    {
      ...secrets,
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'waybill-proc-')), 'bot.sqlite'),
      ...env,
    },
    dotEnv === undefined ? {} : { dotEnv },
  );
  const ready = JSON.parse(await bot.lineMatching((line) => line.includes('Waybill bot ready')));
  return { bot, slack: fake, ready: ready as { port: number; msg: string } };
}

describe('npm start', () => {
  it('runs against the sandbox, says so first, serves Slack, and stops cleanly on SIGTERM', async () => {
    const { bot, slack, ready } = await startServing();
    expect(JSON.parse(bot.lines[0] ?? '{}').msg).toContain('SANDBOX');
    expect(ready.msg).toContain(`:${ready.port}/slack/events`);
    expect(ready.msg).toContain('type /quote in Slack');
    const url = `http://127.0.0.1:${ready.port}`;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const body = slashCommandBody({ command: '/quote', fake: slack });
    expect((await postToApp(`${url}/slack/events`, secrets.SLACK_SIGNING_SECRET, body)).status).toBe(200);
    const opened = await slack.waitFor('views.open');
    expect(JSON.stringify(opened.body.view)).toContain('Sandbox');

    bot.proc.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(bot.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    const leaked = bot.lines.filter((line) => Object.values(secrets).some((secret) => line.includes(secret)));
    expect(leaked).toEqual([]);
  });

  it('at start-up records a call left in flight as outcome unknown, with its waybill, and tells its dispatcher', async () => {
    fake = await startFakeSlack();
    const path = join(mkdtempSync(join(tmpdir(), 'waybill-proc-')), 'bot.sqlite');
    const before = await openStore({ path, leaseRenewMs: 0 });
    // Made from a modal that is gone by now: the dispatcher is told in the conversation instead.
    await beginAttempt(before, updateAttempt('draft-1', 3, sampleUpdate('WB000001')), {
      userId: 'UDISPATCH',
      channelId: 'CDISPATCH',
      viewId: 'VCLOSED',
    });
    await before.close();
    fake.respond('views.update', { ok: false, error: 'not_found' });
    const bot = spawnBot({ ...secrets, SLACK_API_URL: fake.apiUrl, PORT: '0', DATABASE_PATH: path });
    // Start-up is bounded on its own (a busy machine); then the dispatcher is told.
    await bot.lineMatching((line) => line.includes('Waybill bot ready'));
    const told = await fake.waitFor('chat.postEphemeral');
    expect(fake.callsTo('views.update').map((call) => call.body.view_id)).toEqual(['VCLOSED']);
    expect(told.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
    expect(String(told.body.text)).toContain('update of `WB000001`');
    expect(String(told.body.text)).toContain('outcome unknown');
    bot.proc.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const after = await openStore({ path, leaseRenewMs: 0 });
    expect(await after.audit.list({ operation: 'update' })).toMatchObject([
      { outcome: 'unknown', trackingNumber: 'WB000001', userId: 'UDISPATCH' },
    ]);
    await after.close();
  });

  it('SQLite: a bulk file the bot stopped in the middle of is finished at its next start, each row booked once, one card', async () => {
    fake = await startFakeSlack();
    const slack = fake;
    const env = {
      ...secrets,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'waybill-proc-')), 'bot.sqlite'),
      WAYBILL_SANDBOX_LATENCY_MS: '100',
      BULK_CONCURRENCY: '2',
    };
    const serve = async () => {
      const bot = spawnBot(env);
      const ready = JSON.parse(await bot.lineMatching((line) => line.includes('Waybill bot ready')));
      return { bot, url: `http://127.0.0.1:${ready.port}/slack/events` };
    };
    let running = await serve();
    const driver = slackDriver(slack, (body, options) =>
      postToApp(running.url, secrets.SLACK_SIGNING_SECRET, body, options),
    );
    const rows = Array.from({ length: 30 }, (_, i) =>
      bulkRow(`Receiver ${i + 1}`, { phone: `0917 123 ${4000 + i}` }),
    );
    const file = slack.addFile({ name: 'orders.csv', content: bulkFile(...rows) });
    const summary = await checkedImport(driver, file.id);
    await driver.submit(summary);
    const booked = async () => {
      const store = await openStore({ path: env.DATABASE_PATH, leaseRenewMs: 0 });
      try {
        return (await store.audit.list({ operation: 'book' })).filter((entry) => entry.outcome === 'ok');
      } finally {
        await store.close();
      }
    };
    await until('a few rows booked', async () => ((await booked()).length >= 4 ? true : undefined), 20_000);
    running.bot.proc.kill('SIGTERM');
    expect(await running.bot.exited).toBe(0);
    const atStop = (await booked()).length;
    expect(atStop).toBeLessThan(30);
    expect(slack.uploadsCompleted()).toEqual([]);
    await slack.waitFor('views.update', (call) => JSON.stringify(call.body.view).includes('is stopping'));

    running = await serve();
    await until('the results file', () => (slack.uploadsCompleted().length > 0 ? true : undefined), 30_000);
    const results =
      slack
        .uploadsCompleted()[0]
        ?.text.split('\r\n')
        .filter((line) => /^\d/.test(line)) ?? [];
    expect(results).toHaveLength(30);
    for (const line of results) expect(line).toContain(',booked,');
    const entries = await booked();
    expect(entries).toHaveLength(30);
    expect(new Set(entries.map((entry) => entry.trackingNumber)).size).toBe(30);
    expect(
      slack.callsTo('chat.postMessage').filter((call) => JSON.stringify(call.body).includes('Bulk booking')),
    ).toHaveLength(1);
    running.bot.proc.kill('SIGTERM');
    expect(await running.bot.exited).toBe(0);
  }, 60_000);

  it('exits promptly on SIGTERM while a client is still sending a request, a byte a second', async () => {
    const { bot, ready } = await startServing();
    const socket = connect(ready.port, '127.0.0.1');
    const answered = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))));
    const closed = once(socket, 'close');
    // Unsigned, and its body never completes; `Expect: 100-continue` makes the server say it has the headers.
    socket.write(
      'POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(await answered).toContain('100 Continue');
    const drip = setInterval(() => socket.write('a'), 1000);
    let bound: NodeJS.Timeout | undefined;
    try {
      const signalled = performance.now();
      bot.proc.kill('SIGTERM');
      const stillRunning = new Promise<string>((resolve) => {
        bound = setTimeout(() => resolve('still running after 8 s'), 8000);
      });
      expect(await Promise.race([bot.exited, stillRunning])).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(5000);
      await closed;
    } finally {
      clearTimeout(bound);
      clearInterval(drip);
      socket.destroy();
    }
  });

  it('stops with one clear line per bad setting', async () => {
    const bot = spawnBot({ ...secrets, WAYBILL_ENV: 'live' });
    expect(await bot.exited).toBe(1);
    expect(bot.lines).toEqual([
      'Configuration error: WAYBILL_LIVE_BASE_URL must be set when WAYBILL_ENV=live',
      'Configuration error: WAYBILL_API_TOKEN must be set when WAYBILL_ENV=live',
    ]);
  });

  it('stops with one line naming DATABASE_URL, password masked, when PostgreSQL cannot be reached', async () => {
    fake = await startFakeSlack();
    const port = await closedPort();
    const bot = spawnBot({
      ...secrets,
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      DATABASE_URL: `postgres://bot:db-SECRET-pw@127.0.0.1:${port}/waybill`,
    });
    expect(await bot.exited).toBe(1);
    const named = bot.lines.filter((line) => line.includes('DATABASE_URL'));
    expect(named).toEqual([
      `Cannot start: DATABASE_URL: Cannot reach the database postgres://bot:***@127.0.0.1:${port}/waybill: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(bot.lines.at(-1)).toBe(named[0]);
    expect(bot.lines.filter((line) => line.includes('db-SECRET-pw'))).toEqual([]);
  });

  it('reads a .env in its working directory, and what the environment sets wins over it', async () => {
    fake = await startFakeSlack();
    // Each value would change what starts: the live courier with no address for it, Socket Mode.
    const dotEnv = 'WAYBILL_ENV=live\nSLACK_APP_TOKEN=xapp-1-BOGUS\n';
    const live = spawnBot({ ...secrets, SLACK_API_URL: fake.apiUrl, PORT: '0' }, { dotEnv });
    expect(await live.exited).toBe(1);
    expect(live.lines.at(-1)).toContain('WAYBILL_ENV=live');
    const { bot, ready } = await startServing({ WAYBILL_ENV: 'sandbox', SLACK_APP_TOKEN: '' }, dotEnv);
    expect(JSON.parse(bot.lines[0] ?? '{}').msg).toContain('SANDBOX');
    expect(ready).toMatchObject({ mode: 'http' });
    bot.proc.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });

  it('names the Slack settings it needs when they are missing', async () => {
    const bot = spawnBot({});
    expect(await bot.exited).toBe(1);
    expect(bot.lines).toHaveLength(1);
    expect(bot.lines[0]).toContain('SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must be set');
  });
});
