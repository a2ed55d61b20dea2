/**
 * The bench's labels and manifests: the PDFs of 1 and of 1,000 bookings, each measured in a process
 * of its own (its peak RSS is that work's alone). Run as a script, it is that process: it reads
 * `{ "kind": "labels" | "manifest", "n": … }` on stdin and prints its figures as JSON.
 *
 * Times are read against a reference measured in the same process: the manifest's CSV file of the
 * same bookings (no PDF, no barcodes), so a slower or busier machine moves both.
 */
import { join } from 'node:path';
import { sampleBooking, sampleParty, samplePrintSettings } from '../fakes/label-bookings.js';
import { renderLabels } from '../src/labels/label.js';
import { buildManifest, lineOfBooking, manifestCsv, renderManifest } from '../src/labels/manifest.js';
import { epochMs, median, readMemory, repoRoot, spawnTs } from './lib.js';

export interface LabelsReport {
  kind: 'labels' | 'manifest';
  bookings: number;
  pages: number;
  /** The PDF's size, kB. */
  kilobytes: number;
  /** The first PDF of the process: the libraries and the font loaded, then the work. */
  firstMs: number;
  /** The same work again, libraries loaded (the median of three). */
  ms: number;
  /** The CSV of the same bookings' manifest, the reference (median of three). */
  csvMs: number;
  /** Peak RSS of the process, MB, and its RSS before the first PDF. */
  peakRssMB: number;
  startRssMB: number;
}

function bookings(n: number) {
  return Array.from({ length: n }, (_, i) =>
    sampleBooking(
      `WB${String(i + 1).padStart(6, '0')}`,
      i % 4 === 0 ? { shipperCode: '', shipper: sampleParty(`Shipper ${i % 7}`, 'Naga') } : {},
    ),
  );
}

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const begun = epochMs();
  await work();
  return epochMs() - begun;
}

/** The child: one kind of PDF for n bookings. */
async function measure(kind: LabelsReport['kind'], n: number): Promise<LabelsReport> {
  const start = readMemory(process.pid);
  const items = bookings(n);
  const manifest = () =>
    buildManifest(
      '2026-11-23',
      items.map((b) => lineOfBooking(b, 'COD')),
      [],
    );
  const make = () =>
    kind === 'labels'
      ? renderLabels(
          items.map((booking) => ({ booking })),
          samplePrintSettings,
        )
      : renderManifest(manifest(), { currency: 'PHP', live: false, madeAt: '2026-11-23 08:00' });
  let pdf: Uint8Array | undefined;
  const firstMs = await timed(async () => {
    pdf = (await make()).pdf;
  });
  const runs: number[] = [];
  const csvRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    runs.push(await timed(make));
    csvRuns.push(await timed(() => manifestCsv(manifest())));
  }
  const end = readMemory(process.pid);
  const mb = (mib: number | undefined) => Math.round((mib ?? Number.NaN) * 1.048576 * 10) / 10;
  return {
    kind,
    bookings: n,
    pages: (
      Buffer.from(pdf ?? [])
        .toString('latin1')
        .match(/\/Type \/Page\b/g) ?? []
    ).length,
    kilobytes: Math.round((pdf?.length ?? 0) / 1000),
    firstMs: Math.round(firstMs),
    ms: Math.round(median(runs)),
    csvMs: Math.round(median(csvRuns) * 10) / 10,
    peakRssMB: mb(end?.hwmMiB),
    startRssMB: mb(start?.rssMiB),
  };
}

/** Each measurement in a process of its own (with `npm start`'s node options), one after the other. */
export async function benchLabels(counts: readonly number[]): Promise<LabelsReport[]> {
  const reports: LabelsReport[] = [];
  for (const kind of ['labels', 'manifest'] as const) {
    for (const n of counts) {
      const child = spawnTs(join(repoRoot, 'bench/labels.ts'), {
        env: process.env,
        asStarted: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
      child.stdin?.end(JSON.stringify({ kind, n }));
      const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      clearTimeout(killer);
      if (code !== 0)
        throw new Error(
          `labels bench (${kind}, ${n}) exited with ${code}: ${Buffer.concat(err).toString('utf8').slice(-2000)}`,
        );
      reports.push(JSON.parse(Buffer.concat(out).toString('utf8')) as LabelsReport);
    }
  }
  return reports;
}

if (process.argv[1]?.endsWith('labels.ts')) {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const { kind, n } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    kind: LabelsReport['kind'];
    n: number;
  };
  process.stdout.write(JSON.stringify(await measure(kind, n)));
}
