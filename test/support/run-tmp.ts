/**
 * Vitest's global setup, first of all: every temporary folder the run makes (the tests', their bots',
 * their children's) goes into one folder of the run's own (TMPDIR, which os.tmpdir() and the children
 * read), removed when the run ends, whatever failed. The Nodes .ci/node fetches stay in the shared cache.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = tmpdir();
  const run = mkdtempSync(join(outer, 'waybill-test-run-'));
  // As /tmp is: the unprivileged user some tests run the bot as makes its folders here too.
  chmodSync(run, 0o1777);
  process.env.WAYBILL_CI_CACHE ??= join(outer, 'waybill-ci-cache');
  process.env.TMPDIR = run;
  return () => rmSync(run, { recursive: true, force: true });
}
