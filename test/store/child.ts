// Starts test/store/child-store.ts in its own process and talks to it line by line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inject, onTestFinished } from 'vitest';
import type { AttemptAbout } from '../../src/store/index.js';
import type { Target } from './backends.js';

export interface ChildArgs {
  mode: 'migrate' | 'begin-and-wait';
  target: Target;
  replicaId?: string;
  leaseTtlMs?: number;
  key?: string;
  about?: AttemptAbout;
}

export interface Child {
  /** The next line it prints (rejects if it exits first). */
  nextLine(): Promise<string>;
  send(line: string): void;
  /** SIGKILL: no chance to close anything, as a crashed replica. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
}

/** Resolves once the child has printed "ready"; call it in a test, which kills the child when it ends. */
export async function startChild(mode: ChildArgs['mode'], args: Omit<ChildArgs, 'mode'>): Promise<Child> {
  // child-store.ts, bundled for the run (test/support/bundles.ts).
  const script = join(inject('bundles'), 'child-store.js');
  const proc = spawn(process.execPath, [script, mode, JSON.stringify({ ...args, mode })], {
    // Its compile cache too, so it does not compile what it loads again.
    env: { ...process.env, NODE_COMPILE_CACHE: inject('compileCache') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Also when the test fails before it is done with the child (kill() on an exited process does nothing).
  onTestFinished(() => {
    proc.kill('SIGKILL');
  });
  let stderr = '';
  proc.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(proc, 'exit').then(([code]) => code as number | null);
  const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const child: Child = {
    async nextLine() {
      const next = await lines.next();
      if (next.done) throw new Error(`child exited without a line; stderr: ${stderr}`);
      return next.value;
    },
    send: (line) => proc.stdin?.write(`${line}\n`),
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
    exited,
  };
  const first = await child.nextLine();
  if (first !== 'ready') throw new Error(`child said "${first}" instead of ready; stderr: ${stderr}`);
  return child;
}
