/**
 * A copy of the project as it is deployed: package.json, the lock file, scripts/ and dist/ (this run's
 * bundles, as `npm run build` makes them), without src/, so dist/ counts as built; its node_modules
 * either linked to the checkout's or a production install of its own (from npm's cache where it can), made
 * as on a machine without build tools.
 */
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

export interface ProjectCopy {
  dir: string;
  remove(): void;
}

/** The first `name` on this process's PATH. */
function onPath(name: string): string {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    try {
      return realpathSync(join(folder, name));
    } catch {
      // not in this folder
    }
  }
  throw new Error(`${name} is not on PATH`);
}

/**
 * The environment of an install on a machine with node, npm and a shell only (as node:22-bookworm-slim):
 * no python3, make or compiler on PATH, and no user npm config (this machine's names a \`nodedir\`, Node's
 * headers) nor \`npm_config_*\` variables (npm sets them for what it runs, vitest included).
 */
function withoutBuildTools(dir: string): NodeJS.ProcessEnv {
  const bin = join(dir, '.bin-only-node-npm-sh');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(onPath('npm'), join(bin, 'npm'));
  symlinkSync(onPath('sh'), join(bin, 'sh'));
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) && !['PATH', 'NODE', 'INIT_CWD'].includes(name),
  );
  return { ...Object.fromEntries(kept), PATH: bin, npm_config_userconfig: join(bin, 'no-npmrc') };
}

/**
 * package.json, the lock file, .npmrc, dist/ and scripts/node.sh (node's options), as the image's runtime
 * stage holds them, and the rest of scripts/ for `npm start` unless `image`.
 */
export async function projectCopy(
  dependencies: 'linked' | 'production',
  { image = false } = {},
): Promise<ProjectCopy> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-copy-'));
  chmodSync(dir, 0o755);
  const scripts = ['scripts/node.sh', ...(image ? [] : ['scripts/start.mjs', 'scripts/build.mjs'])];
  for (const file of ['package.json', 'package-lock.json', '.npmrc', ...scripts])
    cpSync(file, join(dir, file));
  // The whole build: the bundles, the chunks they share and load when first needed, the files they
  // read; not the tests' compile cache beside them.
  cpSync(inject('bundles'), join(dir, 'dist'), {
    recursive: true,
    filter: (path) => !basename(path).startsWith('compile-cache'),
  });
  if (dependencies === 'linked') symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  else {
    // From npm's cache where it can: the registry is asked only for what the cache lacks.
    const env = withoutBuildTools(dir);
    await promisify(execFile)('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env,
    });
    rmSync(env.PATH as string, { recursive: true });
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
