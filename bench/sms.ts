/**
 * The receivers' SMS outbox's throughput (`npm run bench`, or `-- --sms-only`). 1,000 bookings' SMS
 * sent by two replicas sharing one store (SQLite, and PostgreSQL with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL) to the fake Semaphore on loopback, on a clock the bench moves 10 s a turn: the
 * gateway's 120 calls a minute are kept across the replicas (the most calls begun in any minute is
 * reported), no SMS is sent twice, and the wall-clock time is the outbox's own cost. Not in the smoke
 * run: it is not a Slack phase, and takes tens of seconds on PostgreSQL.
 */
import pino from 'pino';
import { insertBookings } from '../fakes/bookings.js';
import { writeRows } from '../fakes/bulk-insert.js';
import { FakeSemaphore } from '../fakes/semaphore-fake.js';
import { type SmsSettings, smsTurn } from '../src/operations/sms.js';
import { SEMAPHORE_PER_MINUTE } from '../src/sms/gateway.js';
import { semaphoreGateway } from '../src/sms/semaphore.js';
import { SmsTemplates } from '../src/sms/templates.js';
import { openStore } from '../src/store/index.js';
import { type Backend, benchDatabase, postgresAdminUrl } from './databases.js';
import type { TargetCheck } from './lib.js';

const BOOKINGS = 1000;
/** A replica's turn comes every 10 s of the bench's clock. */
const TURN_MS = 10_000;

async function run(backend: Backend, tmp: string) {
  const database = await benchDatabase(backend, tmp, 'sms');
  const start = Date.UTC(2026, 11, 1, 2);
  let now = start;
  const clock = () => new Date(now);
  const trackingNumber = (i: number) => `WB${String(i).padStart(7, '0')}`;
  await writeRows(database.target, (writer) =>
    insertBookings(writer, { count: BOOKINGS, trackingNumber, bookedAt: () => start }),
  );
  const semaphore = await FakeSemaphore.start(() => now);
  const gateway = semaphoreGateway({ apiKey: 'bench-key-0000', url: semaphore.url, senderName: 'BENCH' });
  const settings: SmsSettings = {
    gateway: { kind: 'semaphore', apiKey: 'bench-key-0000', url: semaphore.url, senderName: 'BENCH' },
    templates: SmsTemplates.load(undefined),
    events: ['booked'],
    language: 'en',
    channelLanguages: {},
  };
  const replicas = await Promise.all(
    ['a', 'b'].map((replicaId) =>
      openStore({ ...database.target, now: clock, replicaId, leaseRenewMs: 0, leaseTtlMs: 3_600_000 }),
    ),
  );
  const [first] = replicas;
  if (!first) throw new Error('no replica');
  for (let i = 0; i < BOOKINGS; i++)
    await first.sms.enqueue({
      trackingNumber: trackingNumber(i),
      event: 'booked',
      occurrence: 0,
      dueAt: clock(),
    });
  const logger = pino({ level: 'warn' });
  const port = { tell: async () => undefined };
  const began = performance.now();
  let turns = 0;
  for (;;) {
    const done = await Promise.all(
      replicas.map((store) => smsTurn({ store, logger, now: clock, settings, gateway }, port)),
    );
    turns += 1;
    if (done.every((turn) => turn.claimed === 0) || turns > 1000) break;
    now += TURN_MS;
  }
  const seconds = (performance.now() - began) / 1000;
  const times = semaphore.calls.map((call) => call.at).sort((x, y) => x - y);
  const busiestMinute = Math.max(
    0,
    ...times.map((at, index) => times.slice(index).filter((other) => other < at + 60_000).length),
  );
  const numbers = semaphore.calls.map((call) => call.message.match(/WB\d+/)?.[0]);
  const rows = await Promise.all(
    [0, Math.floor(BOOKINGS / 2), BOOKINGS - 1].map(
      async (i) => (await first.sms.of(trackingNumber(i)))[0]?.outcome,
    ),
  );
  const report = {
    backend,
    sms: semaphore.calls.length,
    doubled: numbers.length - new Set(numbers).size,
    busiestMinute,
    limit: SEMAPHORE_PER_MINUTE,
    clockMinutes: Math.round(((times.at(-1) ?? start) - start) / 6_000) / 10,
    wallSeconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round(semaphore.calls.length / seconds),
    sampleOutcomes: rows,
  };
  await Promise.all(replicas.map((store) => store.close()));
  await gateway.close();
  await semaphore.stop();
  await database.drop();
  return report;
}

export type SmsReport = Awaited<ReturnType<typeof run>>;

/** The outbox run on each backend there is, in the bench's temporary folder. */
export async function benchSms(tmp: string): Promise<SmsReport[]> {
  const backends: Backend[] = postgresAdminUrl ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
  const reports = [];
  for (const backend of backends) reports.push(await run(backend, tmp));
  return reports;
}

/** Every SMS sent, none doubled, never over the gateway's calls a minute. */
export function smsTargets(reports: readonly SmsReport[]): TargetCheck[] {
  return reports.map((report) => ({
    target: `SMS outbox, ${report.backend}, two replicas: ${BOOKINGS} sent, none doubled, <= ${report.limit} calls a minute`,
    figure: `${report.sms} sent, ${report.doubled} doubled, busiest minute ${report.busiestMinute}, ${report.perSecond} SMS/s of wall time`,
    met: report.sms === BOOKINGS && report.doubled === 0 && report.busiestMinute <= report.limit,
  }));
}
