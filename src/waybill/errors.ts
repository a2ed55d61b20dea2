/**
 * Typed failures of the courier's waybill API, each able to say in plain words what happened and whether
 * the courier may have acted on the request.
 *
 * `outcome`:
 * - 'not-done': the courier certainly did not act (it refused, or the request never left us). Safe to retry.
 * - 'unknown': the request may have reached the courier and been acted on (a booking may exist, an update
 *   may have been applied). Someone must check with the courier before sending it again.
 *
 * Messages never contain the bearer token, whole or in part (the client scrubs courier text before it
 * quotes or cuts it), nor stack traces.
 */

export type WaybillOperation = 'quote' | 'book' | 'update';
export type WaybillOutcome = 'not-done' | 'unknown';

export interface WaybillErrorContext {
  operation: WaybillOperation;
  /** The waybill's trackingNumber (book/update). */
  trackingNumber?: string;
  cause?: unknown;
  /** With an HTTP 429: how long the courier's Retry-After asked the bot to wait, when it said. */
  retryAfterMs?: number;
}

function subject(operation: WaybillOperation, trackingNumber: string | undefined): string {
  const wb = trackingNumber ? `waybill ${trackingNumber}` : 'the waybill';
  switch (operation) {
    case 'quote':
      return 'the quotation';
    case 'book':
      return `the booking of ${wb}`;
    case 'update':
      return `the update of ${wb}`;
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "Booking outcome unknown: … Check with the courier before booking again." */
function unknownMessage(
  operation: WaybillOperation,
  trackingNumber: string | undefined,
  why: string,
): string {
  const wb = trackingNumber ? `waybill ${trackingNumber}` : 'the waybill';
  if (operation === 'update') {
    return (
      `Update outcome unknown: the courier may or may not have applied the changes to ${wb} (${why}). ` +
      'Check with the courier before updating again.'
    );
  }
  return (
    `Booking outcome unknown: the courier may or may not have created ${wb} (${why}). ` +
    'Check with the courier before booking again.'
  );
}

function notDoneTail(operation: WaybillOperation): string {
  switch (operation) {
    case 'quote':
      return 'No quotation was given.';
    case 'book':
      return 'Nothing was booked.';
    case 'update':
      return 'Nothing was changed.';
  }
}

export abstract class WaybillApiError extends Error {
  readonly operation: WaybillOperation;
  readonly outcome: WaybillOutcome;
  readonly trackingNumber: string | undefined;
  readonly retryAfterMs: number | undefined;

  protected constructor(message: string, ctx: WaybillErrorContext, outcome: WaybillOutcome) {
    super(message, ctx.cause === undefined ? undefined : { cause: ctx.cause });
    this.name = new.target.name;
    this.operation = ctx.operation;
    this.outcome = outcome;
    this.trackingNumber = ctx.trackingNumber;
    this.retryAfterMs = ctx.retryAfterMs;
  }

  /** A plain-words message for the dispatcher: no secrets, no stack. */
  abstract userMessage(): string;

  protected unknownOr(why: string, notDone: string): string {
    return this.outcome === 'unknown' ? unknownMessage(this.operation, this.trackingNumber, why) : notDone;
  }
}

/** The courier answered with a ResponseCode other than 200: it refused the request. */
export class UpstreamRejectedError extends WaybillApiError {
  readonly responseCode: string;
  readonly responseDetail: string;
  readonly remarks: string;
  readonly httpStatus: number;

  constructor(
    ctx: WaybillErrorContext & {
      responseCode: string;
      responseDetail: string;
      remarks: string;
      httpStatus: number;
    },
  ) {
    super(
      `Courier rejected ${ctx.operation} (ResponseCode ${ctx.responseCode}, HTTP ${ctx.httpStatus}): ${
        ctx.responseDetail || ctx.remarks || 'no reason given'
      }`,
      ctx,
      'not-done',
    );
    this.responseCode = ctx.responseCode;
    this.responseDetail = ctx.responseDetail;
    this.remarks = ctx.remarks;
    this.httpStatus = ctx.httpStatus;
  }

  /** The courier's reason: detail and remarks, without repeating one inside the other. */
  get reason(): string {
    const d = this.responseDetail.trim();
    const r = this.remarks.trim();
    if (d && r && d !== r) return `${d} (${r})`;
    return d || r || 'no reason given';
  }

  userMessage(): string {
    return (
      `The courier rejected ${subject(this.operation, this.trackingNumber)}: ${this.reason} ` +
      `(code ${this.responseCode}). ${notDoneTail(this.operation)}`
    );
  }
}

/** A non-2xx HTTP status without a readable rejection (or any 5xx). */
export class UpstreamHttpError extends WaybillApiError {
  readonly status: number;
  readonly bodyExcerpt: string;

  constructor(ctx: WaybillErrorContext & { status: number; bodyExcerpt: string }) {
    // A 5xx after the request was sent (gateway/server error) may still have created the booking.
    const outcome: WaybillOutcome = ctx.status >= 500 && ctx.operation !== 'quote' ? 'unknown' : 'not-done';
    super(
      `Courier returned HTTP ${ctx.status} for ${ctx.operation}${ctx.bodyExcerpt ? `: ${ctx.bodyExcerpt}` : ''}`,
      ctx,
      outcome,
    );
    this.status = ctx.status;
    this.bodyExcerpt = ctx.bodyExcerpt;
  }

  userMessage(): string {
    const why = `the courier's service answered with HTTP error ${this.status}`;
    const hint =
      this.status === 401 || this.status === 403
        ? ' The bot could not authenticate with the courier; tell whoever runs the bot.'
        : this.status >= 500
          ? ' Try again in a few minutes.'
          : '';
    return this.unknownOr(
      why,
      `${capitalise(subject(this.operation, this.trackingNumber))} failed: ${why}. ${notDoneTail(this.operation)}${hint}`,
    );
  }
}

/** No (complete) answer within the time limit. */
export class UpstreamTimeoutError extends WaybillApiError {
  readonly phase: 'connect' | 'response';
  readonly timeoutMs: number;

  constructor(ctx: WaybillErrorContext & { phase: 'connect' | 'response'; timeoutMs: number }) {
    // A response timeout means the request was sent: the courier may have acted on it.
    const outcome: WaybillOutcome =
      ctx.phase === 'response' && ctx.operation !== 'quote' ? 'unknown' : 'not-done';
    super(`Courier ${ctx.phase} timeout after ${ctx.timeoutMs} ms for ${ctx.operation}`, ctx, outcome);
    this.phase = ctx.phase;
    this.timeoutMs = ctx.timeoutMs;
  }

  userMessage(): string {
    const secs = formatSeconds(this.timeoutMs);
    if (this.phase === 'connect') {
      return (
        `Could not reach the courier's service (no connection within ${secs}), so ` +
        `${subject(this.operation, this.trackingNumber)} was not sent. It is safe to try again.`
      );
    }
    return this.unknownOr(
      `no answer from the courier within ${secs}`,
      `The courier's service did not answer within ${secs}. ${notDoneTail(this.operation)} Try again shortly.`,
    );
  }
}

/** The connection failed (refused, reset, closed, DNS). */
export class UpstreamNetworkError extends WaybillApiError {
  readonly code: string;
  /** Whether the request had been handed to an open connection when it failed. */
  readonly requestSent: boolean;

  constructor(ctx: WaybillErrorContext & { code: string; requestSent: boolean }) {
    const outcome: WaybillOutcome = ctx.requestSent && ctx.operation !== 'quote' ? 'unknown' : 'not-done';
    super(
      `Courier connection failed for ${ctx.operation} (${ctx.code}, ${ctx.requestSent ? 'after' : 'before'} sending)`,
      ctx,
      outcome,
    );
    this.code = ctx.code;
    this.requestSent = ctx.requestSent;
  }

  userMessage(): string {
    if (!this.requestSent) {
      return (
        `Could not connect to the courier's service (${describeCode(this.code)}), so ` +
        `${subject(this.operation, this.trackingNumber)} was not sent. It is safe to try again.`
      );
    }
    return this.unknownOr(
      `the connection was lost before the courier answered`,
      `The connection to the courier's service was lost before it answered. ${notDoneTail(this.operation)} Try again.`,
    );
  }
}

/** HTTP 2xx, but the body is not JSON or lacks required fields. */
export class MalformedResponseError extends WaybillApiError {
  readonly bodyExcerpt: string;
  readonly reason: string;

  constructor(ctx: WaybillErrorContext & { bodyExcerpt: string; reason: string }) {
    // The courier said 2xx: for book/update it may well have acted even though we cannot read the answer.
    const outcome: WaybillOutcome = ctx.operation === 'quote' ? 'not-done' : 'unknown';
    super(`Courier answered ${ctx.operation} with an unreadable body: ${ctx.reason}`, ctx, outcome);
    this.bodyExcerpt = ctx.bodyExcerpt;
    this.reason = ctx.reason;
  }

  userMessage(): string {
    return this.unknownOr(
      `the courier's answer could not be read: ${this.reason}`,
      `The courier's answer to the quotation could not be read (${this.reason}). Try again shortly.`,
    );
  }
}

export function isWaybillApiError(e: unknown): e is WaybillApiError {
  return e instanceof WaybillApiError;
}

/** True when the courier may or may not have acted on the request (check before sending it again). */
export function isOutcomeUnknown(e: unknown): boolean {
  return e instanceof WaybillApiError && e.outcome === 'unknown';
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

function describeCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its address could not be resolved';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'network unreachable';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed';
    default:
      return `network error ${code}`;
  }
}

/**
 * The courier said "too many requests" (HTTP 429): nothing was done, and the call may go again later,
 * after `retryAfterMs` when its Retry-After said how long. Undefined for any other failure.
 */
export function rateLimitOf(e: unknown): { retryAfterMs?: number } | undefined {
  if (!isWaybillApiError(e) || e.outcome !== 'not-done') return undefined;
  const status =
    e instanceof UpstreamHttpError ? e.status : e instanceof UpstreamRejectedError ? e.httpStatus : 0;
  if (status !== 429) return undefined;
  return e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs };
}
