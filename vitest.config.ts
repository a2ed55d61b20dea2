import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/bundles.ts'],
    // Most test files wait on sockets, child processes and timers more than they compute: more files
    // at once than cores (vitest's default is one less), each in a process of its own (forks: a thread
    // would share the TZ that two test files change).
    pool: 'forks',
    maxWorkers: 3,
    // A worker loads Bolt, zod, Kysely and src/ once for all its files, not once per file (a third of
    // the suite's CPU). Test files keep no state in shared modules: every bot, store, server and child
    // process is made in the file (or test) and stopped there.
    isolate: false,
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
