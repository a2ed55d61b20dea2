/**
 * A bulk booking while PostgreSQL restarts with a row at the courier (its answer kept, or lost: outcome
 * unknown, never resent) or a connection is cut (mid-bookkeeping, after a row's claim or its attempt reached
 * the database): the window told, every row booked once, none refused, one card, thread and results file;
 * Slack answering 429 to `files.info`, `chat.postMessage` and the upload during a file: each arrives once, no
 * row booked twice.
 */
// A bulk booking while PostgreSQL restarts or cuts a connection, and while Slack answers 429: nothing lost, nothing doubled, the dispatcher told.
import { parse } from 'csv-parse/sync';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../store/backends.js';
import { proxyDatabase, type TcpProxy } from '../store/tcp-proxy.js';
import { startTestBot, type TestBot, type TestBotOptions, type View } from '../support/bot-harness.js';
import { bulkFile, bulkRow } from '../support/bulk-file.js';
import { until } from '../support/replicas.js';
import { checkedImport } from '../support/slack-driver.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);

const names = ['Ana Cruz', 'Ben Uy', 'Cora Diaz', 'Dan Eng', 'Eva Flores'];
const file = bulkFile(...names.map((name) => bulkRow(name)));

const bots: TestBot[] = [];
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await Promise.all(bots.splice(0).map((bot) => bot.stop()));
  await proxy?.close();
  proxy = undefined;
});

/** `/book import`, orders.csv chosen, Check file: the summary, ready to book every row. */
async function check(b: TestBot): Promise<View> {
  const summary = await checkedImport(b, b.fake.addFile({ name: 'orders.csv', content: file }).id);
  expect(textOf(summary.blocks)).toContain(`${names.length} rows ready to book`);
  return summary;
}

const sentToCourier = (b: TestBot) =>
  b.sandbox.received
    .filter((r) => r.operation === 'book')
    .map((r) => (r.body as { trackingNumber: string }).trackingNumber);

/**
 * The run finished (this replica looking for rows as its timer does, until it is): every row sent
 * once to the courier, each booked row in the database, one card with its thread, one results file
 * with each row's outcome (by default every row booked).
 */
async function expectEveryRowBookedOnce(
  b: TestBot,
  summary: View,
  query: StoreQuery,
  outcomes: string[] = names.map(() => 'booked'),
) {
  const finished = await until(
    'the finished window',
    async () => {
      await b.deps.jobs.turn('bulk rows').catch(() => undefined);
      await b.idle();
      return b.fake
        .callsTo('views.update')
        .find((c) => c.body.view_id === summary.id && textOf(c.body.view).includes(':checkered_flag:'));
    },
    20_000,
  );
  const bookedRows = outcomes.filter((outcome) => outcome === 'booked').length;
  expect(textOf(finished.body.view)).toContain(`${bookedRows} booked`);
  // Each row sent once, under a number of its own (a row sent again after a cut may skip a number).
  const numbers = [...sentToCourier(b)].sort();
  expect(numbers).toHaveLength(names.length);
  expect(new Set(numbers).size).toBe(names.length);
  expect([...b.sandbox.bookings.keys()].sort()).toEqual(numbers);
  const stored = await query<{ tracking_number: string }>(
    'select tracking_number from bookings order by tracking_number',
  );
  expect(stored).toHaveLength(bookedRows);
  const posted = b.fake.callsTo('chat.postMessage').filter((c) => c.response?.status === 200);
  const cards = posted.filter((c) => textOf(c.body).includes('Bulk booking'));
  expect(cards).toHaveLength(1);
  const cardTs = (cards[0]?.response?.body as { ts?: string } | undefined)?.ts;
  expect(posted.filter((c) => c.body.thread_ts === cardTs)).toHaveLength(1);
  const uploads = b.fake.uploadsCompleted();
  expect(uploads).toHaveLength(1);
  const results = parse(uploads[0]?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
  expect(results.map((r) => r.outcome)).toEqual(outcomes);
  expect(results.map((r) => r.tracking_number).sort()).toEqual(numbers);
  expect(stored.map((r) => r.tracking_number)).toEqual(
    results
      .filter((r) => r.outcome === 'booked')
      .map((r) => r.tracking_number)
      .sort(),
  );
  expect(uploads[0]?.threadTs).toBe(cardTs);
}

/** The window said the database was not answering, while it was not. */
const toldDatabaseAway = (b: TestBot, summary: View) =>
  expect(
    b.fake
      .callsTo('views.update')
      .some(
        (c) =>
          c.body.view_id === summary.id &&
          textOf(c.body.view).includes(
            "The bot's database is not answering right now: the booking goes on once it is back",
          ),
      ),
  ).toBe(true);

type StoreQuery = <R>(sql: string, params?: unknown[]) => Promise<R[]>;

describeEachBackend(
  import.meta.filename,
  'a bulk booking while the database fails',
  (backend) => {
    /** A bot on this test's database through a proxy the test can cut, one row at a time so faults meet rows in file order. */
    async function bot(): Promise<TestBot> {
      const through = await proxyDatabase((backend.target() as { url: string }).url);
      proxy = through.proxy;
      const store = await backend.open({ url: through.url.toString(), connectTimeoutMs: 1000 });
      const started = await startTestBot({ store, env: { BULK_CONCURRENCY: '1' } });
      bots.push(started);
      return started;
    }

    it('a restart while a row is at the courier: the window says so, that row is recorded once the database is back, the rest follow', async () => {
      const b = await bot();
      const summary = await check(b);
      let answer = () => {};
      b.sandbox.injectNext({}, { holdUntil: new Promise<void>((resolve) => (answer = resolve)) });
      await b.submit(summary);
      await until('the second row at the courier', () => (sentToCourier(b).length === 2 ? true : undefined));
      await proxy?.cut();
      answer();
      await b.updatedView(summary.id, (view) => textOf(view.blocks).includes('database'));
      toldDatabaseAway(b, summary);
      await proxy?.restore();
      await expectEveryRowBookedOnce(b, summary, backend.query);
    }, 60_000);

    it('a restart while a row is at the courier, whose answer is then lost: that row is outcome unknown and never sent again, the rest booked once it is back', async () => {
      const b = await bot();
      const summary = await check(b);
      let answer = () => {};
      const held = new Promise<void>((resolve) => (answer = resolve));
      // The courier books the second row, then the connection drops before its answer.
      b.sandbox.injectNext({}, { holdUntil: held, dropAfterProcessing: true });
      await b.submit(summary);
      await until('the second row at the courier', () => (sentToCourier(b).length === 2 ? true : undefined));
      await proxy?.cut();
      answer();
      await proxy?.restore();
      await expectEveryRowBookedOnce(b, summary, backend.query, [
        'booked',
        'unknown',
        'booked',
        'booked',
        'booked',
      ]);
    }, 60_000);

    it.each([
      [
        "in the middle of a row's bookkeeping, after the courier booked it: the window says so, the row is recorded once the database is back",
        ['insert into "bookings"'],
        true,
      ],
      [
        "after a row's claim reached the database, before the bot heard: the row is queued again, not held for ever",
        ['update "import_queue" set "state"'],
        false,
      ],
      [
        "after a row's attempt was recorded as begun, before the bot heard: nothing went to the courier, so it is sent once, never refused; the window says so",
        ['insert into "attempts"', 'commit'],
        true,
      ],
    ])(
      'a connection cut %s',
      async (_, statements, told) => {
        const b = await bot();
        const summary = await check(b);
        // The server runs the last statement; the connection goes before the bot hears back.
        const cut = proxy?.cutAfter(...statements);
        await b.submit(summary);
        await cut;
        await proxy?.restore();
        await expectEveryRowBookedOnce(b, summary, backend.query);
        if (told) toldDatabaseAway(b, summary);
      },
      60_000,
    );
  },
  ['postgres'],
);

describeEachBackend(import.meta.filename, 'a bulk booking while Slack answers 429', (backend) => {
  const startBot = async (options: TestBotOptions = {}) => {
    const started = await startTestBot({ backend, slackRetries: 4, ...options });
    bots.push(started);
    return started;
  };

  it('429 with Retry-After to files.info, chat.postMessage and the upload: card, thread and results file once each, no row booked twice', async () => {
    const b = await startBot();
    const summary = await check(b);
    const tooMany = { status: 429, retryAfter: 1 };
    // files.info again at Book N rows; the card, and then its thread, once each; the results file's two steps.
    b.fake.respond('files.info', tooMany, { times: 1 });
    const limited = new Set<string>();
    b.fake.respond('chat.postMessage', (body) => {
      const kind = body.thread_ts ? 'thread' : 'card';
      if (limited.has(kind)) return undefined;
      limited.add(kind);
      return tooMany;
    });
    b.fake.respond('files.getUploadURLExternal', tooMany, { times: 1 });
    b.fake.respond('files.completeUploadExternal', tooMany, { times: 1 });
    await b.submit(summary);
    await expectEveryRowBookedOnce(b, summary, backend.query);
    const refused = b.fake.calls.filter((c) => c.response?.status === 429);
    // One of the two posts refused was the thread's.
    expect(refused.filter((c) => c.method === 'chat.postMessage' && c.body.thread_ts)).toHaveLength(1);
    expect(refused.map((c) => c.method).sort()).toEqual([
      'chat.postMessage',
      'chat.postMessage',
      'files.completeUploadExternal',
      'files.getUploadURLExternal',
      'files.info',
    ]);
  });
});
