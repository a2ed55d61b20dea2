/** The real entry points (what `npm start` and `npm run sandbox` run) as child processes: their output lines, their exit, their readiness; and ports for them. */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';

export interface BotProcess {
  proc: ChildProcess;
  /** Every line it wrote, stdout and stderr, in order. */
  lines: string[];
  /** The lines it wrote on stderr. */
  stderr: string[];
  /** Its exit code (null when a signal ended it), once all its output has been read. */
  exited: Promise<number | null>;
  /** The first line passing `test`, already written or still to come; rejects after `timeoutMs` (default 15 s). */
  lineMatching(test: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

const started = new Set<ChildProcess>();

/** Kills every process started here that is still running (for afterEach). */
export function killStarted(): void {
  for (const proc of started) proc.kill('SIGKILL');
  started.clear();
}

/**
 * An empty working directory of its own for a child, readable by all (one test runs the bot as an
 * unprivileged user): the developer's `.env` in the checkout, which the bot reads from its working
 * directory, never reaches a test's bot. Removed when the child has ended.
 */
export function emptyWorkingDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-cwd-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** A child process's lines, exit and readiness; it is killed by killStarted(). */
export function watchProcess(proc: ChildProcess): BotProcess {
  started.add(proc);
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  for (const stream of [proc.stdout, proc.stderr]) {
    createInterface({ input: stream as NodeJS.ReadableStream }).on('line', (line) => {
      lines.push(line);
      if (stream === proc.stderr) stderr.push(line);
      for (const waiter of waiters.filter((w) => w.test(line))) waiter.resolve(line);
    });
  }
  const exited = new Promise<number | null>((resolve) =>
    proc.on('close', (code) => {
      started.delete(proc);
      resolve(code);
    }),
  );
  const lineMatching = (test: (line: string) => boolean, timeoutMs = 15_000) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        reject(
          new Error(`no such line within ${timeoutMs} ms; the last ones:\n${lines.slice(-10).join('\n')}`),
        );
      }, timeoutMs);
      waiters.push({
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  return { proc, lines, stderr, exited, lineMatching };
}

/**
 * An entry point as `npm run build` bundles it (test/support/bundles.ts), with only this environment
 * (and PATH, HOME), in an empty working directory (holding only `dotEnv` as `.env`, when given), on
 * this Node or the `node` given. On this Node it
 * reads the run's compile cache, so it does not compile what it loads again.
 */
export function spawnBundle(
  name: 'app' | 'sandbox' | 'store-copy',
  env: Record<string, string>,
  {
    node = process.execPath,
    args = [],
    dotEnv,
    ...ids
  }: Pick<SpawnOptions, 'uid' | 'gid'> & {
    node?: string;
    args?: readonly string[];
    dotEnv?: string;
  } = {},
): BotProcess {
  const cwd = emptyWorkingDirectory();
  if (dotEnv !== undefined) writeFileSync(join(cwd, '.env'), dotEnv);
  const proc = spawn(node, [join(inject('bundles'), `${name}.js`), ...args], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // Filled by this Node: another would only write a cache of its own as it exits.
      ...(node === process.execPath && { NODE_COMPILE_CACHE: inject('compileCache') }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...ids,
  });
  proc.on('close', () => rmSync(cwd, { recursive: true, force: true }));
  return watchProcess(proc);
}

/** The bot, src/app.ts. */
export const spawnBot = (env: Record<string, string>, options?: Parameters<typeof spawnBundle>[2]) =>
  spawnBundle('app', env, options);

export interface ServingBot extends BotProcess {
  /** http://127.0.0.1:PORT */
  origin: string;
}

/** A bot in HTTP mode on a free port, once it says it is ready (its port is in that line). */
export async function startServingBot(env: Record<string, string>): Promise<ServingBot> {
  const bot = spawnBot({ PORT: '0', ...env });
  try {
    const ready = JSON.parse(await bot.lineMatching((line) => line.includes('Waybill bot ready'))) as {
      port: number;
    };
    return { ...bot, origin: `http://127.0.0.1:${ready.port}` };
  } catch (err) {
    bot.proc.kill('SIGKILL');
    throw err;
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A port some other server is listening on (all interfaces, as the bot would); close it when done. */
export async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(0);
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server };
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const { port, server } = await takenPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
