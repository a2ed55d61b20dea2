import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The unit lane: pure code only (test/lanes.unit.test.ts keeps it so). `npm run test:unit` runs it alone. */
const unit = 'test/**/*.unit.test.ts';

export default defineConfig({
  test: {
    // Most test files wait on sockets, child processes and timers more than they compute: one more file
    // at a time than there are cores (vitest's default is one less), each in a process of its own
    // (forks: worker threads would share the TZ that two test files change).
    pool: 'forks',
    maxWorkers: availableParallelism() + 1,
    // A worker loads Bolt, zod, Kysely and src/ once for all its files, not once per file (about a third
    // of the suite's CPU). No test file keeps state in a shared module: every bot, store, server and
    // child process is made in the file (or the test) and stopped there.
    isolate: false,
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // `npm test` runs both lanes in one pool, side by side.
    projects: [
      { extends: true, test: { name: 'unit', include: [unit] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [unit],
          // Only this lane starts bundled children, bots and databases, so only it prepares them.
          globalSetup: [
            'test/support/bundles.ts',
            'test/support/postgres-template.ts',
            'test/support/sqlite-template.ts',
          ],
        },
      },
    ],
  },
});
