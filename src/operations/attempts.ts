/** Courier calls that must happen at most once: how they are keyed and claimed, and their bookkeeping kept through a database briefly away. */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import {
  type Attempt,
  type BeginOptions,
  type BeginResult,
  type Store,
  type StoreTables,
  StoreUnavailableError,
} from '../store/index.js';
import type { BookingRequestWire, UpdateRequestWire } from '../waybill/wire-types.js';

/**
 * One call to the courier. The key is the same for the same request sent again from the same
 * modal (a double click, a replay), so that is answered with the first outcome; a changed request
 * is a new attempt. Of the attempts sharing a claim, only one at a time is in flight, done or of
 * unknown outcome: one booking per draft and tracking number, one update per waybill version.
 */
export interface CourierAttempt {
  operation: 'book' | 'update';
  trackingNumber: string;
  key: string;
  claim: string;
}

/** JSON with object keys sorted, so equal requests give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A stable hash of the request body (96 bits, base64url). */
function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url').slice(0, 16);
}

export function bookingAttempt(draftId: string, body: BookingRequestWire): CourierAttempt {
  const claim = `book:${draftId}:${body.trackingNumber}`;
  return {
    operation: 'book',
    trackingNumber: body.trackingNumber,
    claim,
    key: `${claim}:${fingerprint(body)}`,
  };
}

/** `baseVersion`: the stored record's version the update was made on. */
export function updateAttempt(draftId: string, baseVersion: number, body: UpdateRequestWire): CourierAttempt {
  const claim = `update:${body.trackingNumber}:v${baseVersion}`;
  return {
    operation: 'update',
    trackingNumber: body.trackingNumber,
    claim,
    key: `${claim}:${draftId}:${fingerprint(body)}`,
  };
}

/**
 * Records the attempt in flight, with who made it where and the modal it was made from, if any (to
 * show there that its outcome is unknown, should this replica die mid-call), unless the store says
 * it may not go.
 */
export function beginAttempt<R>(
  store: Store,
  attempt: CourierAttempt,
  who: { userId: string; channelId: string; viewId?: string },
  options: Pick<BeginOptions, 'again' | 'supersedeUnknown'> = {},
): Promise<BeginResult<R>> {
  return store.attempts.begin<R>(attempt.key, attempt.operation, {
    trackingNumber: attempt.trackingNumber,
    claim: attempt.claim,
    ...who,
    ...options,
  });
}

/**
 * A succeeded call's result again, now with where its card or change went: that is known only once
 * the courier's answer was recorded and posted, so the result a Resolve or a retry shows says it too.
 */
export function noteSucceeded<R>(store: Pick<Store, 'attempts'>, key: string, result: R): Promise<void> {
  return store.attempts.finish<R>(key, 'succeeded', result);
}

/** The draft an attempt was made from (a booking's claim names it, an update's key does). */
export function draftIdOfAttempt(attempt: Pick<Attempt, 'claim' | 'operation' | 'key'>): string | undefined {
  const [operation, draftId] = attempt.claim?.split(':') ?? [];
  if (attempt.operation === 'book') return operation === 'book' ? draftId : undefined;
  // An update's key is its claim (`update:<tracking number>:v<version>`), its draft, its fingerprint.
  return attempt.operation === 'update' ? attempt.key.split(':')[3] : undefined;
}

/** How long the bookkeeping after a courier call keeps trying while the database does not answer. */
export const OUTCOME_RETRY_MS = 120_000;

/**
 * The bookkeeping after a courier call, in one transaction. The courier already acted, so a
 * database that is briefly away must not lose it: while it does not answer, `waiting` is called
 * once (to tell the dispatcher) and the transaction is tried again, more slowly each time, for up
 * to `withinMs`; then the last StoreUnavailableError is thrown.
 */
export async function storeOutcome<T>(
  deps: { store: Store; logger: Logger },
  write: (tx: StoreTables) => Promise<T>,
  { waiting, withinMs = OUTCOME_RETRY_MS }: { waiting?: () => Promise<unknown>; withinMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  let pause = 250;
  let told = false;
  for (;;) {
    try {
      return await deps.store.transaction(write);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || Date.now() + pause > deadline) throw err;
      deps.logger.warn({ err }, 'a courier outcome could not be recorded yet: trying again');
      if (!told) await waiting?.().catch(() => undefined);
      told = true;
      await delay(pause);
      pause = Math.min(pause * 2, 5000);
    }
  }
}
