/**
 * The real entry point with a 64 MB heap exporting a year of 30,000 audit rows: streamed to Slack, every line
 * once in order, other commands answered meanwhile.
 */
// A year's export larger than the bot's heap: the real entry point with a small --max-old-space-size streams it to Slack, and keeps answering meanwhile.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, expect, it } from 'vitest';
import { auditTrackingNumber, everyTenthAQuote, seedAuditRows } from '../fakes/audit-rows.js';
import { postToApp } from '../fakes/post-to-app.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { slashCommandBody } from '../fakes/slack-requests.js';
import { killStarted, startServingBot } from './support/bot-process.js';
import { sampleBooking } from './support/wire-samples.js';

const secrets = { SLACK_BOT_TOKEN: 'xoxb-export-SECRET-1', SLACK_SIGNING_SECRET: 'export-signing-SECRET-2' };
/**
 * About 40 MB of audit rows as stored: an export holding them all, as objects or as one CSV string, does
 * not fit the heap (both tried: each fails here); a streamed one needs no more memory for more rows.
 */
const ROWS = 30_000;
const HEAP_MB = 64;

let fake: FakeSlack | undefined;

afterEach(async () => {
  killStarted();
  await fake?.close();
  fake = undefined;
});

/** A store with ROWS audit lines through 2026, each with its request as the courier got it (~1.3 KB). */
async function bigStore(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'waybill-export-')), 'bot.sqlite');
  await seedAuditRows(
    { path },
    {
      count: ROWS,
      from: new Date('2026-01-01T00:00:00Z'),
      days: 360,
      request: (trackingNumber, i) => ({
        ...sampleBooking(trackingNumber),
        consigneeName: i % 7 ? `Receiver ${i}` : '-(1)-(2)',
      }),
    },
  );
  return path;
}

it(`exports a year of ${ROWS} audit rows with a ${HEAP_MB} MB heap, streamed to Slack, and answers others meanwhile`, async () => {
  const path = await bigStore();
  fake = await startFakeSlack();
  const bot = await startServingBot({
    ...secrets,
    SLACK_API_URL: fake.apiUrl,
    DATABASE_PATH: path,
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
  });
  const url = `${bot.origin}/slack/events`;
  const command = (text: string) =>
    postToApp(url, secrets.SLACK_SIGNING_SECRET, slashCommandBody({ command: '/waybill', text, fake }));

  const started = await command('export 2026-01-01..2026-12-31');
  expect(started.status).toBe(200);
  expect(started.body.text).toContain('Exporting 2026-01-01 to 2026-12-31');
  // Another dispatcher while the export runs: answered before the export is done.
  const help = await command('help');
  expect(help.status).toBe(200);
  expect(fake.callsTo('files.completeUploadExternal')).toEqual([]);

  await fake.waitFor('files.completeUploadExternal', undefined, { timeoutMs: 120_000 });
  const [upload] = fake.uploadsCompleted();
  expect(upload?.filename).toBe('waybills-2026-01-01-to-2026-12-31.csv');
  const booked = Array.from({ length: ROWS }, (_, i) => everyTenthAQuote(i)).filter(
    (op) => op === 'book',
  ).length;
  expect(upload?.initialComment).toContain(`: ${booked} lines.`);
  const rows = parse(upload?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(booked);
  expect(rows[0]).toMatchObject({
    tracking_number: auditTrackingNumber(0),
    receiver_name: "'-(1)-(2)",
    operation: 'book',
  });
  // The last line is a quote (ROWS is a multiple of 10): the last booking is the one before.
  expect(rows.at(-1)?.tracking_number).toBe(auditTrackingNumber(ROWS - 2));
  // Oldest first, each once.
  expect(new Set(rows.map((row) => row.tracking_number)).size).toBe(booked);
  expect(bot.lines.some((line) => /heap out of memory|"level":50/.test(line))).toBe(false);
  bot.proc.kill('SIGTERM');
  expect(await bot.exited).toBe(0);
}, 180_000);
