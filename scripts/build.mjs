/**
 * `npm run build` compiles src/ into dist/. With --if-stale (what `npm start` and `npm run sandbox` run
 * first) it does so only when dist/ is missing or older than its sources, so a start after a build does not
 * wait for TypeScript, and a production install (no dev dependencies) starts from the dist/ it was given.
 * Plain JavaScript with no dependencies, so it runs where TypeScript is not installed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);
/** Written by every successful compile (noEmitOnError: a failed one leaves dist/ as it was). */
const builtMarker = at('dist/app.js');
const sources = ['src', 'tsconfig.json', 'tsconfig.build.json'];
/** Files the program reads at run time that the compiler does not copy. */
const assets = ['waybill/sender-profiles.example.json'];

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

function isStale() {
  const built = statSync(builtMarker, { throwIfNoEntry: false });
  if (!built) return true;
  // A copy without src/ (only dist/ shipped) is current by definition.
  return Math.max(...sources.map((source) => newestChange(at(source)))) > built.mtimeMs;
}

function typescriptCompiler() {
  try {
    return createRequire(at('package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

function build() {
  const tsc = typescriptCompiler();
  if (!tsc) {
    process.stderr.write(
      'dist/ is missing or older than src/, and TypeScript is not installed (a production install): run "npm run build" where the dev dependencies are installed, then copy dist/ here\n',
    );
    process.exit(1);
  }
  // From scratch, so modules moved or removed in src/ leave nothing behind in dist/.
  rmSync(at('dist'), { recursive: true, force: true });
  const compiled = spawnSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  for (const asset of assets) cpSync(at(join('src', asset)), at(join('dist', asset)));
}

if (!process.argv.includes('--if-stale')) build();
else if (isStale()) {
  process.stderr.write(`Building dist/ (${existsSync(builtMarker) ? 'src/ changed' : 'first start'})…\n`);
  build();
}
