import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteDriver } from '../src/store/backend.js';

/** What a production install (`npm ci --omit=dev`, then `npm start`) relies on. */

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
/** Installed by a production install: the optional ones where their `engines` allow. */
const runtimeDependencies = { ...manifest.dependencies, ...manifest.optionalDependencies };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Packages src/ imports or requires at run time (`import type` is erased by the compiler). */
function runtimePackages(): Set<string> {
  const packages = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    const loads = text.matchAll(/^import (?!type )[^;]*? from '([^']+)'|\brequire\('([^']+)'\)/gms);
    for (const [, imported, required] of loads) {
      const specifier = imported ?? required ?? '';
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const [scope = '', name = ''] = specifier.split('/');
      packages.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
    }
  }
  return packages;
}

describe('package.json', () => {
  it('depends at run time only on what src/ imports; the rest src/ imports is bundled at build time', () => {
    const imported = runtimePackages();
    for (const name of Object.keys(runtimeDependencies)) expect(imported, name).toContain(name);
    // Not a dependency: scripts/build.mjs bundles it into dist/, so it must be a dev dependency.
    for (const name of imported) {
      expect(name in runtimeDependencies || name in manifest.devDependencies, name).toBe(true);
    }
  });

  it(`opens SQLite with better-sqlite3 13 from Node 22 on, 12 on Node 20 (here ${process.version})`, () => {
    const [name, major] =
      Number(process.versions.node.split('.')[0]) >= 22
        ? ['better-sqlite3', '13']
        : ['better-sqlite3-node20', '12'];
    const load = createRequire(import.meta.url);
    expect(sqliteDriver()).toBe(load(name));
    expect(load(`${name}/package.json`).version).toMatch(new RegExp(`^${major}\\.`));
  });

  it('starts (and runs the sandbox) with node alone once dist/ is built', () => {
    for (const script of ['start', 'sandbox']) {
      expect(manifest.scripts[script], script).toMatch(/^node (--\S+ )*(dist|scripts)\//);
    }
  });
});

describe('scripts/build.mjs --if-stale', () => {
  /** A project copy without the build tools: building is impossible, so the script can only say so. */
  function project(): { dir: string; run(): ReturnType<typeof spawnSync> } {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-build-'));
    cpSync('scripts/build.mjs', join(dir, 'scripts/build.mjs'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    mkdirSync(join(dir, 'src/waybill'), { recursive: true });
    writeFileSync(join(dir, 'src/app.ts'), '');
    writeFileSync(join(dir, 'src/waybill/dates.ts'), '');
    const run = () =>
      spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: dir, encoding: 'utf8' });
    return { dir, run };
  }
  const hourAgo = new Date(Date.now() - 3_600_000);
  /** Built well before the change that follows (file times are only as fine as the kernel's clock tick). */
  const builtAt = new Date(Date.now() - 1_800_000);

  function built(dir: string): void {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist/app.js'), '');
    utimesSync(join(dir, 'dist/app.js'), builtAt, builtAt);
    for (const path of ['src/app.ts', 'src/waybill/dates.ts', 'tsconfig.build.json', 'package.json']) {
      if (existsSync(join(dir, path))) utimesSync(join(dir, path), hourAgo, hourAgo);
    }
  }

  it('does nothing when dist/ is newer than every source, whatever the times of the directories', () => {
    const { dir, run } = project();
    built(dir);
    utimesSync(join(dir, 'src/waybill'), new Date(), new Date());
    const result = run();
    expect([result.status, result.stderr]).toEqual([0, '']);
    rmSync(dir, { recursive: true });
  });

  it('builds when dist/ is missing or a source changed or was added; without the build tools it says so', () => {
    const { dir, run } = project();
    const changes = [
      () => rmSync(join(dir, 'dist'), { recursive: true, force: true }),
      () => utimesSync(join(dir, 'src/waybill/dates.ts'), new Date(), new Date()),
      () => writeFileSync(join(dir, 'src/waybill/added.ts'), ''),
      () => utimesSync(join(dir, 'tsconfig.build.json'), new Date(), new Date()),
      // The dependencies decide what stays outside the bundle.
      () => utimesSync(join(dir, 'package.json'), new Date(), new Date()),
    ];
    writeFileSync(join(dir, 'tsconfig.build.json'), '{}');
    for (const change of changes) {
      built(dir);
      rmSync(join(dir, 'src/waybill/added.ts'), { force: true });
      change();
      const result = run();
      expect(result.status).toBe(1);
      expect(String(result.stderr)).toContain(
        'dist/ is missing or older than src/, and the build tools are not installed (a production install)',
      );
    }
    rmSync(dir, { recursive: true });
  });

  it('treats a copy that ships dist/ without src/ as built', () => {
    const { dir, run } = project();
    built(dir);
    rmSync(join(dir, 'src'), { recursive: true });
    expect(run().status).toBe(0);
    rmSync(dir, { recursive: true });
  });
});
