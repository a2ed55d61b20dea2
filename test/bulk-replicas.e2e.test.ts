/**
 * Bulk booking with real bot processes on one PostgreSQL database: `kill -9` of a replica mid-file (the other
 * books every row once, the cut-off row unknown, one card and results file), SIGTERM mid-file (no courier
 * call after the signal, the rows in flight unknown, the rest booked at the next start), two imports of one
 * file at once.
 */
import { parse } from 'csv-parse/sync';
import { afterEach, expect, it } from 'vitest';
import { describePostgres } from './store/backends.js';
import { bulkFile, bulkRow } from './support/bulk-file.js';
import { type Replica, type Replicas, startReplicas, until } from './support/replicas.js';
import { checkedImport, type View } from './support/slack-driver.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value ?? null);

/** Short leases, so a killed replica is known to be gone within seconds. */
const LEASE = { REPLICA_LEASE_TTL_MS: '2000', REPLICA_LEASE_RENEW_MS: '400' };
const ROWS = 40;

const bookingsFile = (rows: number) =>
  bulkFile(
    ...Array.from({ length: rows }, (_, i) =>
      bulkRow(`Receiver ${i + 1}`, { phone: `0917 123 ${4000 + i}` }),
    ),
  );

let replicas: Replicas | undefined;

afterEach(async () => {
  await replicas?.close();
  replicas = undefined;
}, 30_000);

/** The sandbox's booking requests: every tracking number sent, as often as it was sent. */
function sentNumbers(r: Replicas): string[] {
  return r.sandbox.received
    .filter((request) => request.operation === 'book')
    .map((request) => (request.body as { trackingNumber: string }).trackingNumber);
}

const cards = (r: Replicas) =>
  r.fake.callsTo('chat.postMessage').filter((call) => textOf(call.body).includes('Bulk booking'));

/** Waits for the one card and the results file; returns the file's rows. */
async function finished(r: Replicas, summary: View, timeoutMs: number) {
  await until('the results file', () => (r.fake.uploadsCompleted().length > 0 ? true : undefined), timeoutMs);
  await r.driver.updatedView(summary.id, (view) => textOf(view).includes(':checkered_flag:'));
  return parse(r.fake.uploadsCompleted()[0]?.text ?? '', { bom: true, columns: true }) as Record<
    string,
    string
  >[];
}

/**
 * Every row once: booked (and sent exactly once), or of unknown outcome when its call was cut off.
 * An unknown row may not have reached the courier at all (its replica died between beginning the
 * attempt and the request arriving), so it is sent at most once; no number is sent twice.
 */
function expectEachRowOnce(r: Replicas, results: Record<string, string>[]) {
  expect(results).toHaveLength(ROWS);
  const sent = sentNumbers(r);
  expect(new Set(sent).size, 'a tracking number was sent to the courier twice').toBe(sent.length);
  for (const row of results) expect(['booked', 'unknown']).toContain(row.outcome);
  const numbers = (outcome: string) =>
    results.filter((row) => row.outcome === outcome).map((row) => row.tracking_number);
  expect(new Set(results.map((row) => row.tracking_number)).size).toBe(ROWS);
  const booked = numbers('booked');
  expect(sent, 'a booked row that never reached the courier').toEqual(expect.arrayContaining(booked));
  expect(booked.concat(numbers('unknown')), 'a number sent that is no row of the file').toEqual(
    expect.arrayContaining(sent),
  );
  expect(cards(r)).toHaveLength(1);
  expect(r.fake.uploadsCompleted()).toHaveLength(1);
}

/** The replica whose process id is in a store replica id (host-pid-suffix). */
function replicaOf(r: Replicas, owner: string): Replica {
  const found = r.live().find((replica) => owner.includes(`-${replica.proc.pid}-`));
  if (!found) throw new Error(`no live replica is ${owner}`);
  return found;
}

describePostgres(import.meta.filename, 'bulk booking across replicas', (adminUrl) => {
  it('kill -9 of a replica booking the file after the 10th courier call: the other books every other row once, reports the cut-off ones unknown, posts one card and file', async () => {
    const r = await startReplicas(adminUrl, 2, { ...LEASE, BULK_CONCURRENCY: '2' });
    replicas = r;
    const file = r.fake.addFile({ name: 'orders.csv', content: bookingsFile(ROWS) });
    const summary = await checkedImport(r.driver, file.id);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Nine calls answered, then the next ones held until the kill.
    r.sandbox.injectNext(
      ...Array.from({ length: 9 }, () => ({})),
      ...Array.from({ length: 4 }, () => ({ holdUntil: gate })),
    );
    const ack = await r.driver.submit(summary);
    expect(textOf(ack.body.view)).toContain(`0 of ${ROWS}`);

    await until('the 10th courier call', () => (sentNumbers(r).length >= 10 ? true : undefined), 20_000);
    // The 10th call is held (faults are taken in arrival order): its replica is the one killed.
    const held = sentNumbers(r)[9];
    const [inFlight] = await r.query<{ owner: string; tracking_number: string }>(
      "SELECT owner, tracking_number FROM attempts WHERE state = 'in-flight' AND tracking_number = $1",
      [held],
    );
    if (!inFlight) throw new Error(`the call of ${held} is not in flight`);
    await r.kill(replicaOf(r, inFlight.owner));
    release();

    const results = await finished(r, summary, 30_000);
    expectEachRowOnce(r, results);
    const cutOff = results.find((row) => row.tracking_number === inFlight.tracking_number);
    expect(cutOff?.outcome).toBe('unknown');
    expect(cutOff?.message).toContain('Not sent again');
    const unknown = results.filter((row) => row.outcome === 'unknown');
    expect(unknown.length).toBeLessThanOrEqual(2);
    expect(textOf(cards(r)[0]?.body)).toContain(`${ROWS - unknown.length} booked`);
  }, 60_000);

  it('SIGTERM mid-file: no courier call once stopping begins, the rows in flight unknown (not refused), the rest booked at the next start', async () => {
    const r = await startReplicas(adminUrl, 1, {
      ...LEASE,
      BULK_CONCURRENCY: '3',
      WAYBILL_TIMEOUT_MS: '1500',
    });
    replicas = r;
    const file = r.fake.addFile({ name: 'orders.csv', content: bookingsFile(ROWS) });
    const summary = await checkedImport(r.driver, file.id);
    // Nine calls answered, then three held past the client's timeout: each loop has one at the courier.
    const never = new Promise<void>(() => {});
    r.sandbox.injectNext(
      ...Array.from({ length: 9 }, () => ({})),
      ...Array.from({ length: 3 }, () => ({ holdUntil: never })),
    );
    await r.driver.submit(summary);
    await until('12 courier calls', () => (sentNumbers(r).length >= 12 ? true : undefined), 20_000);

    const [stopping] = r.live();
    if (!stopping) throw new Error('one replica expected');
    stopping.proc.kill('SIGTERM');
    expect(await stopping.exited).toBe(0);
    stopping.alive = false;
    expect(sentNumbers(r), 'a courier call after SIGTERM').toHaveLength(12);
    const stoppedView = await r.driver.updatedView(summary.id, (view) =>
      textOf(view).includes('is stopping'),
    );
    expect(textOf(stoppedView)).toContain('is stopping');
    expect(textOf(stoppedView)).toContain(`12 of ${ROWS}`);

    await r.add();
    const results = await finished(r, summary, 30_000);
    expectEachRowOnce(r, results);
    const unknown = results.filter((row) => row.outcome === 'unknown');
    expect(unknown).toHaveLength(3);
    for (const row of unknown) expect(row.message).toContain('outcome unknown');
  }, 60_000);

  it('two dispatchers importing the same file at once: one run books it, the other is pointed to it; one card, each row once', async () => {
    const r = await startReplicas(adminUrl, 2, LEASE);
    replicas = r;
    const [a, b] = r.live();
    if (!a || !b) throw new Error('two replicas expected');
    // Each uploads a copy of the same file: the bot reads only a file its submitter shared.
    const content = bookingsFile(ROWS);
    const anasCopy = r.fake.addFile({ name: 'orders.csv', content, user: 'UANA' });
    const bensCopy = r.fake.addFile({ name: 'orders.csv', content, user: 'UBEN' });
    const first = await checkedImport(r.on(a), anasCopy.id, 'UANA');
    const second = await checkedImport(r.on(b), bensCopy.id, 'UBEN');
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    r.sandbox.injectNext({ holdUntil: gate });
    await Promise.all([r.on(a).submit(first, {}, 'UANA'), r.on(b).submit(second, {}, 'UBEN')]);
    const refusal = await r.fake.waitFor(
      'views.update',
      (call) =>
        [first.id, second.id].includes(String(call.body.view_id)) &&
        textOf(call.body.view).includes('is being booked already'),
    );
    const loser = refusal.body.view_id === first.id ? first : second;
    const pointed = {
      view: loser,
      other: loser === first ? 'UBEN' : 'UANA',
      shown: textOf(refusal.body.view),
    };
    expect(pointed.shown).toContain(`<@${pointed.other}>`);
    release();
    const winner = pointed.view === first ? second : first;
    const results = await finished(r, winner, 30_000);
    expectEachRowOnce(r, results);
    expect(results.every((row) => row.outcome === 'booked')).toBe(true);
  }, 60_000);
});
