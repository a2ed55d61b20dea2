/**
 * Shared by the benchmark's processes: clocks, percentiles, child processes and /proc memory.
 * Kept free of the bot's own modules so the load generator and the bare Bolt app stay small.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes on one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------------------------------------
// What the orchestrator tells the load process (stdin JSON) and what it answers (stdout JSON)
// ---------------------------------------------------------------------------------------------------------

export interface LoadJob {
  /**
   * e.g. http://127.0.0.1:PORT/slack/events (loopback only). Several: request i goes to
   * urls[i % urls.length], a round-robin balancer in front of several replicas.
   */
  urls: string[];
  signingSecret: string;
  /** Raw bodies (a form, or an event's JSON), all sent at once; each is signed just before it is sent. */
  requests: { key: string; body: string }[];
  /** A request not answered by then is given up and counted as an error. */
  requestTimeoutMs: number;
  /** The whole job stops by then, whatever is still open. */
  deadlineMs: number;
}

export interface LoadResult {
  key: string;
  /** epochMs() just before the request was written. */
  sentAt: number;
  /** Until the whole answer was read; null when there was none. */
  latencyMs: number | null;
  status: number | null;
  /** `response_action` of a JSON answer (view submissions), if any. */
  responseAction?: string;
  error?: string;
}

export interface LoadReport {
  startedAt: number;
  finishedAt: number;
  results: LoadResult[];
}

// ---------------------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------------------

/** One of the targets: the figure measured, and whether it is met (null: not measured in this run). */
export interface TargetCheck {
  target: string;
  figure: string;
  met: boolean | null;
  /** Issue 46's budget: a miss fails `--check` in a run that is not a smoke run. */
  budget?: true;
}

export interface Summary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** The middle value, or the mean of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((sum, v) => sum + v, 0) / sorted.length : null;
  return {
    count: sorted.length,
    p50: round1(percentile(sorted, 50)),
    p95: round1(percentile(sorted, 95)),
    p99: round1(percentile(sorted, 99)),
    max: round1(sorted.at(-1) ?? null),
    mean: round1(mean),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------------------

/** A free loopback port (closed again at once; the child binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `node SCRIPT` (with `--import tsx` for a .ts script) with this very node binary, so the child's
 * pid is the process that serves (no npx/tsx wrapper in between) and /proc/<pid>/status is its memory.
 */
export function spawnTs(
  script: string,
  options: { env: NodeJS.ProcessEnv; logFile?: string; nodeArgs?: string[]; asStarted?: boolean },
): ChildProcess {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const args = [...(options.nodeArgs ?? []), ...loader, script];
  // With `asStarted`, through the script `npm start` runs node with (its options added; it execs node,
  // so the child's pid is node's); `node` is then the first on the child's PATH.
  const [command, argv] = options.asStarted
    ? ['sh', [join(repoRoot, 'scripts/node.sh'), ...args]]
    : [process.execPath, args];
  const child = spawn(command, argv, { cwd: repoRoot, env: options.env, stdio: 'pipe' });
  if (options.logFile) {
    const log = createWriteStream(options.logFile);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  return child;
}

/** Resolves with the exit code (or signal) once the child has exited. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. Only ever this child, by its pid. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null) return exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited(child);
  } finally {
    clearTimeout(timer);
  }
}

export interface Memory {
  /** Resident set now, MiB. */
  rssMiB: number;
  /** Highest resident set so far (VmHWM), MiB. */
  hwmMiB: number;
}

/** A file of a live process under /proc; undefined once it is gone. */
function procFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** KiB in MiB, to a tenth. */
const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;

/** VmRSS and VmHWM of a live process, from /proc; undefined once it is gone. */
export function readMemory(pid: number): Memory | undefined {
  const text = procFile(pid, 'status');
  if (text === undefined) return undefined;
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMiB: mib(kib('VmRSS')), hwmMiB: mib(kib('VmHWM')) };
}

/** Where a process's resident memory lives, in MB: what each part of the address space holds. */
export interface MemoryByPart {
  /** The node binary's pages read so far: its code, and the runtime's date, number and text data (ICU). */
  node: number;
  /** Anonymous mappings: the V8 heap (code and objects), thread stacks. */
  v8: number;
  /** malloc's heap: native allocations (SQLite's, ICU's objects, buffers' backing stores). */
  native: number;
  /** Native addons (`*.node`), such as the SQLite driver. */
  addons: number;
  /** Shared libraries and anything else. */
  other: number;
}

/** `pid`'s resident memory by part (/proc/<pid>/smaps); undefined once it is gone. */
export function readMemoryByPart(pid: number): MemoryByPart | undefined {
  const text = procFile(pid, 'smaps');
  if (text === undefined) return undefined;
  const kib: MemoryByPart = { node: 0, v8: 0, native: 0, addons: 0, other: 0 };
  let part: keyof MemoryByPart = 'other';
  for (const line of text.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const path = mapping[1] ?? '';
      part =
        path === ''
          ? 'v8'
          : path === '[heap]'
            ? 'native'
            : path.endsWith('.node')
              ? 'addons'
              : path === process.execPath
                ? 'node'
                : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kib[part] += Number(rss[1]);
  }
  return {
    node: mib(kib.node),
    v8: mib(kib.v8),
    native: mib(kib.native),
    addons: mib(kib.addons),
    other: mib(kib.other),
  };
}

/** CPU time a process has used so far (user + system), in ms; undefined once it is gone. */
export function readCpuMs(pid: number): number | undefined {
  const text = procFile(pid, 'stat');
  if (text === undefined) return undefined;
  // Fields after the command name (which may hold spaces), from field 3: utime and stime are 14 and 15.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  // Linux counts in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on.
  return ticks * 10;
}

/** CPU time a set of live processes has used so far, in ms; NaN once any is gone. */
export const cpuMsOfAll = (pids: readonly number[]) =>
  pids.reduce((sum, pid) => sum + (readCpuMs(pid) ?? Number.NaN), 0);

/** Polls GET url every 10 ms until it answers 200; the time it took, or undefined after `timeoutMs`. */
export async function waitHealthy(
  url: string,
  since: number,
  timeoutMs: number,
): Promise<number | undefined> {
  while (epochMs() - since < timeoutMs) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(500) });
      await response.arrayBuffer();
      if (response.status === 200) return epochMs() - since;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  return undefined;
}

/** The slowest query's p99 on each backend, as `check` weighs it against its target. */
export function slowestQueryTargets<
  R extends { backend: 'sqlite' | 'postgres'; query: string; p99Ms: number },
>(rows: readonly R[], check: (worst: R) => Pick<TargetCheck, 'target' | 'met'>): TargetCheck[] {
  return (['sqlite', 'postgres'] as const).flatMap((backend) => {
    const mine = rows.filter((r) => r.backend === backend);
    if (mine.length === 0) return [];
    const worst = mine.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
    return [
      { ...check(worst), figure: `${Math.round(worst.p99Ms * 10) / 10} ms (${JSON.stringify(worst.query)})` },
    ];
  });
}
