/**
 * Every start-up failure as a real process, one line on stderr and exit 1 within a bound (a line per bad
 * setting, all at once): port taken, `PORT` and `HEALTH_PORT` the same, `DATABASE_PATH` under a file,
 * unwritable or under `/proc`, a token Slack refuses, `.env.example`'s placeholders, Slack refusing the
 * connection or never answering (and why a request got no answer, by its cause), `npm run sandbox`'s port
 * taken; the start-up check's retries logged as JSON.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { exampleValues } from '../src/slack/settings.js';
import { unreachableReason } from '../src/startup.js';
import {
  type BotProcess,
  closedPort,
  takenPort as listening,
  spawnBot,
  spawnBundle,
  within,
} from './support/bot-process.js';

/**
 * Every way start-up can fail ends the real process (src/app.ts, `npm run sandbox`) with one line on
 * stderr and exit code 1, promptly: never a process left running without a listener, never a stack.
 */

const secrets = { SLACK_BOT_TOKEN: 'xoxb-start-SECRET-1', SLACK_SIGNING_SECRET: 'start-signing-SECRET-2' };
/** Generous for a start on a loaded machine (and Slack unreachable retries twice); a hang never ends. */
const EXIT_WITHIN_MS = 12_000;
/** Slack's token check tries three times, 1 s then 2 s apart; each try waits at most 3 s for an answer. */
const REFUSED_WITHIN_MS = EXIT_WITHIN_MS + 3000;
const NEVER_ANSWERS_WITHIN_MS = REFUSED_WITHIN_MS + 3 * 3000;

/**
 * What one test starts (a fake Slack, bots, servers holding ports, read-only directories), undone when
 * it ends: the tests run at once, each waiting on its own processes.
 */
function startUp(onTestFinished: TestContext['onTestFinished']) {
  let fake: FakeSlack | undefined;
  const bots: BotProcess[] = [];
  const servers: Server[] = [];
  const readOnlyDirs: string[] = [];
  onTestFinished(async () => {
    for (const bot of bots) bot.proc.kill('SIGKILL');
    // Made writable again, so the temporary directory can be removed.
    for (const dir of readOnlyDirs) chmodSync(dir, 0o755);
    for (const server of servers) server.close();
    await fake?.close();
  });
  const started = (bot: BotProcess) => {
    bots.push(bot);
    return bot;
  };
  return {
    /** The fake Slack the bots of `env()` talk to. */
    async slack(): Promise<FakeSlack> {
      fake ??= await startFakeSlack();
      return fake;
    },
    async env(extra: Record<string, string> = {}): Promise<Record<string, string>> {
      return {
        ...secrets,
        SLACK_API_URL: (await this.slack()).apiUrl,
        PORT: '0',
        DATABASE_PATH: join(tempDir(), 'bot.sqlite'),
        ...extra,
      };
    },
    bot: (env: Record<string, string>, options?: Parameters<typeof spawnBot>[1]) =>
      started(spawnBot(env, options)),
    sandbox: (env: Record<string, string>) => started(spawnBundle('sandbox', env)),
    /** A port another server listens on until the test ends. */
    async takenPort(): Promise<number> {
      const { port, server } = await listening();
      servers.push(server);
      return port;
    },
    readOnlyDir(): string {
      const dir = tempDir();
      chmodSync(dir, 0o555);
      readOnlyDirs.push(dir);
      return dir;
    },
  };
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'waybill-start-'));

/** Exits 1 within the bound; returns its lines on stderr, none holding a secret. */
async function failsWith(run: BotProcess, exitWithinMs = EXIT_WITHIN_MS): Promise<string[]> {
  expect(await within(exitWithinMs, 'exit', run.exited)).toBe(1);
  for (const secret of Object.values(secrets)) expect(run.stderr.join('\n')).not.toContain(secret);
  return run.stderr;
}

/** Exits 1 within the bound, with exactly one line on stderr, which it returns. */
async function failsWithOneLine(run: BotProcess, exitWithinMs = EXIT_WITHIN_MS): Promise<string> {
  const lines = await failsWith(run, exitWithinMs);
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

/** Root may write anywhere: the permission cases run the bot as nobody then. */
const asUnprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe.concurrent('start-up failures', () => {
  it('PORT already in use', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const port = await run.takenPort();
    const line = await failsWithOneLine(run.bot(await run.env({ PORT: String(port) })));
    expect(line).toBe(`Cannot start: PORT ${port} is already in use: set PORT to a free port`);
  });

  it('HEALTH_PORT already in use', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const port = await run.takenPort();
    const line = await failsWithOneLine(run.bot(await run.env({ HEALTH_PORT: String(port) })));
    expect(line).toBe(`Cannot start: HEALTH_PORT ${port} is already in use: set HEALTH_PORT to a free port`);
  });

  it('PORT and HEALTH_PORT the same free port: a configuration error naming both', async ({
    onTestFinished,
  }) => {
    const run = startUp(onTestFinished);
    const port = String(await closedPort());
    const line = await failsWithOneLine(run.bot(await run.env({ PORT: port, HEALTH_PORT: port })));
    expect(line).toBe(
      `Configuration error: HEALTH_PORT must differ from PORT (both ${port}): in HTTP mode Slack's requests arrive on PORT, and the probes and /metrics need a port of their own`,
    );
  });

  it('DATABASE_PATH whose parent is a file', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, '');
    const paths = [join(file, 'bot.sqlite'), join(file, 'more', 'bot.sqlite')];
    const lines = await Promise.all(
      paths.map(async (path) => failsWithOneLine(run.bot(await run.env({ DATABASE_PATH: path })))),
    );
    expect(lines).toEqual(
      paths.map(
        (path) => `Cannot start: DATABASE_PATH ${path} cannot be used: ${file} is a file, not a directory`,
      ),
    );
  });

  it('DATABASE_PATH in a directory it cannot create, or in a read-only directory', async ({
    onTestFinished,
  }) => {
    const run = startUp(onTestFinished);
    const readOnly = run.readOnlyDir();
    const cannotCreate = join(readOnly, 'data', 'bot.sqlite');
    const inReadOnly = join(readOnly, 'bot.sqlite');
    const [created, written] = await Promise.all(
      [cannotCreate, inReadOnly].map(async (path) =>
        failsWithOneLine(run.bot(await run.env({ DATABASE_PATH: path }), asUnprivileged)),
      ),
    );
    expect(created).toBe(
      `Cannot start: DATABASE_PATH ${cannotCreate} cannot be used: this user may not create or write ${join(readOnly, 'data')}`,
    );
    expect(written).toBe(
      `Cannot start: DATABASE_PATH ${inReadOnly} cannot be used: this user may not create or write ${readOnly}`,
    );
  });

  it('DATABASE_PATH under /proc, where a recursive mkdir never ends', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const path = '/proc/waybill-bot/data/bot.sqlite';
    const line = await failsWithOneLine(run.bot(await run.env({ DATABASE_PATH: path })));
    expect(line).toBe(
      `Cannot start: DATABASE_PATH ${path} cannot be used: the directory /proc/waybill-bot cannot be created (ENOENT)`,
    );
  });

  it('every bad setting at once, a line each, before asking Slack anything', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const env = await run.env({ WAYBILL_TIMEOUT_MS: 'abc', PORT: '99999', DATABASE_POOL_SIZE: 'many' });
    expect(await failsWith(run.bot(env))).toEqual([
      'Configuration error: WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
      'Configuration error: PORT must be a port number between 0 and 65535',
      'Configuration error: DATABASE_POOL_SIZE must be a whole number of connections between 1 and 100',
    ]);
    expect((await run.slack()).calls).toEqual([]);
  });

  it('SLACK_BOT_TOKEN refused by Slack', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const env = await run.env();
    (await run.slack()).respond('auth.test', { ok: false, error: 'invalid_auth' });
    const line = await failsWithOneLine(run.bot(env));
    expect(line).toBe(
      'Configuration error: SLACK_BOT_TOKEN was refused by Slack (invalid_auth): copy the Bot User OAuth Token again (OAuth & Permissions)',
    );
  });

  it('SLACK_APP_TOKEN refused by Slack', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const env = await run.env({ SLACK_APP_TOKEN: 'xapp-start-SECRET-3' });
    const fake = await run.slack();
    fake.respond('apps.connections.open', { ok: false, error: 'invalid_auth' });
    const line = await failsWithOneLine(run.bot(env));
    expect(line).toMatch(/^Configuration error: SLACK_APP_TOKEN was refused by Slack \(invalid_auth\): /);
    expect(line).not.toContain(env.SLACK_APP_TOKEN);
    expect(fake.calls.map((call) => call.method)).toEqual(['auth.test', 'apps.connections.open']);
  });

  it('the values .env.example ships with, before asking Slack anything', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const env = await run.env({
      SLACK_BOT_TOKEN: exampleValues.SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET: exampleValues.SLACK_SIGNING_SECRET,
      SLACK_APP_TOKEN: exampleValues.SLACK_APP_TOKEN,
    });
    const line = await failsWithOneLine(run.bot(env));
    expect(line).toContain(
      'SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET and SLACK_APP_TOKEN still hold the placeholders of .env.example: you copied .env.example but did not fill them in',
    );
    expect((await run.slack()).calls).toEqual([]);
  });

  it(
    'Slack refusing the connection: not a configuration error, and said so',
    async ({ onTestFinished }) => {
      const run = startUp(onTestFinished);
      const apiUrl = `http://127.0.0.1:${await closedPort()}/api/`;
      const line = await failsWithOneLine(
        run.bot(await run.env({ SLACK_API_URL: apiUrl })),
        REFUSED_WITHIN_MS,
      );
      expect(line).toBe(
        `Cannot start: Slack (${apiUrl}) could not be reached to check SLACK_BOT_TOKEN: the connection was refused (ECONNREFUSED): nothing listens there`,
      );
    },
    REFUSED_WITHIN_MS + 5000,
  );

  it(
    'Slack taking the connection and never answering: each try ends, and the line says so',
    async ({ onTestFinished }) => {
      const run = startUp(onTestFinished);
      const apiUrl = `http://127.0.0.1:${await run.takenPort()}/api/`;
      const line = await failsWithOneLine(
        run.bot(await run.env({ SLACK_API_URL: apiUrl })),
        NEVER_ANSWERS_WITHIN_MS,
      );
      expect(line).toBe(
        `Cannot start: Slack (${apiUrl}) could not be reached to check SLACK_BOT_TOKEN: no answer within 3 s`,
      );
    },
    NEVER_ANSWERS_WITHIN_MS + 5000,
  );

  it('the start-up check of the bot token logs its retries through the logger, as JSON', async ({
    onTestFinished,
  }) => {
    const run = startUp(onTestFinished);
    const env = await run.env();
    const fake = await run.slack();
    fake.respond('auth.test', { status: 500 }, { times: 1 });
    const bot = run.bot(env);
    await within(
      EXIT_WITHIN_MS,
      'ready',
      bot.lineMatching((line) => line.includes('Waybill bot ready')),
    );
    expect(fake.calls.filter((call) => call.method === 'auth.test')).toHaveLength(2);
    expect(bot.stderr).toEqual([]);
    for (const line of bot.lines) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('shows the stack too with LOG_LEVEL=debug', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const port = await run.takenPort();
    const bot = run.bot(await run.env({ PORT: String(port), LOG_LEVEL: 'debug' }));
    expect(await within(EXIT_WITHIN_MS, 'exit', bot.exited)).toBe(1);
    expect(bot.stderr[0]).toBe(`Cannot start: PORT ${port} is already in use: set PORT to a free port`);
    expect(bot.stderr.slice(1).some((line) => /^\s+at /.test(line))).toBe(true);
  });

  it('npm run sandbox: SANDBOX_PORT already in use', async ({ onTestFinished }) => {
    const run = startUp(onTestFinished);
    const port = await run.takenPort();
    const line = await failsWithOneLine(run.sandbox({ SANDBOX_PORT: String(port) }));
    expect(line).toBe(
      `Cannot start: SANDBOX_PORT ${port} is already in use: set SANDBOX_PORT to a free port`,
    );
  });
});

describe('why a request got no answer', () => {
  /** fetch's failure as a client wraps it: the system's error under "fetch failed". */
  const failed = (code: string) => ({
    original: new TypeError('fetch failed', {
      cause: Object.assign(new Error(`getaddrinfo ${code} slack.example`), { code, syscall: 'getaddrinfo' }),
    }),
  });

  it.each([
    ['ENOTFOUND', 'its host name was not found (ENOTFOUND)'],
    ['EAI_AGAIN', 'its host name could not be looked up now: DNS did not answer (EAI_AGAIN)'],
    ['ECONNRESET', 'the connection was cut (ECONNRESET)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'the connection timed out (UND_ERR_CONNECT_TIMEOUT)'],
  ])('%s: %s', (code, reason) => {
    expect(unreachableReason(failed(code), 3000)).toBe(reason);
  });

  it('anything else: the deepest message, not "fetch failed"', () => {
    expect(unreachableReason(failed('EHOSTUNREACH'), 3000)).toBe('getaddrinfo EHOSTUNREACH slack.example');
  });
});

describe('.env.example', () => {
  it('ships the placeholder values the bot recognises', () => {
    const text = readFileSync('.env.example', 'utf8');
    for (const [name, value] of Object.entries(exampleValues)) {
      expect(text).toMatch(new RegExp(`^#? ?${name}=${value}$`, 'm'));
    }
  });
});
