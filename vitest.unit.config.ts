import { defineConfig } from 'vitest/config';
import { running, unitFiles } from './vitest.config.js';

// `npm run test:unit`: the unit lane alone, which needs none of the suite's global setup but its
// temporary folder.
export default defineConfig({
  test: { ...running, include: [unitFiles], globalSetup: ['test/support/run-tmp.ts'] },
});
