/** Courier calls that must happen at most once: how they are keyed and claimed, and telling dispatchers of abandoned ones. */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { WaybillEnv } from '../../config.js';
import {
  type Attempt,
  type BeginOptions,
  type BeginResult,
  type Store,
  type StoreTables,
  StoreUnavailableError,
} from '../../store/index.js';
import type { BookingRequestWire, UpdateRequestWire } from '../../waybill/wire-types.js';
import { context, notice, outcomeModal, section } from './blocks.js';
import { postToUser, type SlackClient } from './delivery.js';
import { ids } from './ids.js';
import { showInModal } from './modal.js';
import { escapeMrkdwn } from './mrkdwn.js';

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

function abandonedText(attempt: Attempt): string {
  const tn = escapeMrkdwn(attempt.trackingNumber ?? '');
  return attempt.operation === 'update'
    ? `Update outcome unknown: the bot stopped while your update of \`${tn}\` was being sent to the courier, so the courier may or may not have applied it. Check with the courier; \`/waybill update ${tn}\` shows the last record the bot knows and sends a new update.`
    : `Booking outcome unknown: the bot stopped while \`${tn}\` was being booked, so the courier may or may not have created it. Check with the courier before booking it again.`;
}

/** What the modal a call was made from shows once that call is known to be abandoned. */
function abandonedView(attempt: Attempt, env: WaybillEnv) {
  return outcomeModal({
    callbackId: attempt.operation === 'update' ? ids.updateOutcome : ids.bookingOutcome,
    title: 'Outcome unknown',
    metadata: '',
    env,
    blocks: [
      section(`:question: *${abandonedText(attempt)}*`),
      context('The bot will not send it again by itself.'),
    ],
  });
}

/**
 * Each dispatcher whose call a stopped bot (or replica) abandoned is told that its outcome is
 * unknown: in the modal it was made from if that is still open, else privately in the conversation.
 */
export async function tellAbandoned(
  client: SlackClient,
  attempts: Attempt[],
  { logger, env }: { logger: Logger; env: WaybillEnv },
): Promise<void> {
  for (const attempt of attempts) {
    if (!attempt.userId) continue;
    const where = { userId: attempt.userId, channelId: attempt.channelId ?? '' };
    const { viewId } = attempt;
    try {
      if (viewId && (await showInModal(client, viewId, abandonedView(attempt, env)))) continue;
      await postToUser(client, where, notice(':question:', abandonedText(attempt)));
    } catch (err) {
      logger.warn(
        { err, trackingNumber: attempt.trackingNumber },
        'the dispatcher of an abandoned call could not be told',
      );
    }
  }
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
