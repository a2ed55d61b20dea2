import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import manifest from './package.json' with { type: 'json' };
import { satisfiesEngines } from './src/node-version.js';

// On an older Node the SQLite driver's binary ends the run with a bare "Segmentation fault": one line instead.
if (!satisfiesEngines(process.version, manifest.engines.node)) {
  console.error(
    `The tests need Node ${manifest.engines.node} (package.json engines), and this is Node ${process.version}`,
  );
  process.exit(1);
}

/** The unit lane: pure code only (test/lanes.unit.test.ts keeps it so). */
export const unitFiles = 'test/**/*.unit.test.ts';

/** How every run runs, the whole suite or `npm run test:unit` (vitest.unit.config.ts). */
export const running = {
  // Most test files wait on sockets, child processes and timers more than they compute: one more file
  // at a time than there are cores (vitest's default is one less), each in a process of its own
  // (forks: worker threads would share the TZ that two test files change).
  pool: 'forks',
  maxWorkers: availableParallelism() + 1,
  // A worker loads Bolt, zod, Kysely and src/ once for all its files, not once per file (about a third
  // of the suite's CPU). No test file keeps state in a shared module: every bot, store, server and
  // child process is made in the file (or the test) and stopped there. (The one exception, each
  // worker's PostgreSQL database, is emptied before every test: test/store/backends.ts.)
  isolate: false,
  // Sources as transformed for the tests, kept in node_modules/.vitest between runs (keyed by content):
  // a run after an edit transforms only what changed. `npx vitest --clearCache` empties it.
  experimental: { fsModuleCache: true },
  testTimeout: 15_000,
  hookTimeout: 15_000,
} as const;

/**
 * The files that take longest (wall time, measured), started first, and every third of them one that
 * mostly waits (on timers, locks, other processes): about one worker waits while two keep the two cores
 * busy. Vitest's own order (the last run's durations, or size on a fresh clone) put the long waiting
 * files side by side, leaving a core idle for a quarter of a minute. Only an order: a file not named
 * here starts in vitest's order, after these.
 */
const longest = [
  'container',
  'startup',
  'replicas.e2e',
  'bulk-replicas.e2e',
  'slack/labels.e2e',
  'slack/bulk-faults',
  'export-memory',
  'slack/update.e2e',
  'slack/bulk.e2e',
  'process',
  'slack/probes',
  'store/copy',
  'labels-load',
  'slack/properties',
  'slack/faults',
  'try',
  'slack/address-book.e2e',
  'slack/socket-mode.e2e',
  'slack/reminders.e2e',
  'slack/remittance.e2e',
  'slack/files',
].map((name) => `/test/${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = longest.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? longest.length : at;
    };
    // Stable: the files not named keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// `npm test`: one pool for every file, so the unit files run in workers already loaded, beside the rest.
export default defineConfig({
  test: {
    ...running,
    include: ['test/**/*.test.ts'],
    sequence: { sequencer: LongestFirst },
    // The run's temporary folder, the bundled children, the PostgreSQL database store tests copy, and the SQLite file bots copy.
    globalSetup: [
      // First, so its folder is the last thing removed.
      'test/support/run-tmp.ts',
      'test/support/bundles.ts',
      'test/support/postgres-template.ts',
      'test/support/sqlite-template.ts',
    ],
  },
});
