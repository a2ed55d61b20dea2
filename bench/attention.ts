/** The bench's attention turn: every rule of what needs attention run against the big store, its database time per turn; then a reminders turn's. */
import type { StoreTarget } from '../fakes/bulk-insert.js';
import { needsAttention } from '../src/operations/attention.js';
import { planReminders, reminderId } from '../src/operations/reminders.js';
import { openStore } from '../src/store/index.js';
import { epochMs, percentile, type TargetCheck } from './lib.js';

/** Issue 31's target: a turn (every rule's query) within 50 ms of database time on the big store. */
const TARGET_MS = 50;
const TURNS = 30;
/** Every this-many-th booking gets a status, so the status rules have rows to read (a third of each kind). */
const STATUS_EVERY = 10;

export interface AttentionTurn {
  backend: 'sqlite' | 'postgres';
  bookings: number;
  statuses: number;
  /** Items found in one turn. */
  items: number;
  p50Ms: number;
  maxMs: number;
  /** A reminders turn once every item was reminded: the rules, the items' claim rows, the owners' last DMs, the plan. */
  reminders: { p50Ms: number; maxMs: number; claimMs: number };
}

/**
 * On a store already holding `bookings` bookings (tracking numbers from `trackingNumber`): statuses
 * recorded on every tenth one, then TURNS turns of every rule, each timed from the first query to the last answer.
 */
export async function measureAttention(
  backend: AttentionTurn['backend'],
  target: StoreTarget,
  bookings: number,
  trackingNumber: (i: number) => string,
): Promise<AttentionTurn> {
  const store = await openStore({ ...target, leaseRenewMs: 0 });
  try {
    const kinds = ['failed_attempt', 'in_transit', 'delivered'] as const;
    let statuses = 0;
    for (let i = 0; i < bookings; i += STATUS_EVERY) {
      await store.statuses.record({
        trackingNumber: trackingNumber(i),
        userId: 'UDISPATCH',
        status: kinds[statuses % kinds.length] ?? 'delivered',
        ...(statuses % kinds.length === 0 ? { reason: 'not_at_home' } : {}),
      });
      statuses++;
    }
    // The defaults, a month after every status: each rule finds what it can.
    const input = {
      settings: {
        failedAfterMs: 86_400_000,
        staleAfterMs: 5 * 86_400_000,
        unknownAfterMs: 900_000,
        codAfterMs: 7 * 86_400_000,
        attemptLimit: 3,
      },
      now: new Date(Date.now() + 30 * 86_400_000),
      timeZone: 'Asia/Manila',
      codPaymentMethod: 'COD',
    };
    const times: number[] = [];
    let items = 0;
    for (let turn = 0; turn < TURNS; turn++) {
      const begun = epochMs();
      items = (await needsAttention(store, input)).length;
      times.push(epochMs() - begun);
    }
    times.sort((a, b) => a - b);
    return {
      backend,
      bookings,
      statuses,
      items,
      p50Ms: percentile(times, 50) ?? 0,
      maxMs: times.at(-1) ?? 0,
      reminders: await measureReminders(store, input),
    };
  } finally {
    await store.close();
  }
}

/**
 * A first reminders turn (its plan, one claim per owner recorded sent, as the job does without Slack:
 * that time reported), then TURNS turns with nothing left to send, the steady state. The bot the
 * export's phase ran on this store may have reminded some items already: they are planned around.
 */
async function measureReminders(
  store: Awaited<ReturnType<typeof openStore>>,
  input: Parameters<typeof needsAttention>[1],
): Promise<AttentionTurn['reminders']> {
  const settings = { quietHours: undefined, batchEveryMs: 900_000, escalateAfterMs: 0 };
  const planned = async () => {
    const items = await needsAttention(store, input);
    // As the job reads them: at once.
    const [reminded, lastDmAt] = await Promise.all([
      store.reminders.of(items),
      store.reminders.lastDmAt(items.map((item) => item.ownerId)),
    ]);
    const rows = new Map(reminded.map((row) => [reminderId(row), row]));
    return {
      lastDmAt,
      ...planReminders({ items, rows, lastDmAt, now: input.now, settings, timeZone: input.timeZone }),
    };
  };
  const claimed = epochMs();
  const first = await planned();
  for (const [ownerId, entries] of first.send) {
    const items = entries.map(({ item, row }) => ({ ...item, version: row?.version ?? 0 }));
    const batch = await store.reminders.claim({ ownerId, lastDmAt: first.lastDmAt.get(ownerId), items });
    if (!batch) throw new Error(`the first reminders turn could not claim ${ownerId}'s items`);
    await store.reminders.sent(batch, items, { channel: 'DBENCH', ts: '1.000001' });
  }
  const claimMs = epochMs() - claimed;
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const begun = epochMs();
    const { send } = await planned();
    times.push(epochMs() - begun);
    if (send.size > 0) throw new Error('a reminders turn after every item was sent found more to send');
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50) ?? 0, maxMs: times.at(-1) ?? 0, claimMs };
}

/** The turns against the target. */
export function attentionTargets(turns: readonly AttentionTurn[]): TargetCheck[] {
  return turns.flatMap((turn) => [
    {
      target: `attention turn on ${turn.bookings} bookings (${turn.backend}): p50 ≤ ${TARGET_MS} ms`,
      figure: `${Math.round(turn.p50Ms)} ms (max ${Math.round(turn.maxMs)} ms, ${turn.items} items)`,
      met: turn.p50Ms <= TARGET_MS,
    },
    {
      target: `reminders turn on ${turn.bookings} bookings (${turn.backend}), all ${turn.items} items reminded: p50 ≤ ${TARGET_MS} ms`,
      figure: `${Math.round(turn.reminders.p50Ms)} ms (max ${Math.round(turn.reminders.maxMs)} ms; the first turn's claims ${Math.round(turn.reminders.claimMs)} ms)`,
      met: turn.reminders.p50Ms <= TARGET_MS,
    },
  ]);
}
