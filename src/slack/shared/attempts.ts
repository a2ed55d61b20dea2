/** Courier calls that must happen at most once: how they are keyed and claimed, and telling dispatchers of abandoned ones. */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Attempt, BeginOptions, BeginResult, Store } from '../../store/store.js';
import type { BookingRequestWire, UpdateRequestWire } from '../../waybill/wire-types.js';
import { notice } from './blocks.js';
import { postToUser, type SlackClient } from './delivery.js';
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

/** Records the attempt in flight, with who made it where, unless the store says it may not go. */
export function beginAttempt<R>(
  store: Store,
  attempt: CourierAttempt,
  who: { userId: string; channelId: string },
  options: Pick<BeginOptions, 'again' | 'supersedeUnknown'> = {},
): BeginResult<R> {
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

/** Each dispatcher whose call a stopped bot abandoned is told, privately, that its outcome is unknown. */
export async function tellAbandoned(client: SlackClient, attempts: Attempt[], logger: Logger): Promise<void> {
  for (const attempt of attempts) {
    if (!attempt.userId) continue;
    const where = { userId: attempt.userId, channelId: attempt.channelId ?? '' };
    await postToUser(client, where, notice(':question:', abandonedText(attempt))).catch((err: unknown) => {
      logger.warn(
        { err, trackingNumber: attempt.trackingNumber },
        'the dispatcher of an abandoned call could not be told',
      );
    });
  }
}
