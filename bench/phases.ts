/** The phases of a bench run: commands, quote submissions and booking confirmations, bot (one or more replicas) and bare Bolt. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ids } from '../fakes/ids.js';
import type { FakeCall, FakeSlack } from '../fakes/slack-fake.js';
import { loadBotConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import { type Backend, benchDatabase } from './databases.js';
import {
  bookingSubmission,
  createBookingDrafts,
  type OpenedForm,
  quoteCommand,
  quoteSubmission,
  secrets,
} from './fixtures.js';
import {
  cpuMsOfAll,
  type LoadJob,
  type LoadReport,
  type MemoryByPart,
  repoRoot,
  type Summary,
  summarize,
} from './lib.js';
import {
  botEnv,
  log,
  runLoad,
  type Started,
  startProcess,
  stopProcess,
  type Target,
  waitUntil,
} from './processes.js';
import { CallIndex, titleOf } from './slack-calls.js';
import { ACK_LIMIT_MS, type AckStats, ackStats, type ResultStats, resultStats } from './statistics.js';

const WARM_UP = 3;
/** How long results may take beyond the upstream's own delay. */
const RESULT_WAIT_MS = 30_000;

export interface PhaseReport {
  name: string;
  ack: AckStats;
  /** The bot's own measure (its /metrics histogram): p99 from Bolt's hand-over to the ack, as a bucket bound in ms. */
  ackInBotP99Ms?: number;
  /** CPU time the serving processes used from the first request sent to the last ack read, per request (ms); null when unreadable. */
  cpuMsPerRequest: number | null;
  /** Commands: the form opening (views.open) after the command was sent. */
  formOpenMs?: Summary;
  formsOpened?: number;
  formsOpenedOver3s?: number;
  results?: ResultStats;
}

export interface InstanceReport {
  name: string;
  kind: 'bot' | 'bare-bolt';
  backend?: Backend;
  /** Bot processes behind the load process's round-robin. */
  replicas: number;
  upstreamLatencyMs?: number;
  /** Which round against bare Bolt (1 for the runs measured once). */
  round: number;
  /** The slowest replica's. */
  startupMs: number;
  /** Per process (the largest of the replicas'). */
  idleRssMB: number;
  /** The first process's idle RSS by part. */
  idleMemory?: MemoryByPart;
  /** VmHWM just before stopping: the highest resident set of the process's life (the largest of the replicas'). */
  peakRssMB: number;
  exit: number | string;
  warnOrErrorLogLines: number;
  /** Dispatchers told "the database is not answering" (the bench's database always answers). */
  toldDatabaseDown: number;
  /** The first replica's memory after each start-up step (its /metrics), in MB. */
  startupMemory?: StartupMemory[];
  phases: PhaseReport[];
}

export interface StartupMemory {
  step: string;
  /** When the step ended, ms since the process started (absent for the memory read after the phases). */
  atMs?: number;
  rssMB: number;
  heapMB: number;
  externalMB: number;
}

const execFileAsync = promisify(execFile);

const mbOf = (bytes: string | number) => Math.round((Number(bytes) / 1048576) * 10) / 10;

/**
 * What the bot's first start-up step holds before its own code: Node alone, then Bolt as the bot loads it
 * (dist/bolt.js), each in a process of its own started the way `npm start` starts node and read the way
 * the bot reads its steps; of three processes each, the one with the median RSS.
 */
export async function memoryBeforeTheBundle(): Promise<StartupMemory[]> {
  const parts = [
    ['Node alone (a process of its own)', ''],
    ['Bolt as the bot loads it (a process of its own)', "await import('./dist/bolt.js');"],
  ] as const;
  const rows: StartupMemory[] = [];
  for (const [step, load] of parts) {
    const code = `${load} const m = process.memoryUsage(); process.stdout.write(JSON.stringify({ rss: m.rss, heap: m.heapUsed, external: m.external, at: performance.now() }));`;
    const reads: { rss: number; heap: number; external: number; at: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { stdout } = await execFileAsync('sh', ['scripts/node.sh', '--input-type=module', '-e', code], {
        cwd: repoRoot,
      });
      reads.push(JSON.parse(stdout));
    }
    // biome-ignore lint/style/noNonNullAssertion: three reads
    const median = reads.sort((a, b) => a.rss - b.rss)[1]!;
    rows.push({
      step,
      atMs: Math.round(median.at),
      rssMB: mbOf(median.rss),
      heapMB: mbOf(median.heap),
      externalMB: mbOf(median.external),
    });
  }
  return rows;
}

/**
 * The memory after each start-up step, as the bot's /metrics gives it, in the order the steps came;
 * then its memory now (`after`), from the process metrics on the same page.
 */
async function startupMemoryOf(started: Started, after: string): Promise<StartupMemory[]> {
  const text = await (await fetch(started.metricsUrl)).text();
  const steps = new Map<string, StartupMemory>();
  for (const [, step = '', kind, bytes = ''] of text.matchAll(
    /^waybill_startup_memory_bytes\{step="([^"]+)",kind="(rss|heap|external)"\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/gm,
  )) {
    const row = steps.get(step) ?? { step, rssMB: 0, heapMB: 0, externalMB: 0 };
    const mb = mbOf(bytes);
    if (kind === 'rss') row.rssMB = mb;
    else if (kind === 'heap') row.heapMB = mb;
    else row.externalMB = mb;
    steps.set(step, row);
  }
  for (const [, step = '', seconds = ''] of text.matchAll(
    /^waybill_startup_seconds\{step="([^"]+)"\} (\S+)$/gm,
  )) {
    const row = steps.get(step);
    if (row) row.atMs = Math.round(Number(seconds) * 1000);
  }
  const now = (name: string) => mbOf(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return [
    ...steps.values(),
    {
      step: after,
      rssMB: now('process_resident_memory_bytes'),
      heapMB: now('nodejs_heap_size_used_bytes'),
      externalMB: now('nodejs_external_memory_bytes'),
    },
  ];
}

export interface Context {
  fake: FakeSlack;
  arrivals: Map<FakeCall, number>;
  tmp: string;
  /** Requests per phase. */
  n: number;
}

/** One bot start: where it keeps its data, how many replicas share it, how slow the courier is. */
export interface BotSetup {
  backend: Backend;
  replicas: number;
  latencyMs: number;
  /** Which of the rounds measured against bare Bolt (issue 46's budget), from 1. */
  round?: number;
}

/** A later round's name says which round it is. */
const ofRound = (round = 1) => (round > 1 ? ` (round ${round})` : '');

export function botName({ backend, replicas, latencyMs, round }: BotSetup): string {
  const who = replicas > 1 ? `${replicas} replicas` : 'bot';
  return `${who}, ${backend}, upstream ${latencyMs / 1000} s${ofRound(round)}`;
}

/** Bookings stored for these tracking numbers in the bot's database (as `env` names it), once it has stopped. */
async function storedBookings(env: NodeJS.ProcessEnv, trackingNumbers: string[]): Promise<number> {
  const store = await openStore({ ...loadBotConfig(env).database, leaseRenewMs: 0 });
  try {
    const found = await Promise.all(trackingNumbers.map((tn) => store.bookings.get(tn)));
    return found.filter(Boolean).length;
  } finally {
    await store.close();
  }
}

export async function benchBot(ctx: Context, setup: BotSetup, onForms?: (forms: OpenedForm[]) => void) {
  const { fake, arrivals, n } = ctx;
  const { latencyMs } = setup;
  const tag =
    `${setup.backend === 'SQLite' ? 'sq' : 'pg'}${setup.replicas}_l${latencyMs / 1000}s_r${setup.round ?? 1}`.replace(
      '.',
      '_',
    );
  const name = botName(setup);
  fake.reset();
  arrivals.clear();
  const index = new CallIndex(fake);
  const database = await benchDatabase(setup.backend, ctx.tmp, tag);
  try {
    const envFor = (port: number) => botEnv(port, database.env, latencyMs, fake.apiUrl);
    const bookings = await createBookingDrafts(fake, tag, envFor(0), n);
    log(`${name}: starting (${bookings.length} booking drafts pre-created)`);
    const started = await Promise.all(
      Array.from({ length: setup.replicas }, (_, i) =>
        startProcess('dist/app.js', envFor, join(ctx.tmp, `${tag}.${i}.log`)),
      ),
    );
    const target = { name, urls: started.map((s) => s.url) };
    // Warm-up, not measured: a few forms opened and submitted on each replica, one at a time.
    const warm = Array.from({ length: WARM_UP * setup.replicas }, (_, i) => quoteCommand(fake, `${tag}w`, i));
    const replicaOf = (i: number) => ({ name, urls: [target.urls[i % target.urls.length] ?? ''] });
    for (const [i, request] of warm.entries()) await runLoad(replicaOf(i), [request]);
    await waitUntil(() => warm.every((w) => index.update().opensByTrigger.has(`trigger.${w.key}`)), 10_000);
    const warmForms = warm
      .flatMap((w) => index.opensByTrigger.get(`trigger.${w.key}`) ?? [])
      .map(quoteSubmission);
    for (const [i, f] of warmForms.entries())
      await runLoad(replicaOf(i), [{ key: `warm.${f.viewId}`, body: f.body }]);

    // 1. n concurrent /quote commands.
    log(`${name}: ${n} concurrent /quote commands`);
    const commands = Array.from({ length: n }, (_, i) => quoteCommand(fake, tag, i));
    const {
      load: commandLoad,
      ackInBotP99Ms: commandAcksInBot,
      cpuMsPerRequest: commandCpu,
    } = await measuredLoad(started, target, commands, 'command');
    const openedAll = await waitUntil(
      () => commands.every((c) => index.update().opensByTrigger.has(`trigger.${c.key}`)),
      RESULT_WAIT_MS,
    );
    const sentAtOf = new Map(commandLoad.results.map((r) => [r.key, r.sentAt]));
    const openDelays = commands.flatMap((c) => {
      const open = index.opensByTrigger.get(`trigger.${c.key}`)?.[0];
      const sentAt = sentAtOf.get(c.key);
      return open && sentAt !== undefined ? [(arrivals.get(open) ?? Number.NaN) - sentAt] : [];
    });
    const commandPhase: PhaseReport = {
      name: '/quote command',
      ack: ackStats(commandLoad, undefined),
      ackInBotP99Ms: commandAcksInBot,
      cpuMsPerRequest: commandCpu,
      formOpenMs: summarize(openDelays),
      formsOpened: openDelays.length,
      formsOpenedOver3s: openDelays.filter((d) => d > ACK_LIMIT_MS).length,
    };
    if (!openedAll) log(`${name}: only ${openDelays.length} of ${n} forms opened`);

    // 2. n concurrent quote submissions, one per form just opened.
    const forms = commands.flatMap((c) => index.opensByTrigger.get(`trigger.${c.key}`)?.slice(0, 1) ?? []);
    const submissions = forms.map(quoteSubmission);
    onForms?.(submissions);
    log(`${name}: ${submissions.length} concurrent quote submissions`);
    const {
      load: quoteLoad,
      ackInBotP99Ms: quoteAcksInBot,
      cpuMsPerRequest: quoteCpu,
    } = await measuredLoad(
      started,
      target,
      submissions.map((s) => ({ key: s.viewId, body: s.body })),
      'view_submission',
    );
    const quoteWait = latencyMs + RESULT_WAIT_MS;
    await waitUntil(() => {
      index.update();
      return submissions.every(
        (s) => index.updates(s.viewId, ids.quoteResult).length > 0 && index.quotePostsByDraft.has(s.draftId),
      );
    }, quoteWait);

    // 3. n concurrent booking confirmations of the pre-created drafts.
    log(`${name}: ${bookings.length} concurrent booking confirmations`);
    const {
      load: bookingLoad,
      ackInBotP99Ms: bookingAcksInBot,
      cpuMsPerRequest: bookingCpu,
    } = await measuredLoad(started, target, bookings.map(bookingSubmission), 'view_submission');
    await waitUntil(() => {
      index.update();
      return bookings.every(
        (b) =>
          index.updates(b.viewId, ids.bookingOutcome).length > 0 &&
          index.cardsByTracking.has(b.trackingNumber),
      );
    }, quoteWait);

    const startupMemory = started[0]
      ? await startupMemoryOf(started[0], 'after the phases (the place list and what the requests loaded)')
      : [];
    // Stop (the bot finishes what is in flight), then count everything that reached Slack.
    const stopped = await Promise.all(started.map((s) => stopProcess(s, latencyMs + 25_000)));
    const final = new CallIndex(fake).update();
    const quoteSent = new Map(quoteLoad.results.map((r) => [r.key, r.sentAt]));
    const quoteAcks = ackStats(quoteLoad, 'update');
    const quoteResults = resultStats(
      submissions.map((s) => ({
        key: s.viewId,
        sentAt: quoteSent.get(s.viewId),
        views: final.updates(s.viewId, ids.quoteResult),
        posts: final.quotePostsByDraft.get(s.draftId) ?? [],
        failedView: (view) => titleOf(view) !== 'Quote',
      })),
      arrivals,
      quoteAcks.failed,
      final.ephemeral.length,
    );
    const bookingSent = new Map(bookingLoad.results.map((r) => [r.key, r.sentAt]));
    const bookingAcks = ackStats(bookingLoad, 'update');
    const bookingResults = resultStats(
      bookings.map((b) => ({
        key: b.trackingNumber,
        sentAt: bookingSent.get(b.trackingNumber),
        views: final.updates(b.viewId, ids.bookingOutcome),
        posts: final.cardsByTracking.get(b.trackingNumber) ?? [],
        failedView: (view) => titleOf(view) !== 'Booked',
      })),
      arrivals,
      bookingAcks.failed,
      0,
    );
    bookingResults.dbRows = await storedBookings(
      envFor(0),
      bookings.map((b) => b.trackingNumber),
    );
    if (bookingResults.dbRows !== bookings.length) {
      bookingResults.notes.push(`${bookingResults.dbRows} booking rows for ${bookings.length} confirmations`);
    }

    const report: InstanceReport = {
      name,
      kind: 'bot',
      backend: setup.backend,
      replicas: setup.replicas,
      upstreamLatencyMs: latencyMs,
      round: setup.round ?? 1,
      startupMs: Math.max(...started.map((s) => s.startupMs)),
      idleRssMB: Math.max(...started.map((s) => s.idleRssMB)),
      ...(started[0]?.idleMemory ? { idleMemory: started[0].idleMemory } : {}),
      peakRssMB: Math.max(...stopped.map((s) => s.peakRssMB)),
      exit: [...new Set(stopped.map((s) => s.exit))].join(' '),
      warnOrErrorLogLines: stopped.reduce((sum, s) => sum + s.warnOrErrorLogLines, 0),
      toldDatabaseDown: stopped.reduce((sum, s) => sum + s.toldDatabaseDown, 0),
      startupMemory,
      phases: [
        commandPhase,
        {
          name: 'quote submission',
          ack: quoteAcks,
          ackInBotP99Ms: quoteAcksInBot,
          cpuMsPerRequest: quoteCpu,
          results: quoteResults,
        },
        {
          name: 'booking confirmation',
          ack: bookingAcks,
          ackInBotP99Ms: bookingAcksInBot,
          cpuMsPerRequest: bookingCpu,
          results: bookingResults,
        },
      ],
    };
    return report;
  } finally {
    await database.drop();
  }
}

/** Cumulative ack counts by bucket bound (seconds, as /metrics writes it) and kind, summed over replicas. */
type AckHistogram = Map<string, number>;

async function ackHistogram(started: Started[]): Promise<AckHistogram> {
  const counts: AckHistogram = new Map();
  for (const s of started) {
    const text = await (await fetch(s.metricsUrl)).text();
    for (const [, le, kind, count] of text.matchAll(
      /^waybill_slack_ack_seconds_bucket\{le="([^"]+)",kind="([^"]+)"\} (\d+)$/gm,
    )) {
      const key = `${kind} ${le}`;
      counts.set(key, (counts.get(key) ?? 0) + Number(count));
    }
  }
  return counts;
}

/**
 * A load phase, with the bot's own p99 from Bolt's hand-over to the ack of `kind` during it: the
 * smallest bucket bound (ms) holding 99 % of the acks counted between /metrics before and after.
 */
async function measuredLoad(
  started: Started[],
  target: Target,
  requests: LoadJob['requests'],
  kind: string,
): Promise<{ load: LoadReport; ackInBotP99Ms?: number; cpuMsPerRequest: number | null }> {
  const before = await ackHistogram(started);
  const { load, cpuMsPerRequest } = await loadWithCpu(started, target, requests);
  const after = await ackHistogram(started);
  const during = (le: string) => (after.get(`${kind} ${le}`) ?? 0) - (before.get(`${kind} ${le}`) ?? 0);
  const total = during('+Inf');
  const bound = [...after.keys()]
    .filter((key) => key.startsWith(`${kind} `) && !key.endsWith('+Inf'))
    .map((key) => key.slice(kind.length + 1))
    .sort((a, b) => Number(a) - Number(b))
    .find((le) => during(le) >= 0.99 * total);
  return {
    load,
    cpuMsPerRequest,
    ...(total > 0 && bound !== undefined ? { ackInBotP99Ms: Number(bound) * 1000 } : {}),
  };
}

/** A load run, with the CPU time its serving processes used while it ran, per request. */
async function loadWithCpu(
  started: Started[],
  target: Target,
  requests: LoadJob['requests'],
): Promise<{ load: LoadReport; cpuMsPerRequest: number | null }> {
  const cpuNow = () => cpuMsOfAll(started.map((s) => s.pid));
  const before = cpuNow();
  const load = await runLoad(target, requests);
  const used = cpuNow() - before;
  const known = Number.isFinite(used) && requests.length > 0;
  return { load, cpuMsPerRequest: known ? Math.round((used / requests.length) * 100) / 100 : null };
}

function bareEnv(fake: FakeSlack): (port: number) => NodeJS.ProcessEnv {
  return (port) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
  });
}

/**
 * The bot and bare Bolt each started once and stopped, unmeasured, before the first round. A run's first
 * start pays for files not yet read since boot or the build and for the bench's own code run the first
 * time (the fake Slack's first answer, the first polls of /healthz); it fell on the bot, which starts
 * first in every round (its first start of a run took 744-939 ms, its later ones 528-639 ms).
 */
export async function warmStarts(ctx: Context): Promise<void> {
  const database = await benchDatabase('SQLite', ctx.tmp, 'warm-start');
  const starts: [string, (port: number) => NodeJS.ProcessEnv][] = [
    ['dist/app.js', (port) => botEnv(port, database.env, 0, ctx.fake.apiUrl)],
    ['bench/bare-bolt.mjs', bareEnv(ctx.fake)],
  ];
  for (const [script, envFor] of starts) {
    const started = await startProcess(script, envFor, join(ctx.tmp, 'warm-start.log'), { idle: false });
    await stopProcess(started, 5000);
  }
}

/** The bare Bolt app: the same commands and the same quote submissions, acknowledged and nothing else. */
export async function benchBare(ctx: Context, forms: OpenedForm[], round = 1): Promise<InstanceReport> {
  const { fake, n } = ctx;
  const name = `bare Bolt${ofRound(round)}`;
  const tag = `bare${round}`;
  fake.reset();
  log(`${name}: starting`);
  const started = await startProcess('bench/bare-bolt.mjs', bareEnv(fake), join(ctx.tmp, `${tag}.log`));
  const target = { name, urls: [started.url] };
  for (let i = 0; i < WARM_UP; i += 1) await runLoad(target, [quoteCommand(fake, `${tag}w`, i)]);
  await runLoad(
    target,
    forms.slice(0, WARM_UP).map((f) => ({ key: `warm.${f.viewId}`, body: f.body })),
  );
  log(`${name}: ${n} concurrent /quote commands`);
  const commands = await loadWithCpu(
    [started],
    target,
    Array.from({ length: n }, (_, i) => quoteCommand(fake, tag, i)),
  );
  log(`${name}: ${forms.length} concurrent quote submissions`);
  const submissions = await loadWithCpu(
    [started],
    target,
    forms.map((f) => ({ key: f.viewId, body: f.body })),
  );
  const stopped = await stopProcess(started, 5000);
  return {
    name,
    kind: 'bare-bolt',
    round,
    replicas: 1,
    startupMs: started.startupMs,
    idleRssMB: started.idleRssMB,
    ...(started.idleMemory ? { idleMemory: started.idleMemory } : {}),
    peakRssMB: stopped.peakRssMB,
    exit: stopped.exit,
    warnOrErrorLogLines: stopped.warnOrErrorLogLines,
    toldDatabaseDown: stopped.toldDatabaseDown,
    phases: [
      {
        name: '/quote command',
        ack: ackStats(commands.load, undefined),
        cpuMsPerRequest: commands.cpuMsPerRequest,
      },
      {
        name: 'quote submission',
        ack: ackStats(submissions.load, undefined),
        cpuMsPerRequest: submissions.cpuMsPerRequest,
      },
    ],
  };
}
