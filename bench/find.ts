/** The bench's `/waybill find` on the big store (SQLite and PostgreSQL): the operation's query, page one, each kind of query. */
import type { StoreTarget } from '../fakes/bulk-insert.js';
import { seededParty } from '../fakes/parties.js';
import { findPage, readFindQuery } from '../src/operations/find.js';
import { openStore } from '../src/store/index.js';
import { percentile, slowestQueryTargets, type TargetCheck } from './lib.js';
import { TYPE_AHEAD_ROUNDS as ROUNDS, timed } from './type-ahead.js';

/** Issue 32's target: any query within 50 ms p99 on the big store's 100,000 bookings. */
const TARGET_P99_MS = 50;

export interface FindRow {
  backend: 'sqlite' | 'postgres';
  bookings: number;
  query: string;
  what: string;
  /** On the first page (at most 10). */
  found: number;
  p50Ms: number;
  p99Ms: number;
}

/** From one booking's own words to words no booking has; `middle` names a booking in the middle of the store. */
function queries(middle: { trackingNumber: string; party: number }) {
  const { phone } = seededParty(middle.party);
  return [
    { query: middle.trackingNumber, what: 'one tracking number' },
    { query: 'wb', what: 'the start of every tracking number' },
    { query: phone, what: 'a phone as typed' },
    { query: `po-${middle.party}`, what: 'a reference' },
    { query: 'maria', what: 'a tenth of them' },
    { query: 'maria', what: 'a tenth of them, all in channels the asker may not see', channel: 'CPUBLIC1' },
    { query: 'maria santos', what: 'two common words, 1 in 100 both' },
    { query: 'maria juan', what: 'two common words, never both' },
    { query: 'makati rice cooker', what: 'city and item, 1 in 24 all three' },
    { query: 'manila rice cooker', what: 'city and item, never all three' },
    { query: 'cod status:booked', what: 'two filters, 2 in 3 both' },
    { query: 'prepaid owner:UANA from:2026-06-01 to:2026-06-30', what: 'three filters and a month' },
    { query: 'status:failed', what: 'a status none has' },
    { query: 'zzz', what: 'nobody' },
  ];
}

/**
 * Each query's first page, ROUNDS times in a row, as a dispatcher in CDISPATCH (where every seeded
 * booking is) with the channel rule on, or in the query's own channel.
 */
export async function measureFind(
  backend: FindRow['backend'],
  target: StoreTarget,
  bookings: number,
  middle: { trackingNumber: string; party: number },
): Promise<FindRow[]> {
  const store = await openStore({ ...target, leaseRenewMs: 0 });
  try {
    const rows: FindRow[] = [];
    for (const { query, what, channel = 'CDISPATCH' } of queries(middle)) {
      const reading = readFindQuery(query, { userId: 'UDISPATCH', timeZone: 'Asia/Manila' });
      if (!reading.ok) throw new Error(`${query}: ${reading.problem}`);
      const page = () => findPage(store, reading.query, { channelIds: [channel] });
      const found = (await page()).bookings.length;
      const times = await timed(page);
      rows.push({
        backend,
        bookings,
        query,
        what,
        found,
        p50Ms: percentile(times, 50) ?? 0,
        p99Ms: percentile(times, 99) ?? 0,
      });
    }
    return rows;
  } finally {
    await store.close();
  }
}

/** The slowest query's p99 on each backend, against the target. */
export function findTargets(rows: FindRow[]): TargetCheck[] {
  return slowestQueryTargets(rows, (worst) => ({
    target: `/waybill find p99 <= ${TARGET_P99_MS} ms, any query, ${worst.bookings} bookings, ${worst.backend}`,
    met: worst.bookings >= 100_000 ? worst.p99Ms <= TARGET_P99_MS : null,
  }));
}

export { ROUNDS as FIND_ROUNDS };
