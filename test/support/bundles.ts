/**
 * Vitest's global setup: the entry points the tests run as child processes (the bot, the sandbox, store:copy, the
 * store child), bundled as `npm run build` bundles them. A child then starts in about a third of a second
 * of CPU, where `node --import tsx` compiled and loaded a few hundred modules each time.
 *
 * Kept between runs, keyed by the contents of every file the last bundling read (with the build script and
 * the lock file): a run on unchanged sources starts its tests at once instead of after the bundling.
 *
 * Beside them, Node's compile cache for the children (`NODE_COMPILE_CACHE`, test/support/bot-process.ts),
 * filled once by loading each entry point: a child then skips compiling the bundle and the libraries it
 * loads (about a tenth of a second of CPU a bot start). Filled before any test, so that children read it
 * and write only what a bot loads later (better-sqlite3, as it opens its store) until one has: each child
 * writing a whole cache as it exits made exits slow enough to miss their bounds.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { bundle, entryPoints } from '../../scripts/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of this run's bundles: `app.js`, `sandbox.js`, `store-copy.js`, `child-store.js`. */
    bundles: string;
    /** Node's compile cache for this run's bundles, filled with what each entry point loads. */
    compileCache: string;
  }
}

/** Bundles of other sources kept beside the newest, for runs that may still use them. */
const KEPT = 3;

/**
 * Each bundle a test starts, with an environment in which it loads everything it imports and then stops
 * at once on a configuration error (the sandbox would otherwise serve on its default port).
 */
const loadedAlone: [name: string, env: Record<string, string>][] = [
  ['app', {}],
  ['sandbox', { SANDBOX_PORT: '-1' }],
  ['store-copy', {}],
  ['child-store', {}],
];

/** `compile-cache` in `bundles`, filled unless a run before this one did. */
async function compileCacheFor(bundles: string): Promise<string> {
  const done = join(bundles, 'compile-cache');
  if (existsSync(done)) return done;
  // Filled apart and renamed into place whole, as the bundles are; readable by all, as they are.
  const filling = mkdtempSync(join(bundles, 'compile-cache-'));
  chmodSync(filling, 0o755);
  const cwd = mkdtempSync(join(tmpdir(), 'waybill-cwd-'));
  // Each exits 1, on its configuration error, once it has loaded everything.
  await Promise.all(
    loadedAlone.map(([name, env]) =>
      promisify(execFile)(process.execPath, [join(bundles, `${name}.js`)], {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_COMPILE_CACHE: filling, ...env },
      }).catch(() => undefined),
    ),
  );
  rmSync(cwd, { recursive: true, force: true });
  // Node writes the entries for their owner alone: the bot run as nobody reads them too.
  for (const entry of readdirSync(filling, { recursive: true, encoding: 'utf8' })) {
    const path = join(filling, entry);
    chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  }
  try {
    renameSync(filling, done);
  } catch {
    // A run beside this one filled it first.
    rmSync(filling, { recursive: true, force: true });
  }
  return done;
}

export default async function setup(project: TestProject): Promise<void> {
  const root = project.config.root;
  // Inside the project, so the bundles find the dependencies they leave out in node_modules.
  const cache = join(root, 'node_modules/.cache/waybill-test-bundles');
  mkdirSync(cache, { recursive: true });
  const latest = join(cache, 'latest.json');

  /** One key for the contents of `paths` (from the root); a file since removed changes it too. */
  const keyOf = (paths: string[]) => {
    const hash = createHash('sha256');
    for (const path of [...paths, 'scripts/build.mjs', 'package-lock.json'].sort()) {
      const file = join(root, path);
      hash.update(`${path}\0`);
      if (existsSync(file)) hash.update(readFileSync(file));
    }
    return hash.digest('hex').slice(0, 16);
  };

  const prepare = async () => {
    const last = existsSync(latest)
      ? (JSON.parse(readFileSync(latest, 'utf8')) as { inputs: string[] })
      : undefined;
    const kept = last && join(cache, keyOf(last.inputs));
    if (kept && existsSync(kept)) {
      // Marked as used, so that pruning keeps it.
      utimesSync(kept, new Date(), new Date());
      project.provide('bundles', kept);
      return project.provide('compileCache', await compileCacheFor(kept));
    }

    // Built apart and renamed into place whole, so a run beside this one never sees half a directory.
    const dir = mkdtempSync(join(cache, 'building-'));
    // Readable by all: one test runs the bot as an unprivileged user.
    chmodSync(dir, 0o755);
    const inputs = (await bundle(dir, { ...entryPoints, 'child-store': 'test/store/child-store.ts' })).filter(
      (path) => !path.includes(':'),
    );
    const done = join(cache, keyOf(inputs));
    if (existsSync(done)) rmSync(dir, { recursive: true, force: true });
    else renameSync(dir, done);
    const pointer = join(cache, `latest-${process.pid}.json`);
    writeFileSync(pointer, JSON.stringify({ inputs }));
    renameSync(pointer, latest);
    project.provide('bundles', done);
    project.provide('compileCache', await compileCacheFor(done));

    const entries = readdirSync(cache).map((name) => ({
      name,
      path: join(cache, name),
      time: statSync(join(cache, name)).mtimeMs,
    }));
    const others = entries
      .filter(({ name, path }) => /^[0-9a-f]{16}$/.test(name) && path !== done)
      .sort((a, b) => b.time - a.time);
    // And what a run stopped while bundling left (no bundling takes an hour).
    const abandoned = entries.filter(
      ({ name, time }) => name.startsWith('building-') && time < Date.now() - 3_600_000,
    );
    for (const { path } of [...others.slice(KEPT), ...abandoned])
      rmSync(path, { recursive: true, force: true });
  };
  await prepare();
  // In watch mode the sources may have changed since.
  project.onTestsRerun(prepare);
}
