/** The bench's type-ahead: the address book's search on a big store (SQLite and PostgreSQL), against a lookup by id in the same run. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreTarget } from '../fakes/bulk-insert.js';
import { seededParty, seedParties } from '../fakes/parties.js';
import { throwawayDatabases } from '../fakes/throwaway-databases.js';
import { openStore } from '../src/store/index.js';
import { percentile, slowestQueryTargets, type TargetCheck } from './lib.js';

/** What a dispatcher types, from a word every party has to one no party has. */
export const TYPE_AHEAD_QUERIES = [
  { query: '0917', what: 'every party (phone prefix)' },
  { query: '', what: 'nothing typed (most recent)' },
  { query: 'ma', what: 'a prefix of many words' },
  { query: 'maria', what: 'a tenth of them' },
  { query: 'maria manila', what: 'two common words, 1 in 40 both' },
  { query: 'maria santos', what: 'two common words, 1 in 100 both' },
  { query: 'maria juan', what: 'two common words, never both' },
  { query: 'rosa 4', what: 'a common word and a rarer prefix' },
  { query: 'santos 49', what: 'a rare number' },
  { query: 'zzz', what: 'nobody' },
];
export const TYPE_AHEAD_ROUNDS = 100;
/** Issue 21's target: any query within 30 ms p99 on 50,000 parties. */
const TARGET_P99_MS = 30;

export interface TypeAheadRow {
  backend: 'sqlite' | 'postgres';
  parties: number;
  query: string;
  what: string;
  found: number;
  p50Ms: number;
  p99Ms: number;
  /** The query's p50 against a lookup of one party by id, same store, same run. */
  xLookup: number;
}

export async function timed(run: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TYPE_AHEAD_ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** Each query on a store already holding `parties` seeded parties (its own, or the big store). */
export async function measureTypeAhead(
  backend: TypeAheadRow['backend'],
  target: StoreTarget,
  parties: number,
) {
  const store = await openStore({ ...target, leaseRenewMs: 0 });
  try {
    const id = seededParty(Math.floor(parties / 2)).id;
    const lookup = percentile(await timed(() => store.parties.get(id)), 50) ?? 1;
    const rows: TypeAheadRow[] = [];
    for (const { query, what } of TYPE_AHEAD_QUERIES) {
      const found = (await store.parties.find(query)).length;
      const times = await timed(() => store.parties.find(query));
      const p50Ms = percentile(times, 50) ?? 0;
      rows.push({
        backend,
        parties,
        query,
        what,
        found,
        p50Ms,
        p99Ms: percentile(times, 99) ?? 0,
        xLookup: p50Ms / lookup,
      });
    }
    return rows;
  } finally {
    await store.close();
  }
}

/** The slowest query's p99 on each backend, against the target. */
export function typeAheadTargets(rows: TypeAheadRow[]): TargetCheck[] {
  return slowestQueryTargets(rows, (worst) => ({
    target: `type-ahead p99 <= ${TARGET_P99_MS} ms, any query, ${worst.parties} parties, ${worst.backend}`,
    met: worst.parties >= 50_000 ? worst.p99Ms <= TARGET_P99_MS : null,
  }));
}

/** `parties` saved parties on SQLite and, given a server, on PostgreSQL; each query ROUNDS times in a row. */
export async function benchTypeAhead(parties: number, postgresAdminUrl?: string): Promise<TypeAheadRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waybill-type-ahead-'));
  const rows: TypeAheadRow[] = [];
  try {
    const target = { path: join(dir, 'store.sqlite') };
    await seedParties(target, parties);
    rows.push(...(await measureTypeAhead('sqlite', target, parties)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (postgresAdminUrl) {
    const databases = throwawayDatabases(() => postgresAdminUrl, {
      prefix: 'waybill_bench',
      fastCommits: false,
    });
    try {
      const target = { url: await databases.create() };
      await seedParties(target, parties);
      rows.push(...(await measureTypeAhead('postgres', target, parties)));
    } finally {
      await databases.dropAll();
    }
  }
  return rows;
}
