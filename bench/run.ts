/**
 * `npm run bench`: the bot under concurrent load, on SQLite, on PostgreSQL and as two replicas on
 * one PostgreSQL database, against a bare Bolt app on the same machine.
 *
 * This process (the orchestrator) runs the fake Slack Web API and watches what reaches it; the bot
 * (`src/app.ts`, HTTP mode, embedded sandbox courier) and the bare Bolt app run as child processes;
 * the signed requests come from a third process (`bench/load.ts`), which sends them to the replicas
 * in turn. Everything is on 127.0.0.1, and every phase has a request count and a time cap. The
 * PostgreSQL runs need BENCH_DATABASE_URL or TEST_DATABASE_URL (a user allowed to create databases).
 *
 * Then one bulk booking: a CSV file of 500 rows from `/book import` to its results file (bench/bulk.ts).
 *
 * Flags: --n 200 (requests per phase), --smoke (N=10, no 10 s phase, PostgreSQL as two replicas at 0 s only: for CI),
 * --skip-slow (no 10 s phase), --check (exit 1 when a result is lost or duplicated, an ack fails or
 * an outcome is an error; timing targets are reported, never enforced).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeSlack } from '../fakes/slack-fake.js';
import { type BulkReport, benchBulk } from './bulk.js';
import { postgresAdminUrl } from './databases.js';
import type { OpenedForm } from './fixtures.js';
import { epochMs, repoRoot } from './lib.js';
import { benchBare, benchBot, type Context, type InstanceReport } from './phases.js';
import { log } from './processes.js';
import { machine, render, targets } from './report.js';
import { trackArrivals } from './slack-calls.js';

const { values: flags } = parseArgs({
  options: {
    n: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    'skip-slow': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const smoke = flags.smoke === true;
const N = flags.n !== undefined ? Number(flags.n) : smoke ? 10 : 200;
if (!Number.isInteger(N) || N < 1 || N > 2000) throw new Error('--n must be a whole number from 1 to 2000');
const skipSlow = smoke || flags['skip-slow'] === true;
const latencies = skipSlow ? [0, 2000] : [0, 2000, 10_000];
/** PostgreSQL at these courier delays, when a server is given: one bot, then two replicas (the smoke run: two replicas only). */
const postgresLatencies = postgresAdminUrl ? (smoke ? [0] : [0, 2000]) : [];
const postgresReplicas = smoke ? [2] : [1, 2];

async function main(): Promise<void> {
  const begun = epochMs();
  const fake = await startFakeSlack();
  const arrivals = trackArrivals(fake);
  const tmp = mkdtempSync(join(os.tmpdir(), 'waybill-bench-'));
  const ctx: Context = { fake, arrivals, tmp, n: N };
  const instances: InstanceReport[] = [];
  let bulk: BulkReport | undefined;
  try {
    if (!postgresAdminUrl) log('PostgreSQL runs left out: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)');
    for (const latencyMs of latencies) {
      let forms: OpenedForm[] = [];
      instances.push(await benchBot(ctx, { backend: 'SQLite', replicas: 1, latencyMs }, (f) => (forms = f)));
      if (latencyMs === 0) instances.push(await benchBare(ctx, forms));
      if (!postgresLatencies.includes(latencyMs)) continue;
      for (const replicas of postgresReplicas) {
        instances.push(await benchBot(ctx, { backend: 'PostgreSQL', replicas, latencyMs }));
      }
    }
    bulk = await benchBulk(ctx);
  } finally {
    await fake.close();
  }
  const report = {
    mode: smoke ? 'smoke' : skipSlow ? 'skip-slow' : 'full',
    n: N,
    date: new Date().toISOString(),
    machine: machine(),
    totalSeconds: Math.round((epochMs() - begun) / 100) / 10,
    instances,
    bulk,
    targets: targets(instances, N),
  };
  const text = render(report);
  process.stdout.write(`${text}\n`);
  const dir = join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify({ ...report, table: text }, null, 2)}\n`);
  log(`figures written to bench/results/latest.json`);
  rmSync(tmp, { recursive: true, force: true });

  if (flags.check) {
    const broken = instances.some(
      (i) =>
        i.phases.some(
          (p) =>
            p.ack.failed > 0 || (p.results && (p.results.lost || p.results.duplicated || p.results.errors)),
        ) ||
        (i.kind === 'bot' &&
          i.phases.some((p) => p.results?.dbRows !== undefined && p.results.dbRows !== p.results.expected)),
    );
    if (broken || bulk?.outcomes.booked !== bulk?.rows) {
      log(
        '--check: a result was lost or duplicated, an ack or outcome failed, or a row of the bulk file was not booked',
      );
      process.exitCode = 1;
    }
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
