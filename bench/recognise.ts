/**
 * The bench's recognition of tracking numbers in messages (issue 32): 10,000 ordinary channel messages,
 * none naming one of our numbers, sent where recognition is on, against as many events of a type no
 * listener takes (the same text): the acks' ratio, and the Slack calls the messages caused.
 */
import { join } from 'node:path';
import { eventCallbackBody } from '../fakes/slack-requests.js';
import { loadBotConfig } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import { CHANNEL } from './fixtures.js';
import { type Summary, summarize, type TargetCheck } from './lib.js';
import type { Context } from './phases.js';
import { botEnv, log, okAcks, runLoad, startProcess, stopProcess } from './processes.js';

/** Sent in bursts, the two kinds taking turns, so that the machine's load falls on both alike. */
const BURST = 500;

export interface RecogniseReport {
  messages: number;
  /** Acks of the messages, and of the reference events. */
  messageAck: Summary;
  referenceAck: Summary;
  /** Slack Web API calls made while the messages were sent. */
  slackCalls: number;
  failed: number;
}

/** Dispatchers' chatter: words, times, amounts, phones and numbers that are not ours (`WB12345`, `XWB000001`). */
const WORDS = [
  'did',
  'the',
  'parcel',
  'go',
  'out',
  'rider',
  'is',
  'late',
  'Maria',
  'Cebu',
  'COD',
  'ok',
  '👍',
];
const NUMBERS = [
  'WB12345',
  'XWB000001',
  'WB-000001',
  'PO-5521',
  '0917 123 4567',
  '₱1,250.50',
  '10:30',
  '2026-11-26',
];

/** Message i's text, the same in every run. */
export function ordinaryMessage(i: number): string {
  let seed = i * 2_654_435_761;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: 4 + next(20) }, () =>
    next(5) === 0 ? (NUMBERS[next(NUMBERS.length)] as string) : (WORDS[next(WORDS.length)] as string),
  ).join(' ');
}

const event = (type: string, i: number) => ({
  key: `${type}.${i}`,
  body: eventCallbackBody({
    type,
    channel: CHANNEL,
    channel_type: 'channel',
    user: 'UDISPATCH',
    text: ordinaryMessage(i),
    ts: `1764000000.${String(i).padStart(6, '0')}`,
  }),
});

export async function benchRecognise(ctx: Context, messages: number): Promise<RecogniseReport> {
  const { fake } = ctx;
  fake.reset();
  const envFor = (port: number) =>
    botEnv(port, { DATABASE_PATH: join(ctx.tmp, 'recognise.sqlite') }, 0, fake.apiUrl);
  const store = await openStore({ ...loadBotConfig(envFor(0)).database, leaseRenewMs: 0 });
  try {
    await store.recognition.turn(CHANNEL, true, 'UBENCH');
  } finally {
    await store.close();
  }
  const started = await startProcess('dist/app.js', envFor, join(ctx.tmp, 'recognise.log'));
  const target = { name: 'recognise', urls: [started.url] };
  log(`recognise: ${messages} ordinary messages, and as many events no listener takes, ${BURST} at a time`);
  const acks = { message: [] as number[], reaction_added: [] as number[] };
  let failed = 0;
  const send = async (type: keyof typeof acks, from: number, size: number) => {
    const results = (
      await runLoad(
        target,
        Array.from({ length: size }, (_, k) => event(type, from + k)),
      )
    ).results;
    failed += results.length - okAcks(results).length;
    return okAcks(results);
  };
  // An unmeasured warm-up of each kind, then the two kinds in turn, each first every other round.
  await send('message', messages, BURST);
  await send('reaction_added', messages, BURST);
  failed = 0;
  const calls = fake.calls.length;
  for (let from = 0, round = 0; from < messages; from += BURST, round++) {
    const size = Math.min(BURST, messages - from);
    const order =
      round % 2 ? (['reaction_added', 'message'] as const) : (['message', 'reaction_added'] as const);
    for (const type of order) acks[type].push(...(await send(type, from, size)));
  }
  // On SIGTERM the bot finishes what is in flight: any call a message caused has been made by then.
  await stopProcess(started, 10_000);
  const slackCalls = fake.calls.length - calls;
  return {
    messages,
    messageAck: summarize(acks.message),
    referenceAck: summarize(acks.reaction_added),
    slackCalls,
    failed,
  };
}

/** The word: no measurable ack time and no Slack calls. */
export function recogniseTargets(report: RecogniseReport | undefined): TargetCheck[] {
  if (!report) return [];
  const { messageAck: m, referenceAck: r } = report;
  const ratio = (a: number | null, b: number | null) => (a !== null && b ? (a / b).toFixed(2) : '-');
  return [
    {
      target: `${report.messages} ordinary messages, recognition on: acks as an event no listener takes`,
      figure: `p50 ${m.p50} / ${r.p50} ms (${ratio(m.p50, r.p50)}x), p99 ${m.p99} / ${r.p99} ms (${ratio(m.p99, r.p99)}x)`,
      met: null,
    },
    {
      target: `${report.messages} ordinary messages: no Slack call, every ack 200`,
      figure: `${report.slackCalls} Slack calls, ${report.failed} acks failed`,
      met: report.slackCalls === 0 && report.failed === 0,
    },
  ];
}
