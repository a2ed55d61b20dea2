/** The real entry point (what `npm start` runs) as a child process: its output lines, its exit, its readiness. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface BotProcess {
  proc: ChildProcess;
  /** Every line it wrote, stdout and stderr, in order. */
  lines: string[];
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The first line passing `test`, already written or still to come; rejects after `timeoutMs` (default 15 s). */
  lineMatching(test: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

/** `node --import tsx src/app.ts` with only this environment (and PATH, HOME). */
export function spawnBot(env: Record<string, string>): BotProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/app.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  for (const stream of [proc.stdout, proc.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.test(line))) waiter.resolve(line);
    });
  }
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
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
  return { proc, lines, exited, lineMatching };
}

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
