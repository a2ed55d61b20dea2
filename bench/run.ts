/**
 * `npm run bench`: the bot under concurrent load, against a bare Bolt app on the same machine.
 *
 * This process (the orchestrator) runs the fake Slack Web API and watches what reaches it; the bot
 * (`src/app.ts`, HTTP mode, embedded sandbox courier) and the bare Bolt app run as child processes;
 * the signed requests come from a third process (`bench/load.ts`). Everything is on 127.0.0.1, and
 * every phase has a request count and a time cap.
 *
 * Flags: --n 200 (requests per phase), --smoke (N=10, no 10 s phase: for CI), --skip-slow (no 10 s
 * phase), --check (exit 1 when a result is lost or duplicated, an ack fails or an outcome is an error;
 * timing targets are reported, never enforced).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { quoteCommandText as quoteText, quoteTyped } from '../fakes/quote-values.js';
import { type FakeCall, type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { interactiveBody, slashCommandBody, viewSubmissionPayload } from '../fakes/slack-requests.js';
import { stateFor } from '../fakes/view-state.js';
import { loadBotConfig, loadWaybillConfig } from '../src/config.js';
import { validateDraft } from '../src/slack/book/flow.js';
import type { BookingDraft } from '../src/slack/book/form.js';
import { createBotDeps } from '../src/slack/deps.js';
import { ids } from '../src/slack/shared/ids.js';
import { openStore } from '../src/store/store.js';
import type { WaybillClient } from '../src/waybill/client.js';
import {
  epochMs,
  freePort,
  type LoadJob,
  type LoadReport,
  type Memory,
  readMemory,
  repoRoot,
  type Summary,
  sleep,
  spawnTs,
  stopChild,
  summarize,
  waitHealthy,
} from './lib.js';

// ---------------------------------------------------------------------------------------------------------
// Options and fixed inputs
// ---------------------------------------------------------------------------------------------------------

const { values: flags } = parseArgs({
  options: {
    n: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    'skip-slow': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const smoke = flags.smoke === true;
const N = flags.n !== undefined ? Number(flags.n) : smoke ? 10 : 200;
if (!Number.isInteger(N) || N < 1 || N > 2000) throw new Error('--n must be a whole number from 1 to 2000');
const skipSlow = smoke || flags['skip-slow'] === true;
const latencies = skipSlow ? [0, 2000] : [0, 2000, 10_000];

const secrets = { botToken: 'xoxb-bench-0000-BENCHTOKEN', signingSecret: 'bench-signing-secret-0123456789' };
const CHANNEL = 'CDISPATCH';
const WARM_UP = 3;
const ACK_LIMIT_MS = 3000;
/** Caps: a request, a load job, the wait for results beyond the upstream's delay, a bot's start. */
const REQUEST_TIMEOUT_MS = 15_000;
const LOAD_DEADLINE_MS = 30_000;
const RESULT_WAIT_MS = 30_000;
const START_TIMEOUT_MS = 20_000;

/** A booking as the review step holds it (the draft test/support/booking-flow.ts types, dated ahead). */
function bookingInput(): Record<string, unknown> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const contact = (name: string, phone: string) => ({ name, phone, email: null });
  const place = (street: string, city: string, postal: string, country: string) => ({
    street,
    region: null,
    city,
    district: null,
    neighbourhood: null,
    postal,
    country,
    latitude: null,
    longitude: null,
  });
  const parcel = (i: number, weight: string) => ({
    quantity: '1',
    uom: 'CM',
    packageType: 'BOX',
    itemDescription: `Scale ${i}`,
    remarks: null,
    length: '30',
    width: '20',
    height: '10',
    weight,
  });
  return {
    pickupAt: { date: day(1), time: { time: '10:00', timeZone: 'Asia/Manila' } },
    expectedDeliveryAt: { date: day(2), time: { time: '17:00', timeZone: 'Asia/Manila' } },
    serviceType: 'DOOR_TO_DOOR',
    trackingNumber: null,
    paymentMethod: 'COD',
    codAmount: '1500',
    declaredValue: '2000',
    itemDescription: 'Kitchen scales',
    handlingInstructions: 'Fragile',
    package: { type: 'BOX', weight: '4.5', length: '40', width: '30', height: '20', volume: null },
    operatorContactNumber: '+63 917 555 0100',
    reference1: 'PO-77',
    consignee: {
      ...contact('Maria Santos', '0917 123 4567'),
      ...place('88 Rizal Ave', 'Cebu City', '6000', 'ph'),
    },
    shipperCode: 'ACME-PSG',
    shipper: {
      ...contact('Acme Pasig Warehouse', '0917 000 0202'),
      ...place('25 E. Rodriguez Jr. Avenue', 'Pasig', '1600', 'PH'),
    },
    merchantName: 'Acme Trading Inc.',
    warehouseName: 'Pasig Warehouse 2',
    returnTo: {
      ...contact('Acme Returns Desk', '0917 000 0303'),
      ...place('88 Sample Street', 'Quezon City', '1101', 'PH'),
    },
    quantity: null,
    childWaybills: [parcel(1, '1.5'), parcel(2, '1.5'), parcel(3, '1.25')],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Watching the fake Slack: when each call arrived, and the calls indexed by what they answer
// ---------------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** Arrival time of every call the fake records (its own records have none). */
function trackArrivals(fake: FakeSlack): Map<FakeCall, number> {
  const arrivals = new Map<FakeCall, number>();
  const calls = fake.calls;
  const push = calls.push.bind(calls);
  calls.push = (...items: FakeCall[]) => {
    const now = epochMs();
    for (const item of items) arrivals.set(item, now);
    return push(...items);
  };
  return arrivals;
}

const viewOf = (call: FakeCall): Json => (call.body.view ?? {}) as Json;
const titleOf = (view: Json): string => String((view.title as Json | undefined)?.text ?? '');

/** The calls the bot made, indexed as they arrive (reads fake.calls from where it left off). */
class CallIndex {
  private cursor = 0;
  readonly opensByTrigger = new Map<string, FakeCall[]>();
  readonly updatesByView = new Map<string, FakeCall[]>();
  readonly quotePostsByDraft = new Map<string, FakeCall[]>();
  readonly cardsByTracking = new Map<string, FakeCall[]>();
  readonly ephemeral: FakeCall[] = [];

  constructor(private readonly fake: FakeSlack) {}

  private static add(map: Map<string, FakeCall[]>, key: string, call: FakeCall): void {
    const list = map.get(key);
    if (list) list.push(call);
    else map.set(key, [call]);
  }

  update(): this {
    const calls = this.fake.calls;
    for (; this.cursor < calls.length; this.cursor += 1) {
      const call = calls[this.cursor];
      if (!call) continue;
      const body = call.body;
      switch (call.method) {
        case 'views.open':
          CallIndex.add(this.opensByTrigger, String(body.trigger_id), call);
          break;
        case 'views.update':
          CallIndex.add(this.updatesByView, String(body.view_id), call);
          break;
        case 'chat.postMessage': {
          const booked = /^Booked (\S+)/.exec(String(body.text ?? ''));
          if (booked?.[1]) CallIndex.add(this.cardsByTracking, booked[1], call);
          for (const block of (Array.isArray(body.blocks) ? body.blocks : []) as Json[]) {
            for (const element of (Array.isArray(block.elements) ? block.elements : []) as Json[]) {
              if (element.action_id === ids.bookFromQuote) {
                CallIndex.add(this.quotePostsByDraft, String(element.value), call);
              }
            }
          }
          break;
        }
        case 'chat.postEphemeral':
          this.ephemeral.push(call);
          break;
      }
    }
    return this;
  }

  /** views.update calls for a view whose new view has this callback_id. */
  updates(viewId: string, callbackId: string): FakeCall[] {
    return (this.updatesByView.get(viewId) ?? []).filter((c) => viewOf(c).callback_id === callbackId);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Load jobs
// ---------------------------------------------------------------------------------------------------------

interface Target {
  name: string;
  url: string;
}

async function runLoad(target: Target, requests: LoadJob['requests']): Promise<LoadReport> {
  const job: LoadJob = {
    url: target.url,
    signingSecret: secrets.signingSecret,
    requests,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    deadlineMs: LOAD_DEADLINE_MS,
  };
  const child = spawnTs(join(repoRoot, 'bench/load.ts'), { env: process.env });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin?.end(JSON.stringify(job));
  // The load process stops itself at its deadline; this is the backstop.
  const killer = setTimeout(() => child.kill('SIGKILL'), LOAD_DEADLINE_MS + 15_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(killer);
  if (code !== 0) {
    throw new Error(
      `load process exited with ${code}: ${Buffer.concat(stderr).toString('utf8').slice(-2000)}`,
    );
  }
  return JSON.parse(Buffer.concat(stdout).toString('utf8')) as LoadReport;
}

interface AckStats {
  requests: number;
  /** HTTP 200 with the expected kind of answer. */
  ok: number;
  failed: number;
  over3s: number;
  ackMs: Summary;
  /** Requests answered per second, first send to last answer. */
  perSecond: number;
  wallMs: number;
  /** e.g. { '200 update': 199, '200 errors': 1 } */
  answers: Record<string, number>;
  firstErrors: string[];
}

function ackStats(report: LoadReport, expectedAction: string | undefined): AckStats {
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  const firstErrors: string[] = [];
  let ok = 0;
  let lastEnd = report.startedAt;
  for (const r of report.results) {
    const label = r.error ? 'error' : `${r.status}${r.responseAction ? ` ${r.responseAction}` : ''}`;
    answers[label] = (answers[label] ?? 0) + 1;
    if (r.latencyMs !== null) {
      latencies.push(r.latencyMs);
      lastEnd = Math.max(lastEnd, r.sentAt + r.latencyMs);
    }
    const good =
      r.status === 200 && !r.error && (expectedAction === undefined || r.responseAction === expectedAction);
    if (good) ok += 1;
    else if (firstErrors.length < 3) firstErrors.push(`${r.key}: ${r.error ?? label}`);
  }
  const firstSend = Math.min(...report.results.map((r) => r.sentAt));
  const wallMs = lastEnd - firstSend;
  return {
    requests: report.results.length,
    ok,
    failed: report.results.length - ok,
    over3s: report.results.filter((r) => r.latencyMs === null || r.latencyMs > ACK_LIMIT_MS).length,
    ackMs: summarize(latencies),
    perSecond: wallMs > 0 ? Math.round((latencies.length / wallMs) * 1000 * 10) / 10 : 0,
    wallMs: Math.round(wallMs),
    answers,
    firstErrors,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------------------

function quoteCommand(fake: FakeSlack, tag: string, i: number) {
  const key = `${tag}.quote.${i}`;
  const body = slashCommandBody({
    command: '/quote',
    text: quoteText,
    user_id: `U${tag.toUpperCase()}${i}`,
    channel_id: CHANNEL,
    trigger_id: `trigger.${key}`,
    response_url: fake.responseUrl(`commands/${key}`),
  });
  return { key, body };
}

interface OpenedForm {
  viewId: string;
  draftId: string;
  user: string;
  body: string;
}

/** The submission of a form the bot opened: its blocks, with the quote typed in. */
function quoteSubmission(open: FakeCall): OpenedForm {
  const sent = viewOf(open);
  const answered = ((open.response?.body as Json | undefined)?.view ?? {}) as Json;
  const viewId = String(answered.id ?? '');
  const privateMetadata = String(sent.private_metadata ?? '');
  const blocks = (sent.blocks ?? []) as unknown[];
  const key = String(open.body.trigger_id).replace(/^trigger\./, '');
  const user = `U${key.split('.')[0]?.toUpperCase()}${key.split('.').at(-1)}`;
  const payload = viewSubmissionPayload({
    callbackId: String(sent.callback_id),
    privateMetadata,
    viewId,
    hash: String(answered.hash ?? 'h1'),
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
    blocks: blocks as any[],
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
    stateValues: stateFor(blocks as any[], quoteTyped),
    user,
  });
  return {
    viewId,
    draftId: String((JSON.parse(privateMetadata) as { draftId?: string }).draftId),
    user,
    body: interactiveBody(payload),
  };
}

interface BookingCase {
  draftId: string;
  trackingNumber: string;
  viewId: string;
  user: string;
}

/** N booking drafts at the review step, written to the bot's SQLite file before it starts. */
function createBookingDrafts(fake: FakeSlack, dbPath: string, tag: string, env: NodeJS.ProcessEnv) {
  const store = openStore({ path: dbPath });
  const waybill = loadWaybillConfig(env);
  const deps = createBotDeps({
    waybill,
    courier: {} as WaybillClient,
    store,
    logger: pino({ level: 'silent' }),
    bot: loadBotConfig(env),
  });
  const cases: BookingCase[] = [];
  try {
    for (let i = 0; i < N; i += 1) {
      const user = `UBK${tag.toUpperCase()}${i}`;
      const data: BookingDraft = {
        input: bookingInput(),
        step: 'review',
        parcels: 3,
        rev: 1,
        generatedTrackingNumber: store.trackingNumbers.next(`BN${tag.toUpperCase()}`),
        responseUrl: fake.responseUrl(`commands/${tag}.book.${i}`),
      };
      const checked = validateDraft(deps, data);
      if (!checked.ok) {
        throw new Error(`bench booking draft is not valid: ${JSON.stringify(checked.errors.slice(0, 3))}`);
      }
      const draft = store.drafts.create<BookingDraft>({
        kind: 'booking',
        userId: user,
        channelId: CHANNEL,
        data,
      });
      cases.push({
        draftId: draft.id,
        trackingNumber: data.generatedTrackingNumber ?? '',
        viewId: `VBOOK${tag.toUpperCase()}${String(i).padStart(5, '0')}`,
        user,
      });
    }
  } finally {
    store.close();
  }
  return cases;
}

function bookingSubmission(c: BookingCase): { key: string; body: string } {
  const payload = viewSubmissionPayload({
    callbackId: ids.bookingReview,
    privateMetadata: JSON.stringify({ draftId: c.draftId }),
    viewId: c.viewId,
    hash: 'h1',
    blocks: [],
    stateValues: {},
    user: c.user,
  });
  return { key: c.trackingNumber, body: interactiveBody(payload) };
}

// ---------------------------------------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------------------------------------

interface ResultStats {
  expected: number;
  /** At least one result reached the user. */
  delivered: number;
  lost: number;
  /** No modal update / no channel post (the other may have arrived). */
  missingView: number;
  missingPost: number;
  /** More than one result for one submission (of either kind). */
  duplicated: number;
  /** Outcomes that are failures (an error view, an ephemeral failure, a failed ack). */
  errors: number;
  /** Submission to the first result (the channel post or the modal update, whichever came first). */
  toResultMs: Summary;
  toPostMs: Summary;
  toViewMs: Summary;
  /** Bookings only: rows in the bookings table for these tracking numbers, after the bot stopped. */
  dbRows?: number;
  notes: string[];
}

interface Expectation {
  key: string;
  sentAt: number | undefined;
  views: FakeCall[];
  posts: FakeCall[];
  failedView: (view: Json) => boolean;
}

function resultStats(
  items: Expectation[],
  arrivals: Map<FakeCall, number>,
  ackFailures: number,
  extraErrors: number,
): ResultStats {
  const toResult: number[] = [];
  const toPost: number[] = [];
  const toView: number[] = [];
  let delivered = 0;
  let duplicated = 0;
  let missingView = 0;
  let missingPost = 0;
  let errors = ackFailures + extraErrors;
  const notes: string[] = [];
  const first = (calls: FakeCall[]) =>
    Math.min(...calls.map((c) => arrivals.get(c) ?? Number.POSITIVE_INFINITY));
  for (const item of items) {
    if (item.views.length + item.posts.length > 0) delivered += 1;
    if (item.views.length === 0) missingView += 1;
    if (item.posts.length === 0) missingPost += 1;
    if (item.views.length > 1 || item.posts.length > 1) {
      duplicated += 1;
      if (notes.length < 3) notes.push(`${item.key}: ${item.views.length} views, ${item.posts.length} posts`);
    }
    if (item.views.some((c) => item.failedView(viewOf(c)))) errors += 1;
    if (item.sentAt === undefined) continue;
    const sentAt = item.sentAt;
    if (item.posts.length) toPost.push(first(item.posts) - sentAt);
    if (item.views.length) toView.push(first(item.views) - sentAt);
    if (item.views.length + item.posts.length) toResult.push(first([...item.views, ...item.posts]) - sentAt);
  }
  if (missingView) notes.push(`${missingView} without the modal update`);
  if (missingPost) notes.push(`${missingPost} without the channel post`);
  return {
    expected: items.length,
    delivered,
    missingView,
    missingPost,
    lost: items.length - delivered,
    duplicated,
    errors,
    toResultMs: summarize(toResult),
    toPostMs: summarize(toPost),
    toViewMs: summarize(toView),
    notes,
  };
}

async function waitUntil(done: () => boolean, capMs: number): Promise<boolean> {
  const until = epochMs() + capMs;
  while (epochMs() < until) {
    if (done()) return true;
    await sleep(50);
  }
  return done();
}

// ---------------------------------------------------------------------------------------------------------
// One process under test
// ---------------------------------------------------------------------------------------------------------

interface PhaseReport {
  name: string;
  ack: AckStats;
  /** Commands: the form opening (views.open) after the command was sent. */
  formOpenMs?: Summary;
  formsOpened?: number;
  formsOpenedOver3s?: number;
  results?: ResultStats;
}

interface InstanceReport {
  name: string;
  kind: 'bot' | 'bare-bolt';
  upstreamLatencyMs?: number;
  startupMs: number;
  idleRssMB: number;
  /** VmHWM just before stopping: the highest resident set of the process's life. */
  peakRssMB: number;
  exit: number | string;
  warnOrErrorLogLines: number;
  phases: PhaseReport[];
}

const mb = (mem: Memory | undefined, field: keyof Memory) =>
  mem ? Math.round(((mem[field] * 1024 * 1024) / 1e6) * 10) / 10 : Number.NaN;

interface Started {
  pid: number;
  child: ReturnType<typeof spawnTs>;
  startupMs: number;
  idleRssMB: number;
  logFile: string;
}

async function startProcess(script: string, env: NodeJS.ProcessEnv, port: number, logFile: string) {
  const spawnedAt = epochMs();
  // e.g. BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the processes under test.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawnTs(join(repoRoot, script), { env, logFile, nodeArgs });
  live.add(child);
  const startupMs = await waitHealthy(`http://127.0.0.1:${port}/healthz`, spawnedAt, START_TIMEOUT_MS);
  if (startupMs === undefined || child.pid === undefined) {
    await stopChild(child, 2000);
    throw new Error(`${script} did not answer /healthz within ${START_TIMEOUT_MS} ms:\n${tail(logFile)}`);
  }
  await sleep(500);
  const started: Started = {
    pid: child.pid,
    child,
    startupMs: Math.round(startupMs),
    idleRssMB: mb(readMemory(child.pid), 'rssMiB'),
    logFile,
  };
  return started;
}

async function stopProcess(started: Started, graceMs: number) {
  const peakRssMB = mb(readMemory(started.pid), 'hwmMiB');
  const exit = await stopChild(started.child, graceMs);
  live.delete(started.child);
  const lines = readFileSync(started.logFile, 'utf8').split('\n');
  const warnOrErrorLogLines = lines.filter((l) => /"level":(40|50|60)|\b(WARN|ERROR)\b/.test(l)).length;
  return { peakRssMB, exit, warnOrErrorLogLines };
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

const live = new Set<ReturnType<typeof spawnTs>>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function botEnv(port: number, dbPath: string, latencyMs: number, apiUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_APP_TOKEN: '',
    SLACK_API_URL: apiUrl,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_PATH: dbPath,
    WAYBILL_ENV: 'sandbox',
    WAYBILL_TIMEZONE: 'UTC',
    WAYBILL_SANDBOX_LATENCY_MS: String(latencyMs),
    WAYBILL_TIMEOUT_MS: String(Math.max(15_000, latencyMs * 2)),
    AUDIT_CHANNEL_ID: '',
    SENDER_PROFILES_FILE: '',
  };
}

interface Context {
  fake: FakeSlack;
  arrivals: Map<FakeCall, number>;
  tmp: string;
}

/** The bot with the sandbox delaying every answer by `latencyMs`: commands, quotes, bookings. */
async function benchBot(ctx: Context, latencyMs: number, onForms: (forms: OpenedForm[]) => void) {
  const { fake, arrivals } = ctx;
  const tag = `l${latencyMs / 1000}s`.replace('.', '_');
  const name = `bot, upstream ${latencyMs / 1000} s`;
  fake.reset();
  arrivals.clear();
  const index = new CallIndex(fake);
  const port = await freePort();
  const dbPath = join(ctx.tmp, `${tag}.sqlite`);
  const env = botEnv(port, dbPath, latencyMs, fake.apiUrl);
  const bookings = createBookingDrafts(fake, dbPath, tag, env);
  log(`${name}: starting (${bookings.length} booking drafts pre-created)`);
  const started = await startProcess('dist/app.js', env, port, join(ctx.tmp, `${tag}.log`));
  const target = { name, url: `http://127.0.0.1:${port}/slack/events` };

  // Warm-up, not measured: a few forms opened and submitted, one at a time.
  const warm = Array.from({ length: WARM_UP }, (_, i) => quoteCommand(fake, `${tag}w`, i));
  for (const request of warm) await runLoad(target, [request]);
  await waitUntil(() => warm.every((w) => index.update().opensByTrigger.has(`trigger.${w.key}`)), 10_000);
  const warmForms = warm
    .flatMap((w) => index.opensByTrigger.get(`trigger.${w.key}`) ?? [])
    .map(quoteSubmission);
  await runLoad(
    target,
    warmForms.map((f) => ({ key: `warm.${f.viewId}`, body: f.body })),
  );

  // 1. N concurrent /quote commands.
  log(`${name}: ${N} concurrent /quote commands`);
  const commands = Array.from({ length: N }, (_, i) => quoteCommand(fake, tag, i));
  const commandLoad = await runLoad(target, commands);
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
    formOpenMs: summarize(openDelays),
    formsOpened: openDelays.length,
    formsOpenedOver3s: openDelays.filter((d) => d > ACK_LIMIT_MS).length,
  };
  if (!openedAll) log(`${name}: only ${openDelays.length} of ${N} forms opened`);

  // 2. N concurrent quote submissions, one per form just opened.
  const forms = commands.flatMap((c) => index.opensByTrigger.get(`trigger.${c.key}`)?.slice(0, 1) ?? []);
  const submissions = forms.map(quoteSubmission);
  onForms(submissions);
  log(`${name}: ${submissions.length} concurrent quote submissions`);
  const quoteLoad = await runLoad(
    target,
    submissions.map((s) => ({ key: s.viewId, body: s.body })),
  );
  const quoteWait = latencyMs + RESULT_WAIT_MS;
  await waitUntil(() => {
    index.update();
    return submissions.every(
      (s) => index.updates(s.viewId, ids.quoteResult).length > 0 && index.quotePostsByDraft.has(s.draftId),
    );
  }, quoteWait);

  // 3. N concurrent booking confirmations of the pre-created drafts.
  log(`${name}: ${bookings.length} concurrent booking confirmations`);
  const bookingLoad = await runLoad(target, bookings.map(bookingSubmission));
  await waitUntil(() => {
    index.update();
    return bookings.every(
      (b) =>
        index.updates(b.viewId, ids.bookingOutcome).length > 0 && index.cardsByTracking.has(b.trackingNumber),
    );
  }, quoteWait);

  // Stop (the bot finishes what is in flight), then count everything that reached Slack.
  const stopped = await stopProcess(started, latencyMs + 25_000);
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
  const db = new Database(dbPath, { readonly: true });
  try {
    const count = db.prepare('SELECT count(*) AS n FROM bookings WHERE tracking_number = ?');
    bookingResults.dbRows = bookings.reduce(
      (sum, b) => sum + Number((count.get(b.trackingNumber) as { n: number }).n),
      0,
    );
  } finally {
    db.close();
  }
  if (bookingResults.dbRows !== bookings.length) {
    bookingResults.notes.push(`${bookingResults.dbRows} booking rows for ${bookings.length} confirmations`);
  }

  const report: InstanceReport = {
    name,
    kind: 'bot',
    upstreamLatencyMs: latencyMs,
    startupMs: started.startupMs,
    idleRssMB: started.idleRssMB,
    peakRssMB: stopped.peakRssMB,
    exit: stopped.exit,
    warnOrErrorLogLines: stopped.warnOrErrorLogLines,
    phases: [
      commandPhase,
      { name: 'quote submission', ack: quoteAcks, results: quoteResults },
      { name: 'booking confirmation', ack: bookingAcks, results: bookingResults },
    ],
  };
  return report;
}

/** The bare Bolt app: the same commands and the same quote submissions, acknowledged and nothing else. */
async function benchBare(ctx: Context, forms: OpenedForm[]): Promise<InstanceReport> {
  const { fake } = ctx;
  const name = 'bare Bolt';
  fake.reset();
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
  };
  log(`${name}: starting`);
  const started = await startProcess('bench/bare-bolt.mjs', env, port, join(ctx.tmp, 'bare-bolt.log'));
  const target = { name, url: `http://127.0.0.1:${port}/slack/events` };
  for (let i = 0; i < WARM_UP; i += 1) await runLoad(target, [quoteCommand(fake, 'barew', i)]);
  await runLoad(
    target,
    forms.slice(0, WARM_UP).map((f) => ({ key: `warm.${f.viewId}`, body: f.body })),
  );
  log(`${name}: ${N} concurrent /quote commands`);
  const commands = await runLoad(
    target,
    Array.from({ length: N }, (_, i) => quoteCommand(fake, 'bare', i)),
  );
  log(`${name}: ${forms.length} concurrent quote submissions`);
  const submissions = await runLoad(
    target,
    forms.map((f) => ({ key: f.viewId, body: f.body })),
  );
  const stopped = await stopProcess(started, 5000);
  return {
    name,
    kind: 'bare-bolt',
    startupMs: started.startupMs,
    idleRssMB: started.idleRssMB,
    peakRssMB: stopped.peakRssMB,
    exit: stopped.exit,
    warnOrErrorLogLines: stopped.warnOrErrorLogLines,
    phases: [
      { name: '/quote command', ack: ackStats(commands, undefined) },
      { name: 'quote submission', ack: ackStats(submissions, undefined) },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------------

function machine() {
  const run = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const memTotal = /^Mem:\s+(\S+)/m.exec(run('free', ['-h']))?.[1] ?? 'unknown';
  return {
    cpus: os.cpus().length,
    nproc: run('nproc', []),
    memTotal,
    node: process.version,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
  };
}

interface TargetCheck {
  target: string;
  figure: string;
  met: boolean | null;
}

function phase(instance: InstanceReport | undefined, name: string): PhaseReport | undefined {
  return instance?.phases.find((p) => p.name === name);
}

function targets(instances: InstanceReport[]): TargetCheck[] {
  const bots = instances.filter((i) => i.kind === 'bot');
  const bot0 = bots.find((i) => i.upstreamLatencyMs === 0);
  const slow = bots.find((i) => i.upstreamLatencyMs === 10_000);
  const bare = instances.find((i) => i.kind === 'bare-bolt');
  const checks: TargetCheck[] = [];
  for (const name of ['/quote command', 'quote submission']) {
    const ours = phase(bot0, name)?.ack.ackMs.p99 ?? null;
    const theirs = phase(bare, name)?.ack.ackMs.p99 ?? null;
    const ratio = ours !== null && theirs ? ours / theirs : null;
    checks.push({
      target: `${name}: p99 ack ≤ 1.5× bare Bolt's`,
      figure: ratio === null ? 'n/a' : `${ours} ms vs ${theirs} ms = ${ratio.toFixed(2)}×`,
      met: ratio === null ? null : ratio <= 1.5,
    });
    checks.push({
      target: `${name}: p99 ack < 250 ms (N=${N}${N === 200 ? '' : '; target is for N=200'})`,
      figure: `${ours ?? 'n/a'} ms`,
      met: ours === null ? null : ours < 250,
    });
  }
  const slowAcks = slow?.phases.filter((p) => p.name !== '/quote command') ?? [];
  const slowOver = slowAcks.reduce((sum, p) => sum + p.ack.over3s, 0);
  const slowMax = Math.max(...slowAcks.map((p) => p.ack.ackMs.max ?? 0));
  checks.push({
    target: 'every ack < 3 s with the upstream at 10 s',
    figure: slow ? `${slowOver} over 3 s; max ${slowMax} ms` : 'not run (--smoke/--skip-slow)',
    met: slow ? slowOver === 0 : null,
  });
  const results = bots.flatMap((b) => b.phases.flatMap((p) => (p.results ? [p.results] : [])));
  const lost = results.reduce((sum, r) => sum + r.lost, 0);
  const duplicated = results.reduce((sum, r) => sum + r.duplicated, 0);
  const dbMismatch = bots.some((b) => {
    const r = phase(b, 'booking confirmation')?.results;
    return r ? r.dbRows !== r.expected : false;
  });
  checks.push({
    target: 'no lost or duplicated result (and one booking row each)',
    figure: `${lost} lost, ${duplicated} duplicated${dbMismatch ? ', booking rows ≠ confirmations' : ''}`,
    met: lost === 0 && duplicated === 0 && !dbMismatch,
  });
  const peak = Math.max(...bots.map((b) => b.peakRssMB));
  checks.push({ target: 'peak RSS < 200 MB', figure: `${peak} MB`, met: peak < 200 });
  const startup = Math.max(...bots.map((b) => b.startupMs));
  checks.push({
    target: 'start-up (spawn → first /healthz 200) < 1.5 s',
    figure: `worst ${startup} ms (${bots.map((b) => b.startupMs).join(', ')} ms)`,
    met: startup < 1500,
  });
  return checks;
}

function table(rows: (string | number | null)[][]): string {
  const text = rows.map((row) => row.map((cell) => (cell === null ? '-' : String(cell))));
  const widths = text[0]?.map((_, col) => Math.max(...text.map((row) => row[col]?.length ?? 0))) ?? [];
  return text
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function render(report: {
  machine: ReturnType<typeof machine>;
  n: number;
  mode: string;
  totalSeconds: number;
  instances: InstanceReport[];
  targets: TargetCheck[];
}): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(
    `Benchmark (${report.mode}, N=${report.n}) on ${m.nproc} cores (nproc), ${m.memTotal} RAM, node ${m.node}; ${report.totalSeconds} s in all`,
  );
  out.push('');
  out.push(
    table([
      ['process', 'start-up ms', 'idle RSS MB', 'peak RSS MB', 'warn/error log lines', 'exit'],
      ...report.instances.map((i) => [
        i.name,
        i.startupMs,
        i.idleRssMB,
        i.peakRssMB,
        i.warnOrErrorLogLines,
        i.exit,
      ]),
    ]),
  );
  out.push('');
  out.push('Acknowledgements (ms, sent → answer read by the load process)');
  out.push(
    table([
      ['process / phase', 'n', 'ok', 'p50', 'p95', 'p99', 'max', '>3 s', 'req/s'],
      ...report.instances.flatMap((i) =>
        i.phases.map((p) => [
          `${i.name}: ${p.name}`,
          p.ack.requests,
          p.ack.ok,
          p.ack.ackMs.p50,
          p.ack.ackMs.p95,
          p.ack.ackMs.p99,
          p.ack.ackMs.max,
          p.ack.over3s,
          p.ack.perSecond,
        ]),
      ),
    ]),
  );
  out.push('');
  out.push('Results reaching the user (ms from submission; result = first of channel post / modal update)');
  const resultRows = report.instances.flatMap((i) =>
    i.phases.flatMap((p) =>
      p.results
        ? [
            [
              `${i.name}: ${p.name}`,
              p.results.expected,
              p.results.delivered,
              p.results.lost,
              p.results.duplicated,
              p.results.errors,
              p.results.toResultMs.p50,
              p.results.toResultMs.p95,
              p.results.toResultMs.p99,
              p.results.toResultMs.max,
              p.results.toViewMs.p99,
              p.results.dbRows ?? null,
            ],
          ]
        : [],
    ),
  );
  out.push(
    table([
      [
        'process / phase',
        'n',
        'delivered',
        'lost',
        'dup',
        'errors',
        'p50',
        'p95',
        'p99',
        'max',
        'modal p99',
        'DB rows',
      ],
      ...resultRows,
    ]),
  );
  out.push('');
  out.push('Forms opened after /quote (views.open; Slack expires the trigger_id 3 s after the command)');
  out.push(
    table([
      ['process', 'opened', 'p50', 'p95', 'p99', 'max', '>3 s'],
      ...report.instances.flatMap((i) => {
        const p = phase(i, '/quote command');
        return p?.formOpenMs
          ? [
              [
                i.name,
                `${p.formsOpened}/${p.ack.requests}`,
                p.formOpenMs.p50,
                p.formOpenMs.p95,
                p.formOpenMs.p99,
                p.formOpenMs.max,
                p.formsOpenedOver3s ?? null,
              ],
            ]
          : [];
      }),
    ]),
  );
  out.push('');
  out.push('Targets (reported, not enforced)');
  out.push(
    table([
      ['', 'target', 'figure'],
      ...report.targets.map((t) => [t.met === null ? 'n/a' : t.met ? 'met' : 'MISSED', t.target, t.figure]),
    ]),
  );
  const notes = report.instances.flatMap((i) =>
    i.phases.flatMap((p) => [
      ...p.ack.firstErrors.map((e) => `${i.name}: ${p.name}: ack ${e}`),
      ...(p.results?.notes ?? []).map((n) => `${i.name}: ${p.name}: ${n}`),
    ]),
  );
  if (notes.length) out.push('', 'Notes', ...notes.map((n) => `  ${n}`));
  return out.join('\n');
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const begun = epochMs();
  const fake = await startFakeSlack();
  const arrivals = trackArrivals(fake);
  const tmp = mkdtempSync(join(os.tmpdir(), 'waybill-bench-'));
  const ctx: Context = { fake, arrivals, tmp };
  const instances: InstanceReport[] = [];
  try {
    let forms: OpenedForm[] = [];
    for (const latencyMs of latencies) {
      instances.push(
        await benchBot(ctx, latencyMs, (f) => {
          if (latencyMs === 0) forms = f;
        }),
      );
      if (latencyMs === 0) instances.push(await benchBare(ctx, forms));
    }
  } finally {
    await fake.close();
  }
  const report = {
    mode: smoke ? 'smoke' : skipSlow ? 'skip-slow' : 'full',
    n: N,
    date: new Date().toISOString(),
    machine: machine(),
    totalSeconds: Math.round((epochMs() - begun) / 100) / 10,
    instances,
    targets: targets(instances),
  };
  const text = render(report);
  process.stdout.write(`${text}\n`);
  const dir = join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify({ ...report, table: text }, null, 2)}\n`);
  log(`figures written to bench/results/latest.json`);
  rmSync(tmp, { recursive: true, force: true });

  if (flags.check) {
    const broken = instances.some(
      (i) =>
        i.phases.some(
          (p) =>
            p.ack.failed > 0 || (p.results && (p.results.lost || p.results.duplicated || p.results.errors)),
        ) ||
        (i.kind === 'bot' &&
          i.phases.some((p) => p.results?.dbRows !== undefined && p.results.dbRows !== p.results.expected)),
    );
    if (broken) {
      log('--check: a result was lost or duplicated, or an ack or outcome failed');
      process.exitCode = 1;
    }
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
