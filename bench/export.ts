/** The bench's export: a year of a big audit trail (SQLite, or the big store on each backend) through `/waybill export`, its time and peak memory, and /quote acks before and during it. */
import { join } from 'node:path';
import { type AuditRows, auditTrackingNumber, everyTenthAQuote, seedAuditRows } from '../fakes/audit-rows.js';
import { slashCommandBody } from '../fakes/slack-requests.js';
import { type Backend, type BenchDatabase, benchDatabase } from './databases.js';
import { CHANNEL, quoteCommand } from './fixtures.js';
import { epochMs, type LoadResult, type Summary, summarize, type TargetCheck } from './lib.js';
import type { Context } from './phases.js';
import {
  botEnv,
  burstsWhile,
  log,
  okAcks,
  runLoad,
  startProcess,
  stopProcess,
  waitUntil,
} from './processes.js';

/** Issue 21's targets for a year's export of the big store (1,000,000 audit lines): time, memory, and acks meanwhile. */
const TARGET_EXPORT_MS = 30_000;
const TARGET_PEAK_RSS_MB = 200;
const TARGET_ACK_DURING_P99_MS = 1000;

/** /quote commands sent at once, before the export and again and again while it runs. */
const BURST = 50;
const EXPORT_WAIT_MS = 300_000;

/** A store holding the audit lines to export, and what else is in it. */
export interface ExportStore {
  backend: Backend;
  database: BenchDatabase;
  auditRows: number;
  /** Bookings and saved parties beside the audit lines (the big store), and the time it took to write them all. */
  bookings: number;
  parties: number;
  seedMs: number;
}

export interface ExportReport extends Omit<ExportStore, 'database'> {
  /** Lines the file should have (the bookings among them) and the lines it has. */
  expectedLines: number;
  lines: number;
  /** The command sent → files.completeUploadExternal at the fake Slack. */
  exportMs: number | null;
  idleRssMB: number;
  peakRssMB: number;
  /** /quote acks of one burst with no export, and of every burst that ended while the export ran. */
  ackBefore: Summary;
  ackDuring: Summary;
  notes: string[];
}

/** A booking request as the courier got it, about 1 KB of JSON as the bot stores it. */
export function courierRequest(trackingNumber: string, i: number) {
  return {
    trackingNumber,
    ServiceType: 'DOOR_TO_DOOR',
    paymentMethod: 'COD',
    codAmount: `${1000 + (i % 5000)}.50`,
    declaredValue: '2000.00',
    quantity: 1,
    PackageWeight: 2.5,
    pickupDate: '2026-11-25 09:00:00',
    expectedDeliveryDate: '2026-11-26 17:00:00',
    consigneeName: `Receiver ${i}`,
    consigneeAddress1: `${i} Rizal Avenue, Barangay Sto. Nino`,
    consigneeAddress2: 'Cebu City',
    consigneeCountry: 'PH',
    consigneePhone: '+639171234567',
    shipperName: 'Acme Trading',
    shipperAddress1: '12 Shaw Boulevard',
    shipperAddress2: 'Pasig',
    merchantName: 'Acme Trading',
    itemDescription: `Order ${i}: kitchen scales, boxed`,
    referenceNumber1: `PO-${i}`,
    handlingInstructions: 'Fragile: handle with care, keep upright, do not stack more than three boxes high',
  };
}

/** `count` lines over 2026's first 360 days, nine in ten of them bookings. */
export const auditLinesOf2026 = (count: number): AuditRows => ({
  count,
  from: new Date('2026-01-01T00:00:00Z'),
  days: 360,
  request: courierRequest,
});

/** A SQLite store of `auditRows` audit lines and nothing else: the export's own, when the big store is not asked for. */
export async function auditTrailStore(ctx: Context, auditRows: number): Promise<ExportStore> {
  log(`export: writing ${auditRows} audit lines through 2026`);
  const database = await benchDatabase('SQLite', ctx.tmp, 'export');
  const begun = epochMs();
  await seedAuditRows(database.target, auditLinesOf2026(auditRows));
  return {
    backend: 'SQLite',
    database,
    auditRows,
    bookings: 0,
    parties: 0,
    seedMs: Math.round(epochMs() - begun),
  };
}

export async function benchExport(ctx: Context, store: ExportStore): Promise<ExportReport> {
  const { fake, arrivals } = ctx;
  const { database, ...seeded } = store;
  const { auditRows } = store;
  fake.reset();
  arrivals.clear();
  const notes: string[] = [];
  const expectedLines = Array.from({ length: auditRows }, (_, i) => everyTenthAQuote(i)).filter(
    (operation) => operation === 'book',
  ).length;
  const started = await startProcess(
    'dist/app.js',
    (port) => botEnv(port, database.env, 0, fake.apiUrl),
    join(ctx.tmp, `export-${store.backend}.log`),
  );
  const target = { name: 'export', urls: [started.url] };
  const burst = (tag: string) => Array.from({ length: BURST }, (_, i) => quoteCommand(fake, tag, i));
  const uploaded = () => fake.callsTo('files.completeUploadExternal')[0];
  let exportMs: number | null = null;
  let lines = 0;
  let ackBefore: LoadResult[] = [];
  let peakRssMB = Number.NaN;
  let ackDuring: LoadResult[] = [];
  try {
    ackBefore = (await runLoad(target, burst('exb'))).results;
    log(
      `export (${store.backend}): /waybill export 2026-01-01..2026-12-31, with bursts of /quote while it runs`,
    );
    const command = {
      key: 'export',
      body: slashCommandBody({
        command: '/waybill',
        text: 'export 2026-01-01..2026-12-31',
        user_id: 'UBENCHEXPORT',
        channel_id: CHANNEL,
        response_url: fake.responseUrl('commands/export'),
      }),
    };
    const sentAt = (await runLoad(target, [command])).results[0]?.sentAt ?? Number.NaN;
    ackDuring = await burstsWhile(
      target,
      (round) => burst(`exd${round}`),
      () => !uploaded(),
    );
    await waitUntil(() => uploaded() !== undefined, EXPORT_WAIT_MS);
    const done = uploaded();
    if (done) {
      exportMs = Math.round((arrivals.get(done) ?? Number.NaN) - sentAt);
      const text = fake.uploadsCompleted()[0]?.text ?? '';
      // Header and a final line end: the lines of the file less those two.
      lines = text.split('\r\n').length - 2;
      if (!text.includes(auditTrackingNumber(auditRows - 2)))
        notes.push('the last booking is not in the file');
    } else {
      notes.push(`the export was not uploaded within ${EXPORT_WAIT_MS / 1000} s`);
    }
    if (ackDuring.length === 0) notes.push('the export finished before a burst of /quote did');
  } finally {
    const stopped = await stopProcess(started, 5000);
    if (stopped.warnOrErrorLogLines > 0) notes.push(`${stopped.warnOrErrorLogLines} warn/error log lines`);
    peakRssMB = stopped.peakRssMB;
  }
  return {
    ...seeded,
    expectedLines,
    lines,
    exportMs,
    idleRssMB: started.idleRssMB,
    peakRssMB,
    ackBefore: summarize(okAcks(ackBefore)),
    ackDuring: summarize(okAcks(ackDuring)),
    notes,
  };
}

/** Each export against the targets; met or not only on a store of the big store's size. */
export function exportTargets(exported: ExportReport[]): TargetCheck[] {
  return exported.flatMap((e) => {
    const judged = e.auditRows >= 1_000_000;
    const where = `365 days, ${e.auditRows} audit lines, ${e.backend}`;
    return [
      {
        target: `export <= ${TARGET_EXPORT_MS / 1000} s, ${where}`,
        figure: e.exportMs === null ? 'not uploaded' : `${Math.round(e.exportMs / 100) / 10} s`,
        met: judged ? e.exportMs !== null && e.exportMs <= TARGET_EXPORT_MS : null,
      },
      {
        target: `export peak RSS <= ${TARGET_PEAK_RSS_MB} MB, ${where}`,
        figure: `${e.peakRssMB} MB`,
        met: judged ? e.peakRssMB <= TARGET_PEAK_RSS_MB : null,
      },
      {
        target: `/quote ack p99 during the export < ${TARGET_ACK_DURING_P99_MS / 1000} s, ${where}`,
        figure: e.ackDuring.p99 === null ? 'no burst during it' : `${e.ackDuring.p99} ms`,
        met: judged ? e.ackDuring.p99 !== null && e.ackDuring.p99 < TARGET_ACK_DURING_P99_MS : null,
      },
    ];
  });
}
