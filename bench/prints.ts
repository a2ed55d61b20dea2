/**
 * The bench's prints under load: two dispatchers print a 999-parcel booking's labels while a third asks
 * for a 2,000-booking pickup manifest, and other people's /quote acks are measured before and meanwhile.
 */
import { join } from 'node:path';
import { sampleBooking } from '../fakes/label-bookings.js';
import { slashCommandBody } from '../fakes/slack-requests.js';
import { loadBotConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import { CHANNEL, quoteCommand } from './fixtures.js';
import { type Summary, summarize, type TargetCheck } from './lib.js';
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

/** The goal: other people's acks while the prints run. */
const TARGET_ACK_DURING_P99_MS = 1000;
const BURST = 50;
const WAIT_MS = 300_000;
/** The day every seeded booking is picked up (sampleBooking's, in the bench's UTC). */
const DAY = '2026-11-23';
const LABELS = 'PRINT0000999';

export interface PrintsReport {
  parcels: number;
  manifestBookings: number;
  /** Pages of each labels PDF, and lines of the manifest's CSV (without its header). */
  labelPages: number[];
  manifestLines: number;
  /** The commands sent → each file shared (ms): the two labels PDFs, then the manifest's PDF and CSV. */
  labelsMs: (number | null)[];
  manifestMs: number | null;
  peakRssMB: number;
  ackBefore: Summary;
  ackDuring: Summary;
  notes: string[];
}

/** The booking to label and `manifestBookings` more picked up that day, written before the bot starts. */
async function seed(env: NodeJS.ProcessEnv, parcels: number, manifestBookings: number): Promise<void> {
  const store = await openStore({ ...loadBotConfig(env).database, leaseRenewMs: 0 });
  try {
    const numbers = [LABELS, ...Array.from({ length: manifestBookings - 1 }, (_, i) => `MAN${i}`)];
    for (const [i, trackingNumber] of numbers.entries()) {
      const booking = sampleBooking(trackingNumber, { quantity: String(i === 0 ? parcels : 1) });
      await store.bookings.insert({
        trackingNumber,
        trackingRefNo: `R${i}`,
        record: booking,
        channelId: CHANNEL,
        bookedBy: 'UBENCHPRINT',
        bookedAt: new Date(),
        pickupAt: booking.pickupAt,
      });
    }
  } finally {
    await store.close();
  }
}

const command = (ctx: Context, key: string, text: string, user: string) => ({
  key,
  body: slashCommandBody({
    command: '/waybill',
    text,
    user_id: user,
    channel_id: CHANNEL,
    response_url: ctx.fake.responseUrl(`commands/${key}`),
  }),
});

export async function benchPrints(
  ctx: Context,
  { parcels, manifestBookings }: { parcels: number; manifestBookings: number },
): Promise<PrintsReport> {
  const { fake, arrivals } = ctx;
  fake.reset();
  arrivals.clear();
  const envFor = (port: number) =>
    botEnv(port, { DATABASE_PATH: join(ctx.tmp, 'prints.sqlite') }, 0, fake.apiUrl);
  log(`prints: seeding a ${parcels}-parcel booking and ${manifestBookings} for the manifest`);
  await seed(envFor(0), parcels, manifestBookings);
  const started = await startProcess('dist/app.js', envFor, join(ctx.tmp, 'prints.log'));
  const target = { name: 'prints', urls: [started.url] };
  const burst = (tag: string) => Array.from({ length: BURST }, (_, i) => quoteCommand(fake, tag, i));
  const uploads = () => fake.callsTo('files.completeUploadExternal');
  const notes: string[] = [];
  const ackBefore = (await runLoad(target, burst('prb'))).results;
  log(`prints: two /waybill label of ${parcels} pages and /waybill manifest ${DAY}, /quote bursts meanwhile`);
  const sent = await runLoad(target, [
    command(ctx, 'print.1', `label ${LABELS}`, 'UPRINT1'),
    command(ctx, 'print.2', `label ${LABELS}`, 'UPRINT2'),
    command(ctx, 'manifest', `manifest ${DAY}`, 'UPRINT3'),
  ]);
  const sentAt = Math.min(...sent.results.map((r) => r.sentAt));
  // Every burst begun before the last file was shared: one the prints held up counts, however long it waited.
  const printing = () => uploads().length < 4;
  const ackDuring = await burstsWhile(target, (round) => burst(`prd${round}`), printing, { begun: true });
  const unanswered = ackDuring.length - okAcks(ackDuring).length;
  if (unanswered > 0) notes.push(`${unanswered} /quote acks failed or took over 15 s`);
  if (!(await waitUntil(() => !printing(), WAIT_MS))) notes.push('not every file was shared');
  const stopped = await stopProcess(started, 10_000);
  if (stopped.warnOrErrorLogLines > 0) notes.push(`${stopped.warnOrErrorLogLines} warn/error log lines`);
  if (ackDuring.length === 0) notes.push('the prints finished before a burst of /quote did');
  const files = fake.uploadsCompleted();
  /** The command sent → the file's completeUploadExternal, ms. */
  const msTo = (fileId: string | undefined) => {
    const call = fileId ? uploads().find((c) => JSON.stringify(c.body).includes(fileId)) : undefined;
    return call ? Math.round((arrivals.get(call) ?? Number.NaN) - sentAt) : null;
  };
  const labels = files.filter((f) => f.filename === `labels-${LABELS}.pdf`);
  const labelPages = labels.map((f) => (f.text.match(/\/Type \/Page\b/g) ?? []).length);
  if (labelPages.length !== 2 || labelPages.some((pages) => pages !== parcels))
    notes.push(`labels PDFs of ${labelPages.join(', ') || 'no'} pages, ${parcels} expected`);
  const csv = files.find((f) => f.filename === `pickup-${DAY}.csv`);
  const manifestLines = (csv?.text ?? '').split('\r\n').filter((line) => line.startsWith('booked,')).length;
  if (manifestLines !== manifestBookings)
    notes.push(`${manifestLines} of ${manifestBookings} bookings in the manifest`);
  return {
    parcels,
    manifestBookings,
    labelPages,
    manifestLines,
    labelsMs: labels.map((f) => msTo(f.fileId)),
    manifestMs: msTo(csv?.fileId),
    peakRssMB: stopped.peakRssMB,
    ackBefore: summarize(okAcks(ackBefore)),
    ackDuring: summarize(okAcks(ackDuring)),
    notes,
  };
}

export function printsTargets(report: PrintsReport | undefined): TargetCheck[] {
  if (!report) return [];
  const { p99 } = report.ackDuring;
  return [
    {
      target: `/quote ack p99 during two ${report.parcels}-page prints and a ${report.manifestBookings}-booking manifest < ${TARGET_ACK_DURING_P99_MS / 1000} s`,
      figure: p99 === null ? 'no burst during them' : `${p99} ms`,
      met: p99 !== null && p99 < TARGET_ACK_DURING_P99_MS,
    },
  ];
}
