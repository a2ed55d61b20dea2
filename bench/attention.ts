/** The bench's attention turn: every rule of what needs attention run against the big store, its database time per turn. */
import type { StoreTarget } from '../fakes/bulk-insert.js';
import { needsAttention } from '../src/operations/attention.js';
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
    };
  } finally {
    await store.close();
  }
}

/** The turn against the target. */
export function attentionTargets(turns: readonly AttentionTurn[]): TargetCheck[] {
  return turns.map((turn) => ({
    target: `attention turn on ${turn.bookings} bookings (${turn.backend}): p50 ≤ ${TARGET_MS} ms`,
    figure: `${Math.round(turn.p50Ms)} ms (max ${Math.round(turn.maxMs)} ms, ${turn.items} items)`,
    met: turn.p50Ms <= TARGET_MS,
  }));
}
