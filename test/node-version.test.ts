/**
 * `engines` read as npm does; on Node 22.12.0 (from the registry, below `engines`) the bot and `npm test`
 * stop with one line naming the Node they need, and `npm ci` refuses (`EBADENGINE`)
 */
// The Node versions of package.json's engines, held to: the bot started on an older Node says in one line which it needs (rather than dying of the SQLite driver's binary), and an install on one refuses.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack } from '../fakes/slack-fake.js';
import { satisfiesEngines } from '../src/node-version.js';
import { killStarted, spawnBot, within } from './support/bot-process.js';

const run = promisify(execFile);
const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines
  .node;
/** Node 22.12.0: the last 22 before Node-API 10, which the SQLite driver's binary needs. */
const OLD = 'v22.12.0';
let oldNodeBin = '';

beforeAll(async () => {
  // The release from the npm registry, as CI takes its Nodes (cached after the first time).
  const { stdout } = await run('.ci/node', [OLD.slice(1)]);
  oldNodeBin = join(stdout.trim(), 'bin');
}, 180_000);
afterEach(killStarted);

describe('engines', () => {
  it.each([
    ['v22.14.0', true],
    ['v22.23.3', true],
    ['v24.0.0', true],
    ['v24.11.1', true],
    ['v22.13.1', false],
    [OLD, false],
    ['v20.20.2', false],
    ['v23.11.0', false],
    ['v25.1.0', false],
  ])('%s satisfies package.json engines: %s', (version, expected) => {
    expect(satisfiesEngines(version, engines)).toBe(expected);
  });
});

describe('on a Node older than engines', () => {
  it('the bot stops with one line naming the Node it needs and the one running, exit 1', async () => {
    const slack = await startFakeSlack();
    try {
      const bot = spawnBot(
        {
          SLACK_BOT_TOKEN: 'xoxb-node-version-1',
          SLACK_SIGNING_SECRET: 'node-version-secret-2',
          SLACK_API_URL: slack.apiUrl,
          PORT: '0',
          DATABASE_PATH: ':memory:',
        },
        { node: join(oldNodeBin, 'node') },
      );
      expect(await within(30_000, 'the bot on an old Node', bot.exited)).toBe(1);
      expect(bot.lines).toEqual([
        `Cannot start: the bot needs Node ${engines} (package.json engines), and this is Node ${OLD}`,
      ]);
    } finally {
      await slack.close();
    }
  });

  it('npm test says in one line which Node it needs, exit 1, not a bare segmentation fault', async () => {
    const tested = run('npm', ['test', '--silent', '--', 'test/waybill/dates.unit.test.ts'], {
      env: { ...process.env, PATH: `${oldNodeBin}:${process.env.PATH}` },
    });
    const failure = await tested.then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split('\n')).toEqual([
      `The tests need Node ${engines} (package.json engines), and this is Node ${OLD}`,
    ]);
  });

  it('npm ci refuses to install, naming engines (engine-strict in .npmrc)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-old-node-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) cpSync(file, join(dir, file));
      const installed = run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        env: { ...process.env, PATH: `${oldNodeBin}:${process.env.PATH}` },
      });
      const failure = await installed.then(
        () => undefined,
        (err: { stderr: string }) => err.stderr,
      );
      expect(failure).toContain('EBADENGINE');
      expect(failure).toContain(`Required: {"node":"${engines}"}`);
      expect(failure).toContain(`Actual:   {"node":"${OLD}"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
