/**
 * Bulk booking end to end on both backends: `/book import`, the file downloaded with the bot's token, a clean
 * file, errors in several rows, a courier refusal and an unknown outcome mid-file, a courier answering 429
 * (slowed down, no row refused), re-runs that book no row twice, a double click, unreadable and oversized
 * files, its own permission; the token never sent outside Slack's file hosts, another person's file refused,
 * stalled, trickling and cut-off downloads told plainly at the check and at the booking; card, thread and
 * results file; places kept by their official names.
 */
// Bulk booking end to end: /book import, the file input submitted, the file downloaded and results uploaded through the fake Slack, the sandbox courier.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { FakeFile } from '../../fakes/slack-fake.js';
import { describeEachBackend } from '../store/backends.js';
import {
  secrets,
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';
import { bulkFile, bulkHeader, bulkRow } from '../support/bulk-file.js';

/** A host that is not Slack's, on loopback: it records every request it gets and answers with a CSV. */
async function otherHost() {
  const received: { url: string | undefined; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    received.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { 'Content-Type': 'text/csv' });
    res.end(bulkFile(bulkRow('Ana Cruz')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}/files-pri/T0001-F0001/download/orders.csv`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);

let bot: TestBot;

/** `/book import`, the file chosen, Check file: the summary as the modal then shows it. */
async function check(content: string | Uint8Array, name = 'orders.csv'): Promise<View> {
  return checkFile(bot.fake.addFile({ name, content }));
}

async function checkFile(file: FakeFile): Promise<View> {
  await bot.command('/book', 'import');
  const modal = await bot.openedView();
  expect(modal.callback_id).toBe(ids.bulkImport);
  const ack = await bot.submit(modal, { file: file.id });
  expect(textOf(ack.body.view)).toContain('Checking');
  await bot.idle();
  return bot.updatedView(
    modal.id,
    (view) => view.callback_id === ids.bulkConfirm || textOf(view).includes(':warning:'),
  );
}

/** Book N rows, and everything that follows: the results file as rows, and the card's thread. */
async function confirm(summary: View) {
  const ack = await bot.submit(summary);
  expect(textOf(ack.body.view)).toMatch(/Booking \*orders\.csv\*: 0 of \d+/);
  await bot.idle();
  const finished = await bot.updatedView(summary.id, (view) => textOf(view).includes(':checkered_flag:'));
  const uploads = bot.fake.uploadsCompleted();
  const results = parse(uploads.at(-1)?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
  return { finished, results, upload: uploads.at(-1) };
}

const booked = () => bot.sandbox.received.filter((request) => request.operation === 'book');

describeEachBackend(import.meta.filename, 'bulk booking', (backend) => {
  const startTestBot = (options: TestBotOptions = {}) => startBot({ backend, ...options });

  afterEach(async () => {
    await bot?.stop();
  });

  it('a clean file: checked, then each row booked once, one card with each row in its thread, and a results file', async () => {
    // One row at a time, so the rows reach the courier in file order.
    bot = await startTestBot({ env: { BULK_CONCURRENCY: '1' } });
    const names = ['Ana Cruz', 'Ben <@U1> & Co', 'Cora Diaz'];
    const withBarangay = [
      `${bulkHeader},receiver_barangay`,
      ...names.map((name) => `${bulkRow(name)},Lahug`),
    ];
    const summary = await check(`${withBarangay.join('\r\n')}\r\n`);
    expect(textOf(summary.blocks)).toContain('3 rows ready to book');
    expect((summary.submit as { text?: string } | undefined)?.text).toBe('Book 3 rows');
    // The file was read with the bot's own token, once for the check.
    expect(bot.fake.downloads).toEqual([expect.objectContaining({ token: secrets.botToken })]);

    const { finished, results, upload } = await confirm(summary);
    expect(textOf(finished.blocks)).toContain('3 booked');
    expect(booked().map((request) => (request.body as { consigneeName: string }).consigneeName)).toEqual(
      names,
    );
    // The barangay in its one courier field, the row's and the sender profile's alike.
    for (const { body } of booked())
      expect(body).toMatchObject({ consigneeAddress4: 'Lahug', shipperAddress4: 'Bagong Ilog' });
    expect(results.map((r) => [r.row, r.tracking_number, r.outcome])).toEqual([
      ['2', 'WB000001', 'booked'],
      ['3', 'WB000002', 'booked'],
      ['4', 'WB000003', 'booked'],
    ]);
    for (const result of results) expect(result.courier_reference).not.toBe('');

    // Stored through the one booking path: the booking, its attempt and its audit entry.
    const stored = await bot.deps.store.bookings.get('WB000002');
    expect(stored).toMatchObject({ bookedBy: 'UDISPATCH', channelId: 'CDISPATCH' });
    expect((await bot.deps.store.audit.list({ operation: 'book' })).map((e) => e.outcome)).toEqual([
      'ok',
      'ok',
      'ok',
    ]);

    const card = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('Bulk booking'));
    expect(card.body.channel).toBe('CDISPATCH');
    expect(String(card.body.text)).toContain('3 booked');
    const cardTs = (card.response?.body as { ts?: string } | undefined)?.ts;
    const thread = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === cardTs);
    expect(thread).toHaveLength(1);
    const rows = textOf(thread[0]?.body.blocks);
    expect(rows).toContain('Row 3 `WB000002` Ben');
    expect(rows).not.toContain('<@U1>');
    expect(rows).toContain('&lt;@U1&gt;');
    expect(upload).toMatchObject({
      channelId: 'CDISPATCH',
      threadTs: cardTs,
      filename: 'results-orders.csv',
    });
  });

  it("a booking from a file has its import's thread: its statuses, changes and new owner go there, not to the channel's top", async () => {
    bot = await startTestBot({ env: { BULK_CONCURRENCY: '1' } });
    await confirm(await check(bulkFile(bulkRow('Ana Cruz'), bulkRow('Ben Reyes'))));
    const card = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('Bulk booking'));
    const cardTs = (card.response?.body as { ts?: string } | undefined)?.ts;
    bot.fake.reset();

    // Each post is awaited before the next command, as a dispatcher reads it: each is posted after its ack.
    const posted = (count: number) =>
      bot.fake.waitFor('chat.postMessage', (c) => c.body.channel === 'CDISPATCH', { count });
    await bot.command('/waybill', 'status WB000002 delivered');
    await posted(1);
    await bot.command('/waybill', 'assign WB000002 <@UANA>');
    await posted(2);
    await bot.command('/waybill', 'update WB000002');
    await bot.submit(await bot.openedView(), { handlingInstructions: 'Keep upright' });
    await bot.idle();

    const posts = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CDISPATCH');
    // Each names the booking, in the thread of the file's summary; nothing at the channel's top.
    expect(posts.map((c) => c.body.thread_ts)).toEqual([cardTs, cardTs, cardTs]);
    for (const post of posts) expect(textOf(post.body)).toContain('WB000002');
    expect(textOf(posts[0]?.body)).toContain('Delivered');
    expect(textOf(posts[2]?.body)).toContain('Keep upright');
  });

  it('places are kept by their official names: Paranaque, Bacoor, QC and a district of Manila as the list names them', async () => {
    bot = await startTestBot({ env: { BULK_CONCURRENCY: '1' } });
    const typed = [
      ['Paranaque', ''],
      ['Bacoor', ''],
      ['QC', 'socorro'],
      ['Manila', 'Sampaloc'],
    ] as const;
    const rows = typed.map(
      ([city, barangay]) => `${bulkRow('Ana Cruz').replace('Cebu City', city)},${barangay}`,
    );
    const summary = await check(`${[`${bulkHeader},receiver_barangay`, ...rows].join('\r\n')}\r\n`);
    expect(textOf(summary.blocks)).toContain('4 rows ready to book');
    await confirm(summary);
    expect(booked().map(({ body }) => body)).toMatchObject([
      { consigneeAddress2: 'City of Parañaque', consigneeAddress4: '' },
      { consigneeAddress2: 'City of Bacoor' },
      { consigneeAddress2: 'Quezon City', consigneeAddress4: 'Socorro' },
      { consigneeAddress2: 'City of Manila', consigneeAddress3: 'Sampaloc', consigneeAddress4: '' },
    ]);
    // Kept so, as cards, the report and exports read it.
    expect((await bot.deps.store.bookings.get('WB000002'))?.record).toMatchObject({
      consignee: { city: 'City of Bacoor' },
    });
  });

  it('a file with errors in several rows: every problem with row and column, the rest booked, the results say why', async () => {
    bot = await startTestBot();
    const summary = await check(
      bulkFile(
        bulkRow('Ana Cruz'),
        bulkRow('', { cod: '1500', weight: '-1', phone: '0918 555 020' }),
        bulkRow('Cora Diaz'),
        bulkRow('Dan Eng', { cod: '', weight: '2', phone: '0917 123 4567' }),
      ),
    );
    const shown = textOf(summary.blocks);
    expect(shown).toContain('2 rows ready to book');
    expect(shown).toContain('4 problems* in 2 rows');
    expect(shown).toContain('row 3, `receiver_name`: Receiver name is required');
    expect(shown).toContain(
      'row 3, `receiver_phone`: Receiver phone is not a phone number that can be dialled in PH, e.g. 0917 123 4567',
    );
    expect(shown).toContain('row 3, `package_weight`: Package weight must be a number');
    // A refused row names its receiver where one was typed.
    expect(shown).toContain('row 5 (Dan Eng), `cod_amount`: COD amount must be more than 0');

    const { results } = await confirm(summary);
    expect(booked()).toHaveLength(2);
    expect(results.map((r) => [r.row, r.outcome])).toEqual([
      ['2', 'booked'],
      ['3', 'not valid'],
      ['4', 'booked'],
      ['5', 'not valid'],
    ]);
    expect(results[1]?.message).toContain('receiver_name: Receiver name is required');
    // Every problem of a row, and its receiver, in the results file and the thread.
    expect(results[1]?.message?.split('; ')).toHaveLength(3);
    expect(results.map((r) => r.receiver_name)).toEqual(['Ana Cruz', '', 'Cora Diaz', 'Dan Eng']);
    const thread = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts !== undefined);
    expect(textOf(thread.map((c) => c.body.blocks))).toContain('Row 5 Dan Eng: not valid');
  });

  it('a courier failure mid-file stops nothing; an unknown outcome is said and never resent; a re-run books no row twice', async () => {
    // One row at a time: the faults meet the rows in file order.
    bot = await startTestBot({ timeoutMs: 500, env: { BULK_CONCURRENCY: '1' } });
    const content = bulkFile(
      bulkRow('Ana Cruz'),
      bulkRow('Ben Uy'),
      bulkRow('Cora Diaz'),
      bulkRow('Dan Eng'),
    );
    bot.sandbox.injectNext(
      {},
      {
        status: 400,
        body: JSON.stringify({
          ResponseCode: '400',
          ResponseDetail: 'Invalid request',
          remarks: 'Unknown barangay',
        }),
        contentType: 'application/json',
      },
      { dropAfterProcessing: true },
    );
    const first = await confirm(await check(content));
    expect(first.results.map((r) => [r.row, r.tracking_number, r.outcome])).toEqual([
      ['2', 'WB000001', 'booked'],
      ['3', 'WB000002', 'failed'],
      ['4', 'WB000003', 'unknown'],
      ['5', 'WB000004', 'booked'],
    ]);
    expect(first.results[1]?.message).toContain('Unknown barangay');
    expect(textOf(first.finished.blocks)).toMatch(/2 booked.*1 refused.*1 outcome unknown/);
    expect(booked()).toHaveLength(4);

    // The same bytes again (another upload of the same file): only the refused row is sent, under its number.
    const again = await check(content, 'orders.csv');
    const shown = textOf(again.blocks);
    expect(shown).toContain('1 row ready to book');
    expect(shown).toContain('2 rows booked by an earlier run of this file: not booked again');
    expect(shown).toContain('1 row of unknown outcome from an earlier run: never sent again');
    const second = await confirm(again);
    expect(second.results.map((r) => [r.row, r.tracking_number, r.outcome])).toEqual([
      ['2', 'WB000001', 'already booked'],
      ['3', 'WB000002', 'booked'],
      ['4', 'WB000003', 'unknown'],
      ['5', 'WB000004', 'already booked'],
    ]);
    expect(booked()).toHaveLength(5);
    expect((booked()[4]?.body as { trackingNumber?: string } | undefined)?.trackingNumber).toBe('WB000002');

    // A third time: nothing is left to send.
    const third = await check(content);
    expect(third.submit).toBeUndefined();
    expect(textOf(third.blocks)).toContain('0 rows ready to book');
  });

  it('a courier answering 429 slows the file down: no row refused, each booked once under its number', async () => {
    bot = await startTestBot({ env: { BULK_CONCURRENCY: '2' } });
    const tooMany = { status: 429 };
    bot.sandbox.injectNext(tooMany, tooMany, {}, tooMany);
    const names = ['Ana Cruz', 'Ben Uy', 'Cora Diaz', 'Dan Eng', 'Eva Flores'];
    const { results, finished } = await confirm(await check(bulkFile(...names.map((name) => bulkRow(name)))));
    expect(results.map((r) => r.outcome)).toEqual(names.map(() => 'booked'));
    expect(textOf(finished.blocks)).toContain('5 booked');
    // Three calls refused with 429 and sent again; five bookings, each number booked once.
    const sent = bot.sandbox.received.filter((request) => request.operation === 'book');
    expect(sent).toHaveLength(8);
    expect([...bot.sandbox.bookings.keys()].sort()).toEqual(results.map((r) => r.tracking_number).sort());
    expect(new Set(results.map((r) => r.tracking_number)).size).toBe(5);
    // Each 429 halved the rows at once and paused this replica, the pause doubling while 429s kept coming.
    const slowed = bot.logs
      .map((line) => JSON.parse(line) as { msg?: string; concurrency?: number; pauseMs?: number })
      .filter((line) => line.msg === 'the courier asked to slow down: fewer bulk rows at once');
    expect(slowed.map((line) => line.concurrency)).toEqual([1, 1, 1]);
    expect(slowed[0]?.pauseMs).toBe(500);
  });

  it("a courier's 429 with Retry-After: this replica claims no row until it has passed, then books the rest", async () => {
    bot = await startTestBot({ env: { BULK_CONCURRENCY: '1' } });
    bot.sandbox.injectNext({}, { status: 429, retryAfter: '1' });
    const names = ['Ana Cruz', 'Ben Uy', 'Cora Diaz'];
    const started = performance.now();
    const { results } = await confirm(await check(bulkFile(...names.map((name) => bulkRow(name)))));
    expect(results.map((r) => r.outcome)).toEqual(names.map(() => 'booked'));
    // Its own pause would have been 500 ms: the courier's second is what it waited.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    const slowed = bot.logs
      .map((line) => JSON.parse(line) as { msg?: string; pauseMs?: number; retryAfterMs?: number })
      .filter((line) => line.msg === 'the courier asked to slow down: fewer bulk rows at once');
    expect(slowed).toEqual([expect.objectContaining({ pauseMs: 1000, retryAfterMs: 1000 })]);
    expect(bot.sandbox.received.filter((request) => request.operation === 'book')).toHaveLength(4);
  });

  it('a double click on Book N rows books the file once', async () => {
    bot = await startTestBot();
    const summary = await check(bulkFile(bulkRow('Ana Cruz'), bulkRow('Ben Uy')));
    const [a, b] = await Promise.all([bot.submit(summary), bot.submit(summary)]);
    const views = [textOf(a.body.view), textOf(b.body.view)];
    expect(views.filter((v) => v.includes('being booked already'))).toHaveLength(1);
    await bot.idle();
    expect(booked()).toHaveLength(2);
    expect(
      bot.fake.callsTo('chat.postMessage').filter((c) => textOf(c.body).includes('Bulk booking')),
    ).toHaveLength(1);
  });

  it('refuses a file it cannot read in one line, before booking anything', async () => {
    bot = await startTestBot({ env: { BULK_MAX_ROWS: '2' } });
    const tooMany = await check(bulkFile(bulkRow('A'), bulkRow('B'), bulkRow('C')));
    expect(textOf(tooMany.blocks)).toContain('The file has 3 bookings; at most 2 at once');
    expect(tooMany.submit).toBeUndefined();
    const latin1 = await check(Buffer.from(`${bulkHeader}\nNi\xf1o,0917 123 4567\n`, 'latin1'));
    expect(textOf(latin1.blocks)).toContain('not UTF-8');
    expect(booked()).toHaveLength(0);
  });

  it('a file larger than the limit is refused from files.info, never downloaded', async () => {
    bot = await startTestBot({ env: { BULK_MAX_FILE_MB: '1' } });
    const file = bot.fake.addFile({ name: 'huge.csv', content: bulkFile(bulkRow('A')), size: 3_000_000 });
    await bot.command('/book', 'import');
    const modal = await bot.openedView();
    await bot.submit(modal, { file: file.id });
    await bot.idle();
    const refused = await bot.updatedView(modal.id, (view) => textOf(view).includes('huge.csv is 3 MB'));
    expect(textOf(refused.blocks)).toContain('at most 1 MB');
    expect(bot.fake.downloads).toEqual([]);
  });

  it('never sends the bot token to a host that is not Slack, at the check or at the booking', async () => {
    bot = await startTestBot();
    const other = await otherHost();
    try {
      const elsewhere = bot.fake.addFile({
        name: 'orders.csv',
        content: bulkFile(bulkRow('A')),
        downloadUrl: other.url,
      });
      const refused = await checkFile(elsewhere);
      expect(textOf(refused.blocks)).toContain('Slack gave an address outside Slack for orders.csv');
      expect(refused.submit).toBeUndefined();

      // Checked from Slack, then files.info names the other host when the rows are to be booked.
      const file = bot.fake.addFile({ name: 'orders.csv', content: bulkFile(bulkRow('Ana Cruz')) });
      const summary = await checkFile(file);
      file.downloadUrl = other.url;
      await bot.submit(summary);
      await bot.idle();
      const stopped = await bot.updatedView(summary.id, (view) => textOf(view).includes(':warning:'));
      expect(textOf(stopped.blocks)).toContain('outside Slack');
      expect(other.received).toEqual([]);
      expect(booked()).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('refuses a file someone else shared, without downloading it', async () => {
    bot = await startTestBot();
    const theirs = bot.fake.addFile({ name: 'theirs.csv', content: bulkFile(bulkRow('A')), user: 'UOTHER' });
    const refused = await checkFile(theirs);
    expect(textOf(refused.blocks)).toContain('theirs.csv was shared by someone else: upload your own copy');
    expect(bot.fake.downloads).toEqual([]);
  });

  it.each([
    ['trickles in at a byte a second', 'trickle'],
    ['sends no headers', 'stall'],
    ['is cut off', 'reset'],
  ] as const)(
    'a download that %s ends in a plain answer in the modal, at the check and at the booking',
    async (_, serve) => {
      bot = await startTestBot({ env: { BULK_DOWNLOAD_TIMEOUT_MS: '300' } });
      const slow = bot.fake.addFile({ name: 'orders.csv', content: bulkFile(bulkRow('Ana Cruz')), serve });
      const refused = await checkFile(slow);
      expect(textOf(refused.blocks)).toContain('orders.csv could not be downloaded from Slack');

      const file = bot.fake.addFile({ name: 'orders.csv', content: bulkFile(bulkRow('Ana Cruz')) });
      const summary = await checkFile(file);
      file.serve = serve;
      await bot.submit(summary);
      await bot.idle();
      const stopped = await bot.updatedView(summary.id, (view) => textOf(view).includes(':warning:'));
      expect(textOf(stopped.blocks)).toContain(
        'orders.csv could not be downloaded from Slack. Nothing was booked.',
      );
      expect(booked()).toHaveLength(0);
    },
  );

  it('needs its own permission when ALLOWED_BULK_USER_IDS is set, also for Import CSV and the template', async () => {
    bot = await startTestBot({ env: { ALLOWED_BULK_USER_IDS: 'UBULK' } });
    const refused = await bot.command('/book', 'import');
    expect(refused.body.text).toContain('may book waybills from a CSV file');
    await bot.clickInHome(ids.bulkTemplate);
    await bot.idle();
    expect(bot.fake.uploadsCompleted()).toEqual([]);
    // The Home tab has nothing to answer in: the refusal comes as a modal.
    expect(textOf(await bot.openedView())).toContain('may book waybills from a CSV file');
    // /book itself stays open to whoever may book.
    await bot.command('/book');
    expect((await bot.openedView()).callback_id).toBe(ids.bookingStep);
    // The one who may: the template arrives in a DM.
    await bot.clickInHome(ids.bulkTemplate, undefined, 'UBULK');
    await bot.idle();
    const [template] = bot.fake.uploadsCompleted();
    expect(template?.filename).toBe('bookings-template.csv');
    expect(template?.channelId).toMatch(/^D/);
    expect(template?.text.split('\r\n')[0]).toContain('tracking_number,service_type');
  });
});
