/**
 * Vitest's global setup: the entry points the tests run as child processes (the bot, the sandbox, store:copy, the
 * store child), bundled once per run as `npm run build` bundles them. A child then starts in about a
 * third of a second of CPU, where `node --import tsx` compiled and loaded a few hundred modules each time.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundle, entryPoints } from '../../scripts/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of this run's bundles: `app.js`, `sandbox.js`, `store-copy.js`, `child-store.js`. */
    bundles: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Inside the project, so the bundles find the dependencies they leave out in node_modules.
  const parent = join(project.config.root, 'node_modules/.cache/waybill-test-bundles');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'run-'));
  // Readable by all: one test runs the bot as an unprivileged user.
  chmodSync(dir, 0o755);
  const build = () => bundle(dir, { ...entryPoints, 'child-store': 'test/store/child-store.ts' });
  await build();
  // In watch mode the sources may have changed since.
  project.onTestsRerun(build);
  project.provide('bundles', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
