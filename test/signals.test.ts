/**
 * SIGTERM and SIGINT to `npm start`'s own pid (npm, then the bot): the bot stops gracefully, the courier call
 * in flight finishes, npm exits 0; `npm start --silent` prints JSON lines only on stdout.
 */
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postToApp } from '../fakes/post-to-app.js';
import { quoteCommandText, quoteTyped } from '../fakes/quote-values.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { killStarted, watchProcess } from './support/bot-process.js';
import { type ProjectCopy, projectCopy } from './support/project-copy.js';
import { slackDriver } from './support/slack-driver.js';

/**
 * `npm start` as a process manager or a container runs it: the signal goes to npm's pid, and the bot
 * (two processes further down before `exec`) stops gracefully, finishing the courier call in flight.
 */

const secrets = {
  SLACK_BOT_TOKEN: 'xoxb-signals-SECRET-1',
  SLACK_SIGNING_SECRET: 'signals-signing-SECRET-2',
};

let copy: ProjectCopy;
let fake: FakeSlack | undefined;
/** The bot's own pid: killed too if a failing test leaves it behind npm. */
let botPid: number | undefined;

beforeAll(async () => {
  copy = await projectCopy('linked');
});
afterAll(() => copy.remove());
afterEach(async () => {
  killStarted();
  try {
    if (botPid) process.kill(botPid, 'SIGKILL');
  } catch {
    // gone already
  }
  botPid = undefined;
  await fake?.close();
  fake = undefined;
});

/** `npm start` and `args` in the project copy, against the fake Slack, in HTTP mode on a free port. */
function npmStart(args: string[], env: Record<string, string> = {}) {
  return watchProcess(
    spawn('npm', ['start', ...args], {
      cwd: copy.dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...secrets,
        SLACK_API_URL: fake?.apiUrl ?? '',
        PORT: '0',
        DATABASE_PATH: ':memory:',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

it('`npm start --silent`, as the README runs it in production, prints JSON lines only on stdout', async () => {
  fake = await startFakeSlack();
  const npm = npmStart(['--silent']);
  botPid = JSON.parse(await npm.lineMatching((line) => line.includes('Waybill bot ready'))).pid;
  npm.proc.kill('SIGTERM');
  expect(await npm.exited).toBe(0);
  const stdout = npm.lines.filter((line) => !npm.stderr.includes(line));
  expect(stdout.length).toBeGreaterThan(2);
  for (const line of stdout) expect(() => JSON.parse(line), line).not.toThrow();
});

describe.each(['SIGTERM', 'SIGINT'] as const)('%s to npm start', (signal) => {
  it('stops the bot gracefully: the courier call in flight finishes, then npm exits 0', async () => {
    fake = await startFakeSlack();
    // The sandbox courier answers a quote after this long: the signal comes while it is asked.
    const npm = npmStart([], { WAYBILL_SANDBOX_LATENCY_MS: '1500' });
    const ready = JSON.parse(await npm.lineMatching((line) => line.includes('Waybill bot ready'))) as {
      port: number;
      pid: number;
    };
    botPid = ready.pid;
    expect(ready.pid).not.toBe(npm.proc.pid);
    const url = `http://127.0.0.1:${ready.port}/slack/events`;
    const driver = slackDriver(fake, (body, options) =>
      postToApp(url, secrets.SLACK_SIGNING_SECRET, body, options),
    );
    await driver.command('/quote', quoteCommandText);
    const form = await driver.openedView();
    expect((await driver.submit(form, quoteTyped)).status).toBe(200);

    npm.proc.kill(signal);
    await npm.lineMatching((line) => line.includes(`"signal":"${signal}"`) && line.includes('stopping'));
    expect(await npm.exited).toBe(0);
    const stopping = npm.lines.findIndex((line) => line.includes('stopping'));
    const courierCall = npm.lines.findIndex(
      (line) => line.includes('"operation":"quote"') && line.includes('"outcome":"ok"'),
    );
    expect(courierCall).toBeGreaterThan(stopping);
    expect(npm.lines.findIndex((line) => line.includes('"msg":"stopped"'))).toBeGreaterThan(courierCall);
    // The bot is gone with npm: its pid answers no more.
    expect(() => process.kill(ready.pid, 0)).toThrow();
    botPid = undefined;
  });
});
