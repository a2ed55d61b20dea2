/**
 * `npm start`, `npm run sandbox` and `npm run store:copy`: builds dist/ first when it is missing or older
 * than src/ (as a process of its own, scripts/build.mjs), then runs the bundle named by the argument
 * (`app`, `sandbox` or `store-copy`) in this process, so the node options of the npm script are the
 * bot's, with no second process to wait for.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isStale } from './build.mjs';

// The bundle's name is ours; the arguments after it are the bundle's own.
const [bundle = 'app'] = process.argv.splice(2, 1);
if (isStale()) {
  const builder = fileURLToPath(new URL('build.mjs', import.meta.url));
  // What the build says goes to stderr: stdout is the bot's JSON log lines only.
  const built = spawnSync(process.execPath, [builder, '--if-stale'], { stdio: ['ignore', 2, 2] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(new URL(`../dist/${bundle}.js`, import.meta.url).href);
