/**
 * A copy of the project as it is deployed: package.json, the lock file, scripts/ and dist/ (this run's
 * bundles, as `npm run build` makes them), without src/, so dist/ counts as built; its node_modules
 * either linked to the checkout's or a production install of its own (from npm's cache where it can).
 */
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

export interface ProjectCopy {
  dir: string;
  remove(): void;
}

/**
 * package.json, the lock file and dist/, as the image's runtime stage holds them, and scripts/ for
 * `npm start` unless `image`.
 */
export async function projectCopy(
  dependencies: 'linked' | 'production',
  { image = false } = {},
): Promise<ProjectCopy> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-copy-'));
  chmodSync(dir, 0o755);
  const scripts = image ? [] : ['scripts/start.mjs', 'scripts/build.mjs'];
  for (const file of ['package.json', 'package-lock.json', ...scripts]) cpSync(file, join(dir, file));
  mkdirSync(join(dir, 'dist'));
  for (const file of ['app.js', 'render-worker.js', 'sandbox.js', 'sender-profiles.example.json'])
    cpSync(join(inject('bundles'), file), join(dir, 'dist', file));
  if (dependencies === 'linked') symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  else {
    // From npm's cache where it can: the registry is asked only for what the cache lacks.
    await promisify(execFile)('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
    });
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
