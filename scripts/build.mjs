/**
 * `npm run build`: type-checks src/ and bundles it into dist/app.js (the bot), dist/sandbox.js (`npm run
 * sandbox`), dist/store-copy.js (`npm run store:copy`), dist/probes.js and dist/bolt.js (for the benchmark). Every
 * package src/ uses at run time is a dependency in package.json, so audits and SBOMs of a production
 * install see all the code that runs; those named in `bundled` (zod, date-fns, Kysely, libphonenumber-js, the CSV reader,
 * prom-client) are bundled, so only the parts used are loaded, in
 * one file, which starts faster and uses less memory than a few hundred modules; the rest stay outside
 * the bundles and are loaded from node_modules.
 *
 * With --if-stale (what `npm start` and `npm run sandbox` run first, through scripts/start.mjs) it builds
 * only when dist/ is missing or older than its sources, so a start after a build does not wait, and a
 * production install (no dev dependencies) starts from the dist/ it was given. Plain JavaScript that
 * imports its build tools only when it builds, so it runs where they are not installed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);
/** Written last by every successful build (a failed one leaves no dist/ at all). */
const builtMarker = at('dist/app.js');
const sources = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
export const entryPoints = {
  app: 'src/app.ts',
  sandbox: 'src/sandbox.ts',
  // `npm run store:copy`: a SQLite store into PostgreSQL, runnable where only dist/ is installed.
  'store-copy': 'src/store-copy.ts',
  // The render worker's thread (src/render/pool.ts finds it beside app.js).
  'render-worker': 'src/render/worker.ts',
  // The bot's probes alone, for the benchmark's bare Bolt baseline (bench/bare-bolt.mjs).
  probes: 'src/slack/runtime/probes.ts',
  // Bolt as the bot loads it, alone: the benchmark's memory of Bolt's part (bench/README.md).
  bolt: 'src/slack/runtime/bolt.ts',
};
/**
 * zod's translations of its own error messages (a third of the bundle): the bot words every message
 * itself, and zod's English default is imported on its own, so `z.locales` is left empty.
 */
const withoutZodTranslations = {
  name: 'without-zod-translations',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]zod[\\/]/.test(importer) ? { path: 'zod-translations', namespace: 'left-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'export {};' }));
  },
};

/** Dependencies bundled into dist/ (pure JavaScript, used in part); a production install has them too. */
export const bundled = [
  'zod',
  'kysely',
  'date-fns',
  '@date-fns/tz',
  'csv-parse',
  'libphonenumber-js',
  'prom-client',
];

/** Files the program reads at run time, next to the bundles (`new URL(…, import.meta.url)`). */
const assets = ['src/waybill/sender-profiles.example.json', 'src/waybill/psgc.json'];

/**
 * Newest modification time of the files under `path`. Directories' own times are left out: a copy made
 * file by file gives them the time of copying. (Removing a module changes the files that imported it.)
 */
function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), 0);
}

/** Whether dist/ must be built before it is run (scripts/start.mjs asks too). */
export function isStale() {
  const built = statSync(builtMarker, { throwIfNoEntry: false });
  if (!built) return true;
  // A copy without src/ (only dist/ shipped) is current by definition.
  return Math.max(...sources.map((source) => newestChange(at(source)))) > built.mtimeMs;
}

function resolveTool(specifier) {
  try {
    return createRequire(at('package.json')).resolve(specifier);
  } catch {
    return undefined;
  }
}

/**
 * The bundles of `entries` (name: source) in `outdir`, with the files they read at run time: what the
 * build writes to dist/, and what the tests run as child processes (test/support/bundles.ts). Returns the
 * paths of the files it bundled, and of the ones it copied, from the project's root.
 */
export async function bundle(outdir, entries = entryPoints) {
  const manifest = JSON.parse(readFileSync(at('package.json'), 'utf8'));
  const { build: esbuild } = await import(pathToFileURL(resolveTool('esbuild')).href);
  for (const asset of assets) cpSync(at(asset), join(outdir, asset.split('/').at(-1)));
  const { metafile } = await esbuild({
    absWorkingDir: root,
    metafile: true,
    entryPoints: entries,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${manifest.engines.node.match(/\d+\.\d+\.\d+/)[0]}`,
    external: Object.keys(manifest.dependencies).filter((name) => !bundled.includes(name)),
    plugins: [withoutZodTranslations],
    // What a rare feature imports when first used (`await import()`) is a file of its own beside the
    // bundles, read then, not at start-up; code the bundles share is in such files too.
    splitting: true,
    chunkNames: '[name]-[hash]',
    // Without comments (a few of the libraries' are not ASCII, see refuseNonAscii) and indentation: a
    // smaller source to hold in memory. Names are kept, so a stack trace still names its functions.
    minifyWhitespace: true,
    // CommonJS bundled into these ES modules (prom-client) requires Node's own modules by name.
    banner: {
      js: "import{createRequire as createRequireOfBundle}from'node:module';const require=createRequireOfBundle(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return [...Object.keys(metafile.inputs), ...assets];
}

/**
 * V8 holds a bundle's source in memory for as long as it runs, at two bytes a character if a single
 * character is not ASCII (twice the file's size). esbuild escapes strings, but not regular
 * expressions and String.raw: write their non-ASCII characters as \u escapes.
 */
function refuseNonAscii() {
  const files = readdirSync(at('dist'), { recursive: true }).filter((file) => String(file).endsWith('.js'));
  for (const name of files) {
    const lines = readFileSync(at(`dist/${name}`), 'utf8').split('\n');
    const index = lines.findIndex((line) => /[\u0080-\uffff]/.test(line));
    if (index === -1) continue;
    const found = lines[index].match(/.{0,40}[\u0080-\uffff].{0,20}/)?.[0].trim();
    rmSync(at('dist'), { recursive: true, force: true });
    process.stderr.write(
      `dist/${name} line ${index + 1} is not ASCII ("${found}"): write the character as a \\u escape in src/ (see scripts/build.mjs)\n`,
    );
    process.exit(1);
  }
}

async function build() {
  const tsc = resolveTool('typescript/bin/tsc');
  if (!tsc || !resolveTool('esbuild')) {
    process.stderr.write(
      'dist/ is missing or older than src/, and the build tools are not installed (a production install): run "npm run build" where the dev dependencies are installed, then copy dist/ here\n',
    );
    process.exit(1);
  }
  // Type errors stop the build: the bundler alone would only strip the types.
  const checked = spawnSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
  if (checked.status !== 0) process.exit(checked.status ?? 1);
  rmSync(at('dist'), { recursive: true, force: true });
  await bundle(at('dist'));
  refuseNonAscii();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale')) await build();
  else if (isStale()) {
    process.stderr.write(`Building dist/ (${existsSync(builtMarker) ? 'src/ changed' : 'first start'})…\n`);
    await build();
  }
}
