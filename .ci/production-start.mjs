/**
 * CI, in a production install (`npm ci --omit=dev`, dist/ already built): `npm start` reaches the ready
 * line against a stand-in Slack Web API on loopback, then SIGTERM to npm (as a process manager sends it)
 * stops the bot and npm ends with 0.
 * Plain JavaScript without dependencies: the dev dependencies (tsx, the test support) are not installed.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const READY_WITHIN_MS = 15_000;
const STOP_WITHIN_MS = 10_000;

// auth.test is the only call made before the ready line.
const slack = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ ok: true, user_id: 'UCIBOT', bot_id: 'BCIBOT', team_id: 'TCI' }));
});
await new Promise((resolve) => slack.listen(0, '127.0.0.1', resolve));

const startedAt = performance.now();
const npm = spawn('npm', ['start'], {
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SLACK_BOT_TOKEN: 'xoxb-ci-production-start',
    SLACK_SIGNING_SECRET: 'ci-production-signing-secret',
    SLACK_API_URL: `http://127.0.0.1:${slack.address().port}/api/`,
    PORT: '0',
    DATABASE_PATH: ':memory:',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise((resolve) => npm.on('exit', (code, signal) => resolve(code ?? signal)));
/** The bot's own pid, from its ready line: npm and a shell stand between it and this script. */
let botPid;

const after = (ms, value) => new Promise((resolve) => setTimeout(resolve, ms, value).unref());

function fail(message) {
  process.stderr.write(`production start: ${message}\n`);
  for (const pid of [botPid, npm.pid].filter(Boolean)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(1);
}

const readyMs = await Promise.race([
  new Promise((resolve) =>
    createInterface({ input: npm.stdout }).on('line', (line) => {
      process.stdout.write(`${line}\n`);
      if (!line.includes('Waybill bot ready')) return;
      botPid = JSON.parse(line).pid;
      resolve(performance.now() - startedAt);
    }),
  ),
  exited.then((code) => `exited (${code})`),
  after(READY_WITHIN_MS, `not ready within ${READY_WITHIN_MS} ms`),
]);
if (typeof readyMs === 'string') fail(`npm start ${readyMs} before the ready line`);
process.stdout.write(
  `production start: ready ${Math.round(readyMs)} ms after npm start (${process.version})\n`,
);

npm.kill('SIGTERM');
const code = await Promise.race([exited, after(STOP_WITHIN_MS, 'no exit')]);
if (code !== 0) fail(`npm start ended with ${code} after SIGTERM to npm, expected 0`);
try {
  process.kill(botPid, 0);
  fail(`the bot (pid ${botPid}) outlived npm`);
} catch {
  // gone with npm, as it should be
}
slack.close();
