/**
 * The Node versions the bot runs on, package.json's `engines`, checked before anything else: on an older
 * Node the SQLite driver's binary (built for Node-API 10, Node 22.14 and later) ends the process with a
 * segmentation fault and no word.
 */
import manifest from '../package.json' with { type: 'json' };
import { StartupError } from './startup.js';

const numbers = (version: string) => version.replace(/^[v^]/, '').split('.').map(Number);

/**
 * Whether `version` (as `process.version` writes it) is in `range`, caret ranges joined by `||` as our
 * engines field writes them (`^22.14.0 || ^24`).
 */
export function satisfiesEngines(version: string, range: string): boolean {
  const [major = 0, minor = 0, patch = 0] = numbers(version);
  return range.split('||').some((alternative) => {
    const [wantedMajor, wantedMinor = 0, wantedPatch = 0] = numbers(alternative.trim());
    return major === wantedMajor && (minor - wantedMinor || patch - wantedPatch) >= 0;
  });
}

/** Throws the start-up failure naming the Node needed and the one running, unless they agree. */
export function checkNodeVersion(version = process.version): void {
  const range = manifest.engines.node;
  if (!satisfiesEngines(version, range)) {
    throw new StartupError(`the bot needs Node ${range} (package.json engines), and this is Node ${version}`);
  }
}
