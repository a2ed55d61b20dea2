/** The whole bot in-process for tests, driven by signed requests, with fake Slack and the sandbox courier. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { App } from '@slack/bolt';
import { afterAll, expect, inject } from 'vitest';
import { postToApp } from '../../fakes/post-to-app.js';
import { startFakeSlack } from '../../fakes/slack-fake.js';
import { FAKE_TEAM_ID } from '../../fakes/slack-requests.js';
import { type SocketModeFake, startSocketModeFake } from '../../fakes/socket-mode-fake.js';
import { loadBotConfig, loadSlackConfig, loadWaybillConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { Metrics } from '../../src/metrics.js';
import { keepStore } from '../../src/operations/recovery.js';
import { RenderPool } from '../../src/render/pool.js';
import { tellAbandoned } from '../../src/slack/booking/index.js';
import { createBot } from '../../src/slack/bot.js';
import { type Core, createCore } from '../../src/slack/core.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createWaybillClient } from '../../src/waybill/client.js';
import { givenProfiles, type SenderProfile, senderProfiles } from '../../src/waybill/profiles.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import { migratedSqliteCopy, type TestBackend } from '../store/backends.js';
import { type Post, type SlackDriver, slackDriver, type View } from './slack-driver.js';

export type { View } from './slack-driver.js';

/**
 * The whole bot in-process, driven the way Slack drives it: signed HTTP requests into Bolt's
 * receiver, the Slack Web API faked at the network edge (slackApiUrl), and the courier sandbox over
 * real loopback HTTP. Every log line is kept, so tests can check no secret ever reached one.
 */

export const secrets = {
  botToken: 'xoxb-test-1111-2222-SECRETBOTTOKEN',
  signingSecret: 'signing-SECRET-0123456789abcdef',
  appToken: 'xapp-1-A0001-SECRETAPPTOKEN',
  upstreamToken: 'upstream-SECRET-token-42',
};

/** The input element of a form field on a view, by its schema path (block ids carry a `#rev` suffix). */
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
export function elementOf(view: View, path: string): any {
  return view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)
    ?.element;
}

/** The mrkdwn texts of a view (sections and contexts), joined: what the dispatcher reads. */
export const mrkdwnOf = (view: View): string =>
  view.blocks
    .flatMap((b) => [b.text?.text, ...(b.elements ?? []).map((e: { text?: string }) => e.text)])
    .filter((text): text is string => typeof text === 'string')
    .join('\n');

export interface TestBotOptions {
  env?: Record<string, string>;
  /** The store to use (the caller closes it): a file, to test restarts; a second replica's. */
  store?: Store;
  /** Without `store`: a store on this backend's database for the test; default a fresh SQLite file of the bot's own. */
  backend?: TestBackend;
  sandbox?: Sandbox;
  /** How often Home tabs may be redrawn (default: every 50 ms per person, 5 ms apart). */
  homeRefresh?: { perPersonMs: number; spacingMs: number };
  now?: () => Date;
  timeoutMs?: number;
  /** WebClient retries (default 0, so a failing call fails at once). */
  slackRetries?: number;
  /** How long a Web API call waits out 429s before the WebClient sees one (default as in production). */
  slackRateLimitWaitMs?: number;
  /** Receive over Socket Mode (an app-level token, the fake's WebSocket) instead of signed HTTP. */
  socketMode?: boolean;
  /** Bolt's own wait before it answers an unacknowledged request 404 (HTTP; default about 3 s). */
  unhandledRequestTimeoutMs?: number;
  /** A render pool the caller stops (see renderPoolPerFile); by default the bot starts its own and stops it. */
  render?: RenderPool;
  /** The sender profiles (default: as the bot loads them, the example ones in the sandbox). */
  profiles?: SenderProfile[];
}

export interface TestBot extends SlackDriver {
  /** Where requests go: the HTTP endpoint, or the Socket Mode WebSocket. */
  url: string;
  /** With `socketMode`: Slack's side of the connection. */
  socket?: SocketModeFake;
  app: App;
  sandbox: Sandbox;
  deps: Core;
  logs: string[];
  /**
   * One turn of what the running bot does every lease renewal: calls abandoned by replicas that
   * are gone recorded as outcome unknown and their dispatchers told (then idle, so they were).
   */
  lookAfterStore(): Promise<void>;
  /** Waits until every background task (upstream call, views.update, post) has finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export const fixedNow = new Date('2026-11-23T01:00:00Z');

/** A clock the test sets, from fixedNow: Manila wall-clock times of Monday 2026-11-23 and the days after. */
export function manilaClock() {
  let current = fixedNow.getTime();
  return {
    now: () => new Date(current),
    /** `day` 0 is 2026-11-23; `time` HH:MM in Manila (UTC+8). */
    set(day: number, time: string) {
      const [h = 0, m = 0] = time.split(':').map(Number);
      current = Date.UTC(2026, 10, 23 + day, h - 8, m);
    },
  };
}

// The worker as built for the run: it starts in a fraction of the time tsx takes over the sources.
const bundledRenderPool = () => new RenderPool({ script: join(inject('bundles'), 'render-worker.js') });

/**
 * One render pool for the bots of a test file, stopped after the file: a worker thread loads pdfkit, the
 * fonts and the barcode writer once (about half a second of CPU) instead of once a test. Call it at the top
 * of the file; pass `render: pool()` to startTestBot.
 */
export function renderPoolPerFile(): () => RenderPool {
  let pool: RenderPool | undefined;
  afterAll(() => pool?.stop());
  return () => (pool ??= bundledRenderPool());
}

export async function startTestBot(options: TestBotOptions = {}): Promise<TestBot> {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({ level: 'debug', destination, secrets: Object.values(secrets) });
  const fake = await startFakeSlack();
  const sandbox = options.sandbox ?? (await startSandbox({ token: secrets.upstreamToken }));
  const metrics = new Metrics();
  const courier = createWaybillClient({
    baseUrl: sandbox.baseUrl,
    token: secrets.upstreamToken,
    timeoutMs: options.timeoutMs ?? 3000,
    logger,
    retryBaseDelayMs: 1,
    observe: (operation) => metrics.courierCall(operation),
  });
  // A bot's own store, as a bot keeps its store in production: a file in a directory of its own.
  const own = options.store || options.backend ? undefined : migratedSqliteCopy();
  const store =
    options.store ??
    (own
      ? await openStore({ path: own.path, leaseRenewMs: 0 })
      : await (options.backend as TestBackend).open());
  const waybill = loadWaybillConfig({ WAYBILL_TIMEZONE: 'Asia/Manila', ...options.env });
  const socket = options.socketMode ? await startSocketModeFake() : undefined;
  if (socket) fake.respond('apps.connections.open', { ok: true, url: socket.url });
  const slack = loadSlackConfig({
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    ...(socket ? { SLACK_APP_TOKEN: secrets.appToken } : {}),
    ...options.env,
  });
  const botConfig = loadBotConfig(options.env ?? {});
  const profilesGiven = options.profiles;
  const deps = createCore({
    waybill,
    courier,
    store,
    logger,
    bot: botConfig,
    profiles: profilesGiven
      ? givenProfiles(profilesGiven)
      : senderProfiles(waybill.env, botConfig.senderProfilesFile),
    now: options.now ?? (() => fixedNow),
    // Home tabs are redrawn as in production, only sooner, so tests need not wait seconds.
    homeRefresh: options.homeRefresh ?? { perPersonMs: 50, spacingMs: 5 },
    metrics,
    render: options.render ?? bundledRenderPool(),
    teamId: FAKE_TEAM_ID,
  });
  const app = createBot({
    slack,
    deps,
    identity: { botId: 'BBOT', botUserId: 'UBOT' },
    processBeforeResponse: true,
    ...(options.unhandledRequestTimeoutMs
      ? { unhandledRequestTimeoutMs: options.unhandledRequestTimeoutMs }
      : {}),
    clientOptions: { retryConfig: { retries: options.slackRetries ?? 0, minTimeout: 0, maxTimeout: 0 } },
    ...(options.slackRateLimitWaitMs === undefined ? {} : { rateLimitWaitMs: options.slackRateLimitWaitMs }),
  });
  const server = socket ? undefined : ((await app.start({ port: 0, host: '127.0.0.1' })) as Server);
  if (socket) await app.start();
  // As the running bot does; its timer is far off, so a test takes each turn itself.
  const keeping = keepStore({
    store,
    logger,
    everyMs: 60 * 60_000,
    tell: async (abandoned) =>
      deps.inFlight.run('tell abandoned', () =>
        tellAbandoned(app.client, abandoned, { logger, env: waybill.env }),
      ),
  });
  const url = server
    ? `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`
    : (socket?.url ?? '');
  const post: Post = socket
    ? (body, postOptions) => socket.deliver(body, postOptions)
    : (body, postOptions) => postToApp(url, secrets.signingSecret, body, postOptions);

  const bot: TestBot = {
    ...slackDriver(fake, post),
    url,
    ...(socket ? { socket } : {}),
    app,
    sandbox,
    deps,
    logs,
    async lookAfterStore() {
      await keeping.turn();
      await deps.inFlight.idle();
    },
    idle: () => deps.inFlight.idle(),
    async stop() {
      await deps.inFlight.idle();
      // Every end-to-end test scans what the bot wrote: no secret in a log line or anything sent to Slack.
      const written = [
        ...logs,
        ...fake.calls.map((c) => c.rawBody),
        ...fake.responseUrlPosts.map((p) => p.rawBody),
      ];
      const leaks = written.filter((text) => Object.values(secrets).some((secret) => text.includes(secret)));
      expect(leaks, 'a secret reached a log line or Slack').toEqual([]);
      if (!options.render) await deps.render.stop();
      await keeping.stop();
      await app.stop();
      await socket?.close();
      await courier.close();
      if (!options.sandbox) await sandbox.close();
      // A backend's stores are closed by the backend, after the test.
      if (own) {
        await store.close();
        own.remove();
      }
      await fake.close();
    },
  };
  return bot;
}
