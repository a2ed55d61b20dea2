/** The bench's COD remittance: a 5,000-line file against 5,000 COD bookings, from `/waybill remittance` to the outstanding list. */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FakeCall } from '../fakes/slack-fake.js';
import { slashCommandBody } from '../fakes/slack-requests.js';
import { loadBotConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import { submission } from './bulk.js';
import { CHANNEL } from './fixtures.js';
import type { Context } from './phases.js';
import { botEnv, log, runLoad, startProcess, stopProcess, waitUntil } from './processes.js';
import type { Json } from './slack-calls.js';

export const REMITTANCE_LINES = 5000;
const WAIT_MS = 120_000;
const USER = 'UBENCHCOD';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RemittanceReport {
  lines: number;
  /** "Reconcile" sent → the results file shared: download, read, match, record, the card. */
  resultsMs: number | null;
  /** → the outstanding list's file shared too. */
  outstandingMs: number | null;
  linesPerSecond: number | null;
  outcomes: Record<string, number>;
  peakRssMB: number;
  warnOrErrorLogLines: number;
  notes: string[];
}

/** `lines` COD bookings of 1,000.50 and up, half of them 10 days old, written before the bot starts. */
async function seedBookings(env: NodeJS.ProcessEnv, lines: number): Promise<void> {
  const store = await openStore({ ...loadBotConfig(env).database, leaseRenewMs: 0 });
  try {
    const now = Date.now();
    for (let i = 0; i < lines; i += 1) {
      const trackingNumber = `COD${String(i).padStart(6, '0')}`;
      await store.bookings.insert({
        trackingNumber,
        trackingRefNo: `R${i}`,
        record: {
          trackingNumber,
          paymentMethod: 'COD',
          codAmount: `${1000 + (i % 500)}.50`,
          consignee: { name: `Receiver ${i}` },
        },
        channelId: CHANNEL,
        bookedBy: USER,
        bookedAt: new Date(now - (i % 2 === 0 ? 10 : 1) * DAY_MS),
      });
    }
  } finally {
    await store.close();
  }
}

/**
 * The courier's file: every booking but one in 50 (those stay outstanding), one in 10 short by
 * a centavo, amounts written as couriers do (`PHP 1,000.50`).
 */
function remittanceFile(lines: number): string {
  const rows: string[] = [];
  for (let i = 0; i < lines; i += 1) {
    if (i % 50 === 49) continue;
    const cents = (1000 + (i % 500)) * 100 + 50 - (i % 10 === 0 ? 1 : 0);
    const amount = `${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
    rows.push(`COD${String(i).padStart(6, '0')},"PHP ${amount}",2026-11-20,delivered`);
  }
  return `${['tracking_number,amount,remitted_at,status', ...rows].join('\r\n')}\r\n`;
}

/** One bot: the file reconciled, timed from the request to each shared file. */
export async function benchRemittance(ctx: Context, lines = REMITTANCE_LINES): Promise<RemittanceReport> {
  const { fake, arrivals } = ctx;
  const name = `COD remittance, ${lines} bookings`;
  fake.reset();
  arrivals.clear();
  const envFor = (port: number) =>
    botEnv(
      port,
      { DATABASE_PATH: join(ctx.tmp, 'remittance.sqlite'), BULK_MAX_FILE_MB: '5' },
      0,
      fake.apiUrl,
    );
  log(`${name}: seeding the bookings`);
  await seedBookings(envFor(0), lines);
  const started = await startProcess('dist/app.js', envFor, join(ctx.tmp, 'remittance.log'));
  const target = { name, urls: [started.url] };
  const notes: string[] = [];
  const file = fake.addFile({ name: 'bench-remittance.csv', content: remittanceFile(lines), user: USER });
  const found = (method: string, match: (call: FakeCall) => boolean) =>
    fake.calls.find((call) => call.method === method && match(call));
  const uploads = () =>
    fake.calls.filter((c) => c.method === 'files.completeUploadExternal' && c.response?.status === 200);

  log(`${name}: /waybill remittance, the file reconciled`);
  await runLoad(target, [
    {
      key: 'remittance.command',
      body: slashCommandBody({
        command: '/waybill',
        text: 'remittance',
        user_id: USER,
        channel_id: CHANNEL,
        trigger_id: 'trigger.remittance',
        response_url: fake.responseUrl('commands/remittance'),
      }),
    },
  ]);
  await waitUntil(
    () => found('views.open', (c) => c.body.trigger_id === 'trigger.remittance') !== undefined,
    10_000,
  );
  const opened = found('views.open', (c) => c.body.trigger_id === 'trigger.remittance');
  const viewId = String((((opened?.response?.body as Json | undefined)?.view ?? {}) as Json).id ?? '');
  let resultsMs: number | null = null;
  let outstandingMs: number | null = null;
  if (opened) {
    const load = await runLoad(target, [
      { key: 'remittance.reconcile', body: submission(opened, viewId, { file: file.id }, USER) },
    ]);
    await waitUntil(() => uploads().length >= 2, WAIT_MS);
    const [results, outstanding] = uploads();
    const sent = load.results[0]?.sentAt;
    if (sent !== undefined && results) resultsMs = (arrivals.get(results) ?? Number.NaN) - sent;
    if (sent !== undefined && outstanding) outstandingMs = (arrivals.get(outstanding) ?? Number.NaN) - sent;
    if (!outstanding) notes.push('the outstanding list never arrived');
  } else {
    notes.push('the remittance modal never opened');
  }
  const stopped = await stopProcess(started, 25_000);
  const rows = parse(fake.uploadsCompleted()[0]?.text ?? '', { bom: true, columns: true }) as {
    outcome: string;
  }[];
  const outcomes: Record<string, number> = {};
  for (const row of rows) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + 1;
  const expected = lines - Math.floor(lines / 50);
  if (rows.length !== expected) notes.push(`${rows.length} of ${expected} lines in the results file`);
  return {
    lines,
    resultsMs: resultsMs === null ? null : Math.round(resultsMs),
    outstandingMs: outstandingMs === null ? null : Math.round(outstandingMs),
    linesPerSecond: resultsMs ? Math.round((expected / resultsMs) * 1000) : null,
    outcomes,
    peakRssMB: stopped.peakRssMB,
    warnOrErrorLogLines: stopped.warnOrErrorLogLines,
    notes,
  };
}
