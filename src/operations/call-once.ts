/**
 * The one rule for a courier call that changes something (a booking, an update): called at most
 * once, and its outcome never lost.
 *
 * Safety rules:
 * - The attempt is begun under its claim before this runs (beginAttempt): the courier is called
 *   once per attempt, never again here, whatever happens after.
 * - A refusal (the courier says it did nothing) is `failed`; any other error is `unknown`: the
 *   courier may have acted. Either is written to the attempt and the audit trail.
 * - A success is recorded in ONE transaction: the caller's bookkeeping (the booking, the updated
 *   record, a draft, a file's row), the attempt finished, the audit entry. The courier has acted,
 *   so a database briefly away is waited for (storeOutcome), never given up on at once; if it never
 *   answers, the result is `unrecorded` and carries the courier's answer, the only record left.
 */
import type { Logger } from 'pino';
import type { Store, StoreTables } from '../store/index.js';
import { StoreUnavailableError } from '../store/index.js';
import type { WaybillClient } from '../waybill/client.js';
import { isWaybillApiError, rateLimitOf } from '../waybill/errors.js';
import { type CourierAttempt, storeOutcome } from './attempts.js';

/** What an operation uses; `activity` is told whose work changed once an outcome is stored. */
export interface OperationDeps {
  store: Store;
  courier: WaybillClient;
  logger: Logger;
  now: () => Date;
  activity: { changed(userId: string): void };
}

/** What came of a call, tagged. */
export type CallResult<A, T> =
  /** Done at the courier and recorded: its answer, when, and what the caller's record step returned. */
  | { state: 'done'; answer: A; at: Date; recorded: T }
  /** Nothing done; `rateLimited` when the courier only asked to slow down (HTTP 429), for as long as it said. */
  | { state: 'failed'; message: string; rateLimited?: { retryAfterMs?: number } }
  /** Maybe done: never sent again by itself. */
  | { state: 'unknown'; message: string }
  /** Done at the courier, but the database stayed out of reach: not recorded. */
  | { state: 'unrecorded'; answer: A; at: Date };

/** The caller's bookkeeping of a success, in the transaction that finishes the attempt. */
export type RecordStep<A, T> = (tx: StoreTables, answer: A, at: Date) => Promise<T>;

export interface Call<A, T> {
  /** Begun already (beginAttempt). */
  attempt: Pick<CourierAttempt, 'key' | 'operation' | 'trackingNumber'>;
  userId: string;
  /** The body sent, for the audit trail. */
  request: unknown;
  send: (courier: WaybillClient) => Promise<A>;
  /** What the attempt keeps of a success, so a replay is answered with it. */
  succeeded: (answer: A) => unknown;
  record: RecordStep<A, T>;
  /** The audit entry's detail on success. */
  detail?: string;
  /** When `record` throws `err`, the bookkeeping to keep instead (undefined: none, the error stands). */
  instead?: (err: unknown) => RecordStep<A, T> | undefined;
  /** Told once, with the courier's answer, when the database keeps the bookkeeping waiting. */
  waiting?: (answer: A) => Promise<unknown>;
  /** How long a database that does not answer is waited for (storeOutcome's default unless set). */
  withinMs?: number;
}

const words = {
  book: { unknown: 'Booking outcome unknown', noun: 'a booking', done: 'booked' },
  update: { unknown: 'Update outcome unknown', noun: 'an update', done: 'updated' },
} as const;

/** Sends the call once and records what came of it (see the rules above). */
export async function callOnce<A, T>(deps: OperationDeps, call: Call<A, T>): Promise<CallResult<A, T>> {
  const { attempt, request } = call;
  const { key, trackingNumber } = attempt;
  const said = words[attempt.operation];
  const who = { userId: call.userId, trackingNumber, operation: attempt.operation };
  let answer: A;
  try {
    answer = await call.send(deps.courier);
  } catch (err) {
    const message = isWaybillApiError(err) ? err.userMessage() : `${said.unknown}: ${String(err)}`;
    const state = isWaybillApiError(err) && err.outcome === 'not-done' ? 'failed' : 'unknown';
    await storeOutcome(
      deps,
      async (tx) => {
        await tx.attempts.finish(key, state, { message });
        await tx.audit.record({ ...who, outcome: state, request, detail: message });
      },
      { withinMs: call.withinMs },
    ).catch((storeErr: unknown) => {
      deps.logger.error(
        { err: storeErr, trackingNumber, state },
        `${said.noun} outcome could not be recorded`,
      );
    });
    const rateLimited = rateLimitOf(err);
    return rateLimited ? { state: 'failed', message, rateLimited } : { state, message };
  }
  const at = deps.now();
  const finish = (step: RecordStep<A, T>) => async (tx: StoreTables) => {
    await tx.attempts.finish(key, 'succeeded', call.succeeded(answer));
    await tx.audit.record({
      ...who,
      outcome: 'ok',
      request,
      response: answer,
      ...(call.detail === undefined ? {} : { detail: call.detail }),
    });
    // Last: what the caller locks (a party a whole file shares, say) is held for as short a time as can be.
    return step(tx, answer, at);
  };
  try {
    const { waiting, withinMs } = call;
    const told = waiting && (() => waiting(answer));
    const recorded = await storeOutcome(deps, finish(call.record), { waiting: told, withinMs }).catch(
      (err: unknown) => {
        const step = call.instead?.(err);
        if (!step) throw err;
        return storeOutcome(deps, finish(step), { withinMs });
      },
    );
    deps.activity.changed(call.userId);
    return { state: 'done', answer, at, recorded };
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    deps.logger.error({ err, trackingNumber }, `${said.done} at the courier, but it could not be recorded`);
    return { state: 'unrecorded', answer, at };
  }
}
