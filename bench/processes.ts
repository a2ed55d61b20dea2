/** The processes of a bench run: the bot or bare Bolt under test, and the load process that drives them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secrets } from './fixtures.js';
import {
  epochMs,
  freePort,
  type LoadJob,
  type LoadReport,
  type LoadResult,
  type Memory,
  type MemoryByPart,
  readMemory,
  readMemoryByPart,
  repoRoot,
  sleep,
  spawnTs,
  stopChild,
  waitHealthy,
} from './lib.js';

/** Caps: a request, a load job, a process's start. */
const REQUEST_TIMEOUT_MS = 15_000;
const LOAD_DEADLINE_MS = 30_000;
const START_TIMEOUT_MS = 20_000;

export interface Target {
  name: string;
  /** One per replica: the load process sends to them in turn. */
  urls: string[];
}

export async function runLoad(target: Target, requests: LoadJob['requests']): Promise<LoadReport> {
  const job: LoadJob = {
    urls: target.urls,
    signingSecret: secrets.signingSecret,
    requests,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    deadlineMs: LOAD_DEADLINE_MS,
  };
  const child = spawnTs(join(repoRoot, 'bench/load.ts'), { env: process.env });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin?.end(JSON.stringify(job));
  // The load process stops itself at its deadline; this is the backstop.
  const killer = setTimeout(() => child.kill('SIGKILL'), LOAD_DEADLINE_MS + 15_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(killer);
  if (code !== 0) {
    throw new Error(
      `load process exited with ${code}: ${Buffer.concat(stderr).toString('utf8').slice(-2000)}`,
    );
  }
  return JSON.parse(Buffer.concat(stdout).toString('utf8')) as LoadReport;
}

const mb = (mem: Memory | undefined, field: keyof Memory) =>
  mem ? Math.round(((mem[field] * 1024 * 1024) / 1e6) * 10) / 10 : Number.NaN;

export interface Started {
  pid: number;
  child: ReturnType<typeof spawnTs>;
  /** The port it serves on, and its Events API address there. */
  port: number;
  url: string;
  /** The bot's /metrics, on HEALTH_PORT (the bot serves it nowhere else). */
  metricsUrl: string;
  startupMs: number;
  idleRssMB: number;
  /** The idle RSS by part (the bench's breakdown against bare Bolt's). */
  idleMemory?: MemoryByPart;
  logFile: string;
}

/** Idle memory is read this long after the process was started, as issue 46 measures it. */
const IDLE_AFTER_MS = 5000;

/** Another port is tried when the one chosen was taken in between (an outgoing connection may take it). */
const START_ATTEMPTS = 5;

/**
 * `script` serving on a free port (`envFor` gives its environment for that port), once /healthz
 * answers. A port taken between choosing and binding it is retried with another; any other early
 * exit fails at once with the end of the process's log.
 */
export async function startProcess(
  script: string,
  envFor: (port: number) => NodeJS.ProcessEnv,
  logFile: string,
  {
    idle = true,
  }: { /** Whether to wait until idle memory is read (5 s after the spawn). */ idle?: boolean } = {},
): Promise<Started> {
  // The bot gets the node options `npm start` gives it. And e.g.
  // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the processes under test.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const asStarted = script === 'dist/app.js';
  for (let attempt = 1; ; attempt += 1) {
    const [port, healthPort] = [await freePort(), await freePort()];
    const spawnedAt = epochMs();
    const env = { HEALTH_PORT: String(healthPort), ...envFor(port) };
    const child = spawnTs(join(repoRoot, script), { env, logFile, nodeArgs, asStarted });
    live.add(child);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // 'close': its output has all been read by then.
    const exited = new Promise<undefined>((resolve) => child.once('close', () => resolve(undefined)));
    const startupMs = await Promise.race([
      waitHealthy(`http://127.0.0.1:${port}/healthz`, spawnedAt, START_TIMEOUT_MS),
      exited,
    ]);
    if (startupMs !== undefined && child.pid !== undefined) {
      child.stdout?.off('data', keep);
      child.stderr?.off('data', keep);
      if (idle) await sleep(Math.max(0, spawnedAt + IDLE_AFTER_MS - epochMs()));
      return {
        pid: child.pid,
        child,
        port,
        url: `http://127.0.0.1:${port}/slack/events`,
        metricsUrl: `http://127.0.0.1:${healthPort}/metrics`,
        startupMs: Math.round(startupMs),
        idleRssMB: mb(readMemory(child.pid), 'rssMiB'),
        idleMemory: readMemoryByPart(child.pid),
        logFile,
      };
    }
    await stopChild(child, 2000);
    live.delete(child);
    if (attempt < START_ATTEMPTS && /already in use/.test(output)) {
      log(`${script}: port ${port} was taken meanwhile, another one tried`);
      continue;
    }
    throw new Error(`${script} did not answer /healthz within ${START_TIMEOUT_MS} ms:\n${tail(logFile)}`);
  }
}

export async function stopProcess(started: Started, graceMs: number) {
  const peakRssMB = mb(readMemory(started.pid), 'hwmMiB');
  const exit = await stopChild(started.child, graceMs);
  live.delete(started.child);
  const lines = readFileSync(started.logFile, 'utf8').split('\n');
  const warnOrErrorLogLines = lines.filter((l) => /"level":(40|50|60)|\b(WARN|ERROR)\b/.test(l)).length;
  // The line src/slack/guards/store-faults.ts logs each time a dispatcher is told the database is not answering.
  const toldDatabaseDown = lines.filter((l) =>
    l.includes('the database did not answer: the dispatcher was told'),
  ).length;
  return { peakRssMB, exit, warnOrErrorLogLines, toldDatabaseDown };
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

export const live = new Set<ReturnType<typeof spawnTs>>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function botEnv(
  port: number,
  database: Record<string, string>,
  latencyMs: number,
  apiUrl: string,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_APP_TOKEN: '',
    SLACK_API_URL: apiUrl,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...database,
    WAYBILL_ENV: 'sandbox',
    WAYBILL_TIMEZONE: 'UTC',
    WAYBILL_SANDBOX_LATENCY_MS: String(latencyMs),
    WAYBILL_TIMEOUT_MS: String(Math.max(15_000, latencyMs * 2)),
    AUDIT_CHANNEL_ID: '',
    SENDER_PROFILES_FILE: '',
  };
}

export async function waitUntil(done: () => boolean, capMs: number): Promise<boolean> {
  const until = epochMs() + capMs;
  while (epochMs() < until) {
    if (done()) return true;
    await sleep(50);
  }
  return done();
}

/** The acks of the requests answered 200. */
export const okAcks = (results: LoadResult[]) =>
  results.flatMap((r) => (r.status === 200 && r.latencyMs !== null ? [r.latencyMs] : []));

/**
 * Bursts sent one after another while `running()` (at most 60): the results of those that ended before
 * it stopped, so each was acknowledged while the work ran; with `begun`, of those begun before it
 * stopped (a burst held up until the work was done counts).
 */
export async function burstsWhile(
  target: Target,
  burst: (round: number) => LoadJob['requests'],
  running: () => boolean,
  { begun = false } = {},
): Promise<LoadResult[]> {
  const during: LoadResult[] = [];
  for (let round = 0; running() && round < 60; round++) {
    const load = await runLoad(target, burst(round));
    if (begun || running()) during.push(...load.results);
  }
  return during;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
