/** The bench's bulk booking: one CSV file, from `/book import` to the results file, on one bot or two replicas sharing its rows. */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ids } from '../fakes/ids.js';
import type { FakeCall } from '../fakes/slack-fake.js';
import { interactiveBody, slashCommandBody, viewSubmissionPayload } from '../fakes/slack-requests.js';
import { stateFor } from '../fakes/view-state.js';
import { type Backend, benchDatabase } from './databases.js';
import { CHANNEL } from './fixtures.js';
import { cpuMsOfAll } from './lib.js';
import type { Context } from './phases.js';
import { botEnv, log, runLoad, type Started, startProcess, stopProcess, waitUntil } from './processes.js';
import { type Json, viewOf } from './slack-calls.js';

/** Caps: the check, and booking every row (each a courier call and a transaction). */
const CHECK_WAIT_MS = 60_000;
const BOOK_WAIT_MS = 300_000;
const USER = 'UBENCHBULK';

/** One bulk run: the file's size, where the bot keeps its data, how many replicas share the rows, how slow the courier is. */
export interface BulkSetup {
  rows: number;
  backend: Backend;
  replicas: number;
  latencyMs: number;
}

export interface BulkReport extends BulkSetup {
  name: string;
  /** "Check file" sent → the summary in the modal: download, read and check every row. */
  checkMs: number | null;
  /** "Book N rows" sent → the results file shared: every row booked, the card, its thread, the file. */
  bookMs: number | null;
  rowsPerSecond: number | null;
  /** CPU the bot processes spent from "Book N rows" to the results file, per row (all replicas): what bounds rows/s on busy cores. */
  cpuMsPerRow: number | null;
  outcomes: Record<string, number>;
  peakRssMB: number;
  warnOrErrorLogLines: number;
  notes: string[];
}

/** A file of distinct, valid bookings, the sender from the sandbox's example profile. */
function bookingsFile(rows: number): string {
  const header =
    'receiver_name,receiver_phone,receiver_street,receiver_city,receiver_postal,receiver_country,item_description,payment_method,cod_amount,package_type,package_weight,package_length,package_width,package_height,operator_contact_number,reference1,sender_profile';
  const lines = Array.from(
    { length: rows },
    (_, i) =>
      `Receiver ${i + 1},0917 123 ${String(4000 + i).padStart(4, '0')},${i + 1} Rizal Ave,Cebu City,6000,PH,Order ${i + 1},COD,${1000 + i}.50,BOX,${(1 + (i % 20) / 4).toFixed(2)},40,30,20,+63 917 555 0100,PO-${i + 1},pasig-warehouse`,
  );
  return `${[header, ...lines].join('\r\n')}\r\n`;
}

/** The submission of a modal the bot showed: its blocks, with `typed` in its inputs. */
export function submission(call: FakeCall, viewId: string, typed: Record<string, string>, user = USER) {
  const view = viewOf(call);
  const answered = ((call.response?.body as Json | undefined)?.view ?? {}) as Json;
  const blocks = (view.blocks ?? []) as Json[];
  return interactiveBody(
    viewSubmissionPayload({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata ?? ''),
      viewId,
      hash: String(answered.hash ?? 'h1'),
      // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
      blocks: blocks as any[],
      // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
      stateValues: stateFor(blocks as any[], typed),
      user,
    }),
  );
}

/**
 * One bot (or two replicas on one PostgreSQL database), the courier answering after `latencyMs`
 * (each replica's embedded sandbox): a file checked, then booked, timed from the requests.
 */
export async function benchBulk(ctx: Context, setup: BulkSetup): Promise<BulkReport> {
  const { fake, arrivals } = ctx;
  const { rows } = setup;
  const name = `bulk ${rows} rows, ${setup.backend}, ${setup.replicas === 1 ? '1 bot' : `${setup.replicas} replicas`}, courier ${setup.latencyMs} ms`;
  fake.reset();
  arrivals.clear();
  const tag = `bulk-${setup.backend}-${setup.replicas}`.toLowerCase();
  const database = await benchDatabase(setup.backend, ctx.tmp, tag);
  const processes: Started[] = [];
  try {
    for (let i = 0; i < setup.replicas; i += 1) {
      const envFor = (port: number) => ({
        ...botEnv(port, database.env, setup.latencyMs, fake.apiUrl),
        BULK_MAX_ROWS: String(Math.max(rows, 500)),
        BULK_MAX_FILE_MB: '5',
      });
      processes.push(await startProcess('dist/app.js', envFor, join(ctx.tmp, `${tag}-${i}.log`)));
    }
    return await bookFile(ctx, setup, name, processes);
  } finally {
    await database.drop();
  }
}

async function bookFile(
  ctx: Context,
  setup: BulkSetup,
  name: string,
  processes: Started[],
): Promise<BulkReport> {
  const { fake, arrivals } = ctx;
  const { rows } = setup;
  const target = { name, urls: processes.map((p) => p.url) };
  const notes: string[] = [];
  const file = fake.addFile({ name: 'bench-orders.csv', content: bookingsFile(rows), user: USER });
  const found = (method: string, match: (call: FakeCall) => boolean) =>
    fake.calls.find((call) => call.method === method && match(call));

  log(`${name}: /book import, the file checked`);
  await runLoad(target, [
    {
      key: 'bulk.command',
      body: slashCommandBody({
        command: '/book',
        text: 'import',
        user_id: USER,
        channel_id: CHANNEL,
        trigger_id: 'trigger.bulk',
        response_url: fake.responseUrl('commands/bulk'),
      }),
    },
  ]);
  await waitUntil(
    () => found('views.open', (c) => c.body.trigger_id === 'trigger.bulk') !== undefined,
    10_000,
  );
  const opened = found('views.open', (c) => c.body.trigger_id === 'trigger.bulk');
  const viewId = String((((opened?.response?.body as Json | undefined)?.view ?? {}) as Json).id ?? '');
  const summaryOf = (c: FakeCall) => c.body.view_id === viewId && viewOf(c).callback_id === ids.bulkConfirm;
  let checkMs: number | null = null;
  let bookMs: number | null = null;
  let cpuMsPerRow: number | null = null;
  if (opened) {
    const checkLoad = await runLoad(target, [
      { key: 'bulk.check', body: submission(opened, viewId, { file: file.id }) },
    ]);
    await waitUntil(() => found('views.update', summaryOf) !== undefined, CHECK_WAIT_MS);
    const summary = found('views.update', summaryOf);
    const checkSent = checkLoad.results[0]?.sentAt;
    if (summary && checkSent !== undefined) checkMs = (arrivals.get(summary) ?? Number.NaN) - checkSent;
    if (summary) {
      log(`${name}: Book ${rows} rows`);
      const cpu = () => cpuMsOfAll(processes.map((p) => p.pid));
      const cpuBefore = cpu();
      const bookLoad = await runLoad(target, [{ key: 'bulk.book', body: submission(summary, viewId, {}) }]);
      const uploaded = () => found('files.completeUploadExternal', (c) => c.response?.status === 200);
      await waitUntil(() => uploaded() !== undefined, BOOK_WAIT_MS);
      const done = uploaded();
      cpuMsPerRow = Math.round(((cpu() - cpuBefore) / rows) * 100) / 100;
      const bookSent = bookLoad.results[0]?.sentAt;
      if (done && bookSent !== undefined) bookMs = (arrivals.get(done) ?? Number.NaN) - bookSent;
    } else {
      notes.push('the summary never reached the modal');
    }
  } else {
    notes.push('the import modal never opened');
  }
  const stopped = await Promise.all(processes.map((started) => stopProcess(started, 25_000)));
  const results = parse(fake.uploadsCompleted().at(-1)?.text ?? '', { bom: true, columns: true }) as {
    outcome: string;
  }[];
  const outcomes: Record<string, number> = {};
  for (const result of results) outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
  if (outcomes.booked !== rows) notes.push(`${outcomes.booked ?? 0} of ${rows} rows booked`);
  return {
    ...setup,
    name,
    checkMs: checkMs === null ? null : Math.round(checkMs),
    bookMs: bookMs === null ? null : Math.round(bookMs),
    cpuMsPerRow: Number.isFinite(cpuMsPerRow) ? cpuMsPerRow : null,
    rowsPerSecond: bookMs ? Math.round((rows / bookMs) * 1000 * 10) / 10 : null,
    outcomes,
    peakRssMB: Math.max(...stopped.map((s) => s.peakRssMB)),
    warnOrErrorLogLines: stopped.reduce((sum, s) => sum + s.warnOrErrorLogLines, 0),
    notes,
  };
}
