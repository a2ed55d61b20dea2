/**
 * What a production install relies on: dependencies are what `src/` imports at run time, the `better-sqlite3`
 * release the running Node loads, `npm start` needs only node, `scripts/build.mjs --if-stale` builds only
 * when `dist/` is stale.
 */
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
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { bundled } from '../scripts/build.mjs';

/** What a production install (`npm ci --omit=dev`, then `npm start`) relies on. */

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

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
    // Also loaded when first needed (`import('pdfkit')`), or read as a file (`require.resolve('…/font.ttf')`).
    const loads = text.matchAll(
      /^import (?!type )[^;]*? from '([^']+)'|\brequire(?:\.resolve)?\('([^']+)'\)|\bimport\('([^']+)'\)/gms,
    );
    for (const [, imported, required, loaded] of loads) {
      const specifier = imported ?? required ?? loaded ?? '';
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const [scope = '', name = ''] = specifier.split('/');
      packages.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
    }
  }
  return packages;
}

/** The packages a bundle loads from node_modules (what esbuild left as imports), with the files of its own it loads. */
function loadedBy(bundleFile: string, read = new Set<string>()): Set<string> {
  read.add(bundleFile);
  const text = readFileSync(bundleFile, 'utf8');
  // Static imports (`import x from"pkg"`, `import"pkg"`), dynamic ones, require() and esbuild's shim of it.
  const shapes =
    /(?:\bfrom\s*|\bimport\s*\(?\s*|\b(?:__)?require\d*\()"((?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]+)?)"/g;
  const specifiers = [...text.matchAll(shapes)].map(([, specifier]) => specifier ?? '');
  const packages = new Set(
    specifiers
      // Node's own modules, as bundled CommonJS names them (`require("http")`); and a package's data
      // read when first needed (libphonenumber-js's metadata, JSON), which is no code loaded twice.
      .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
      .filter((specifier) => !builtinModules.includes(specifier) && !specifier.endsWith('.json'))
      .map((specifier) => {
        const [scope = '', name = ''] = specifier.split('/');
        return scope.startsWith('@') ? `${scope}/${name}` : scope;
      }),
  );
  // The chunks the bundle shares with others or loads when first needed (scripts/build.mjs).
  for (const chunk of specifiers.filter((specifier) => /^\.\/[\w-]+\.js$/.test(specifier))) {
    const file = join(dirname(bundleFile), chunk);
    if (!read.has(file)) for (const name of loadedBy(file, read)) packages.add(name);
  }
  return packages;
}

describe('start-up', () => {
  it('loads the PDF and barcode libraries when the first label is printed, never at start', () => {
    const loadedAtStart = /^import (?!type )[^;]*? from '(pdfkit|bwip-js)'/m;
    for (const file of sourceFiles('src'))
      expect(readFileSync(file, 'utf8'), file).not.toMatch(loadedAtStart);
    expect(readFileSync('src/labels/pdf.ts', 'utf8')).toMatch(/import\('pdfkit'\)[\s\S]*import\('bwip-js'\)/);
  });
});

describe('package.json', () => {
  it('lists as dependencies exactly what src/ uses at run time, bundled or not, so audits see all the code that runs', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...runtimePackages()].sort());
    for (const name of bundled) expect(manifest.dependencies, name).toHaveProperty(name);
  });

  it.each([
    ['app', ['@slack/bolt', 'better-sqlite3']],
    ['store-copy', ['better-sqlite3', 'pg']],
  ])('the bundle %s.js loads from node_modules only the dependencies not bundled', (name, expected) => {
    const external = Object.keys(manifest.dependencies).filter((name) => !bundled.includes(name));
    const loaded = loadedBy(join(inject('bundles'), `${name}.js`));
    expect([...loaded].filter((name) => !external.includes(name))).toEqual([]);
    for (const dependency of expected) expect(loaded).toContain(dependency);
  });

  it('starts (and runs the sandbox and store:copy) with node alone once dist/ is built, exec-ed so that signals reach it', () => {
    for (const script of ['start', 'sandbox', 'store:copy']) {
      expect(manifest.scripts[script], script).toMatch(
        /^exec (node|sh scripts\/node\.sh) (--\S+ )*(dist|scripts)\//,
      );
    }
  });

  it("gives node the bot's options through scripts/node.sh, on Node 22 the async context frame and the compile cache, and execs it", () => {
    const home = mkdtempSync(join(tmpdir(), 'waybill-home-'));
    const node22 = process.versions.node.startsWith('22.');
    const started = (env: NodeJS.ProcessEnv) => {
      const run = spawnSync(
        'sh',
        [
          'scripts/node.sh',
          '-e',
          'console.log(JSON.stringify({ argv: process.execArgv, pid: process.pid, cache: require("node:module").getCompileCacheDir?.() ?? null }))',
        ],
        { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } },
      );
      expect(run.stderr).toBe('');
      return { ...(JSON.parse(run.stdout) as { argv: string[]; pid: number; cache: string | null }), run };
    };
    try {
      const { argv, pid, run, cache } = started({ HOME: home });
      expect(argv).toEqual([
        '--max-semi-space-size=4',
        '--max-old-space-size=512',
        '--v8-pool-size=1',
        ...(node22 ? ['--experimental-async-context-frame'] : []),
        '-e',
        expect.any(String),
      ]);
      // exec: node is the process sh was, so a signal sent to it reaches node.
      expect(pid).toBe(run.pid);
      // Node 22's compile cache: in the user's cache directory, or where NODE_COMPILE_CACHE says; none
      // without a home, nor on Node 24.
      if (node22) {
        expect(cache).toMatch(new RegExp(`^${home}/\\.cache/waybill-bot`));
        expect(started({ HOME: home, NODE_COMPILE_CACHE: join(home, 'elsewhere') }).cache).toMatch(
          new RegExp(`^${home}/elsewhere`),
        );
      } else expect(cache).toBeNull();
      expect(started({}).cache).toBeNull();
    } finally {
      rmSync(home, { recursive: true, force: true });
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
