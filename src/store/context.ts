// What every table module gets: where to run queries, the clock, the settings, and JSON columns.
import type { BackendKind } from './backend.js';
import type { Db } from './schema.js';
import type { SearchThresholds } from './types.js';

export interface Context {
  /** Milliseconds since the epoch, from the store's (injectable) clock. */
  now(): number;
  draftTtlMs: number;
  deliveryTtlMs: number;
  leaseTtlMs: number;
  searchThresholds: SearchThresholds;
  /** This replica: recorded on the attempts it begins, and the key of its lease. */
  replicaId: string;
  /**
   * Attempts this process began whose commit went unanswered (the connection was lost): the
   * database may hold them in flight, but no call was made for them, so the next begin takes over.
   */
  unansweredBegins: Set<string>;
}

export interface Scope {
  /** The database, or the one connection of the transaction in progress. */
  db: Db;
  /** Runs `fn` in a transaction: a new one, or the one already in progress. */
  atomically<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Inside `atomically`: serialises the transactions that take the same name, across replicas. */
  lock(db: Db, name: string): Promise<void>;
  /** For the few statements only one dialect has (PostgreSQL's SKIP LOCKED). */
  kind: BackendKind;
}

/** `undefined` (and anything JSON cannot represent at the top level) is stored as NULL. */
export function toJson(value: unknown): string | null {
  if (value === undefined) return null;
  return JSON.stringify(value) ?? null;
}

export function fromJson<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

/** NULL columns become absent properties, so records compare equal however they were built. */
export function present<T extends Record<string, unknown>>(
  record: T,
): { [K in keyof T]?: Exclude<T[K], null> } {
  // A loop rather than entries/filter/fromEntries: every row the store reads passes here.
  const kept: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (value !== null && value !== undefined) kept[key] = value;
  }
  return kept as { [K in keyof T]?: Exclude<T[K], null> };
}

/** A list's `limit`: a whole number ≥ 0. */
export function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`limit must be a whole number ≥ 0, got ${limit}`);
  }
  return limit;
}
