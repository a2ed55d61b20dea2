/** Several bot processes on one PostgreSQL database, one fake Slack and one sandbox courier, for end-to-end tests. */

import { postToApp } from '../../fakes/post-to-app.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-fake.js';
import type { AppResponse, PostOptions } from '../../fakes/slack-requests.js';
import { throwawayDatabases, withClient } from '../../fakes/throwaway-databases.js';
import { exampleProfilesPath } from '../../src/waybill/profiles.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import { type ServingBot, startServingBot } from './bot-process.js';
import { type SlackDriver, slackDriver } from './slack-driver.js';

export const replicaSecrets = {
  botToken: 'xoxb-replicas-1111-SECRETBOTTOKEN',
  signingSecret: 'replicas-signing-SECRET-0123',
  upstreamToken: 'replicas-upstream-SECRET-42',
};

export interface Replica extends ServingBot {
  /** Its place in start order: 0, 1, 2… (a replacement gets a new one). */
  index: number;
  /** Requests it was sent. */
  served: number;
  alive: boolean;
}

export interface Replicas {
  fake: FakeSlack;
  sandbox: Sandbox;
  /** The database every replica uses. */
  url: string;
  /** Every replica started, dead ones included. */
  all: Replica[];
  /** The replicas still running, in start order. */
  live(): Replica[];
  /** Each request to the next live replica in turn (a round-robin balancer). */
  driver: SlackDriver;
  /** Every request to this replica. */
  on(replica: Replica): SlackDriver;
  /** Signs and sends one body: to `replica`, else to the next live one in turn. */
  post(body: string, options?: PostOptions, replica?: Replica): Promise<AppResponse>;
  /** Starts one more replica. */
  add(): Promise<Replica>;
  /** SIGKILL: no shutdown, its lease left to expire. */
  kill(replica: Replica): Promise<void>;
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Stops every replica (SIGTERM), the fake Slack and the sandbox, and drops the database. */
  close(): Promise<void>;
}

/** How long a stopping replica may take before it is killed. */
const STOP_MS = 5000;

/**
 * `count` replicas started together on a new, empty database (so they migrate it at once), in
 * HTTP mode, against the courier's "test" environment, which is this process's sandbox.
 */
export async function startReplicas(
  adminUrl: () => string,
  count: number,
  env: Record<string, string> = {},
): Promise<Replicas> {
  const databases = throwawayDatabases(adminUrl);
  const url = await databases.create();
  const fake = await startFakeSlack();
  const sandbox = await startSandbox({ token: replicaSecrets.upstreamToken });
  const all: Replica[] = [];
  const botEnv = {
    SLACK_BOT_TOKEN: replicaSecrets.botToken,
    SLACK_SIGNING_SECRET: replicaSecrets.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    WAYBILL_ENV: 'test',
    WAYBILL_TEST_BASE_URL: sandbox.baseUrl,
    WAYBILL_API_TOKEN: replicaSecrets.upstreamToken,
    WAYBILL_TIMEZONE: 'Asia/Manila',
    WAYBILL_TIMEOUT_MS: '10000',
    SENDER_PROFILES_FILE: exampleProfilesPath,
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    ...env,
  };
  const add = async () => {
    const replica: Replica = {
      ...(await startServingBot(botEnv)),
      index: all.length,
      served: 0,
      alive: true,
    };
    all.push(replica);
    return replica;
  };
  const live = () => all.filter((r) => r.alive);
  let turn = 0;
  const post = (body: string, options?: PostOptions, to?: Replica) => {
    const running = live();
    const replica = to ?? running[turn++ % running.length];
    if (!replica) throw new Error('no replica is running');
    replica.served += 1;
    return postToApp(`${replica.origin}/slack/events`, replicaSecrets.signingSecret, body, options);
  };
  const stop = async (replica: Replica, signal: NodeJS.Signals) => {
    if (!replica.alive) return;
    replica.alive = false;
    replica.proc.kill(signal);
    const bound = setTimeout(() => replica.proc.kill('SIGKILL'), STOP_MS);
    await replica.exited;
    clearTimeout(bound);
  };
  try {
    await Promise.all(Array.from({ length: count }, add));
  } catch (err) {
    await Promise.all(all.map((r) => stop(r, 'SIGKILL')));
    await Promise.all([fake.close(), sandbox.close()]);
    await databases.dropAll();
    throw err;
  }
  return {
    fake,
    sandbox,
    url,
    all,
    live,
    driver: slackDriver(fake, (body, options) => post(body, options)),
    on: (replica) => slackDriver(fake, (body, options) => post(body, options, replica)),
    post,
    add,
    kill: (replica) => stop(replica, 'SIGKILL'),
    query: <R>(text: string, params: unknown[] = []) =>
      withClient(url, async (client) => (await client.query(text, params)).rows as R[]),
    async close() {
      await Promise.all(all.map((r) => stop(r, 'SIGTERM')));
      await Promise.all([fake.close(), sandbox.close()]);
      await databases.dropAll();
    },
  };
}

/** Polls `check` every 50 ms until it gives something other than undefined; rejects with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
