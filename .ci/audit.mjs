/**
 * CI: `npm audit --omit=dev --audit-level=high` (what production installs, dist/'s bundled libraries
 * included: they are dependencies too), failing on a high or critical advisory. A registry whose advisory
 * endpoint does not answer (a mirror that serves packages only) gives no verdict: that is said in one
 * line, and fails the run only with WAYBILL_CI_AUDIT=required.
 */
import { spawnSync } from 'node:child_process';

const audit = spawnSync('npm', ['audit', '--omit=dev', '--audit-level=high', '--json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(audit.stdout);
} catch {
  report = { message: audit.stderr.trim().split('\n').at(-1) };
}
if (!report.metadata) {
  const line = `npm audit: no verdict, the registry's advisory endpoint did not answer (${report.message ?? 'no report'})`;
  process.stderr.write(`${line}\n`);
  process.exit(process.env.WAYBILL_CI_AUDIT === 'required' ? 1 : 0);
}
const found = report.metadata.vulnerabilities;
process.stdout.write(`npm audit (production dependencies): ${JSON.stringify(found)}\n`);
if (audit.status !== 0) {
  for (const [name, entry] of Object.entries(report.vulnerabilities ?? {}))
    if (['high', 'critical'].includes(entry.severity))
      process.stderr.write(`${entry.severity}: ${name} ${entry.range}\n`);
  process.exit(1);
}
