/** The render worker's thread (bundled as dist/render-worker.js): runs one task at a time as the pool asks, and posts back what it returned. */
import { parentPort } from 'node:worker_threads';
import { type TaskName, tasks } from './tasks.js';

parentPort?.on('message', async ({ task, args }: { task: TaskName; args: unknown[] }) => {
  try {
    const value = await (tasks[task] as (...input: unknown[]) => unknown)(...args);
    parentPort?.postMessage({ value });
  } catch (error) {
    parentPort?.postMessage({ error });
  }
});
