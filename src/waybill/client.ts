/**
 * HTTP client for the courier's waybill API (docs/courier-interface.md): Quotation, Booking, Update.
 *
 * Safety rules:
 * - Quotation changes nothing at the courier, so it is retried on connection failures and HTTP 5xx.
 * - Booking and Update are never retried. Any failure after the request was handed to an open connection
 *   becomes an error whose outcome is 'unknown' (the courier may have acted on it).
 * - Exactly one log line per operation call; the bearer token never appears in logs or error messages,
 *   not even in part: courier text is scrubbed before any excerpt of it is cut.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Agent, type Dispatcher, request } from 'undici';
import { secretScrubber } from '../logger.js';
import {
  MalformedResponseError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamRejectedError,
  UpstreamTimeoutError,
  WaybillApiError,
  type WaybillOperation,
} from './errors.js';
import {
  type BookingResult,
  bodyExcerpt,
  parseJson,
  type QuoteResult,
  type ReadOutcome,
  readBookingResponse,
  readQuoteResponse,
  readResponseCode,
  readUpdateResponse,
  type UpdateResult,
} from './responses.js';
import {
  type BookingRequestWire,
  endpointPaths,
  type QuotationRequestWire,
  type UpdateRequestWire,
} from './wire-types.js';

export interface WaybillClientOptions {
  /** Ends with '/'; the endpoint path is appended directly: `${baseUrl}${endpointPaths.quote}`. */
  baseUrl: string;
  /** Bearer token. */
  token: string;
  /** Per-request response timeout (headers + body). */
  timeoutMs: number;
  /** Default min(timeoutMs, 5000). */
  connectTimeoutMs?: number;
  logger: Logger;
  /** Extra attempts for a quotation; default 2. */
  quoteRetries?: number;
  /** Default 250; exponential backoff with jitter. */
  retryBaseDelayMs?: number;
  /** Told when a call starts; the function it returns, how the call ended (the metrics). */
  observe?: (operation: WaybillOperation) => (result: 'ok' | 'refused' | 'unknown') => void;
}

export interface WaybillClient {
  quote(body: QuotationRequestWire): Promise<QuoteResult>;
  book(body: BookingRequestWire): Promise<BookingResult>;
  update(body: UpdateRequestWire): Promise<UpdateResult>;
  /** Closes the undici Agent. */
  close(): Promise<void>;
}

export type CallOutcome = 'ok' | 'rejected' | 'http-error' | 'timeout' | 'network-error' | 'malformed';

/** Largest response body read; the rest is discarded (a waybill answer is a few hundred bytes). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Error codes that can only happen before the request was written to a connection. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_INVALID_ARG',
]);

interface RawResponse {
  status: number;
  text: string;
  /** A 429's Retry-After, in ms from now. */
  retryAfterMs?: number;
}

/**
 * Retry-After as HTTP defines it: whole seconds, or a date. The courier's interface is silent on rate
 * limits; when it sends the standard header, the bot waits as asked (docs/courier-interface.md).
 */
export function retryAfterMsOf(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // The date form HTTP has servers send (IMF-fixdate), e.g. `Tue, 24 Nov 2026 10:00:30 GMT`.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

interface AttemptState {
  /** Set once undici hands the request to an open connection (it may then reach the courier). */
  sent: boolean;
  status: number | null;
}

/** Per-request interceptor that records when the request starts being written to a socket. */
function trackRequestStart(state: AttemptState): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart(controller, context) {
        state.sent = true;
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade(controller, statusCode, headers, socket) {
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
      },
      onResponseStart(controller, statusCode, headers, statusMessage) {
        state.status = statusCode;
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData(controller, chunk) {
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd(controller, trailers) {
        handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError(controller, error) {
        handler.onResponseError?.(controller, error);
      },
    });
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  // net's happy-eyeballs connect reports an AggregateError of per-address errors.
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const c = errorCode(inner);
      if (c) return c;
    }
  }
  return undefined;
}

interface FailureContext {
  operation: WaybillOperation;
  trackingNumber: string | undefined;
  sent: boolean;
  overallTimedOut: boolean;
  overallTimeoutMs: number;
  timeoutMs: number;
  connectTimeoutMs: number;
}

/**
 * Turns a transport failure (from undici or from reading the body) into a typed error, deciding from where
 * it happened whether the courier may have received the request. Exported for tests.
 */
export function classifyTransportFailure(err: unknown, f: FailureContext): WaybillApiError {
  const ctx = { operation: f.operation, trackingNumber: f.trackingNumber, cause: err };
  const code = errorCode(err);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UpstreamTimeoutError({ ...ctx, phase: 'connect', timeoutMs: f.connectTimeoutMs });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamTimeoutError({ ...ctx, phase: 'response', timeoutMs: f.timeoutMs });
  }
  const name = err instanceof Error ? err.name : '';
  if (f.overallTimedOut || name === 'TimeoutError') {
    return new UpstreamTimeoutError({
      ...ctx,
      phase: f.sent ? 'response' : 'connect',
      timeoutMs: f.sent ? f.timeoutMs : f.connectTimeoutMs,
    });
  }
  const sent = code !== undefined && NOT_SENT_CODES.has(code) ? false : f.sent;
  return new UpstreamNetworkError({ ...ctx, code: code ?? (name || 'UNKNOWN'), requestSent: sent });
}

/** Whether a failed quotation attempt may be repeated (the quotation changes nothing at the courier). */
function quoteRetryable(e: WaybillApiError): boolean {
  if (e instanceof UpstreamNetworkError) return true;
  if (e instanceof UpstreamHttpError) return e.status >= 500;
  // Connect timeouts are retried; response timeouts are not: the caller (a person in Slack) must get an
  // answer within a bounded time, and retrying a slow courier would multiply the wait by the attempts.
  if (e instanceof UpstreamTimeoutError) return e.phase === 'connect';
  return false;
}

function outcomeOf(e: WaybillApiError): CallOutcome {
  if (e instanceof UpstreamRejectedError) return 'rejected';
  if (e instanceof UpstreamHttpError) return 'http-error';
  if (e instanceof UpstreamTimeoutError) return 'timeout';
  if (e instanceof MalformedResponseError) return 'malformed';
  return 'network-error';
}

export function createWaybillClient(options: WaybillClientOptions): WaybillClient {
  const { baseUrl, token, timeoutMs, logger } = options;
  if (!baseUrl.endsWith('/')) throw new Error('WaybillClient baseUrl must end with "/"');
  if (!token) throw new Error('WaybillClient token is empty');
  if (!(timeoutMs > 0)) throw new Error('WaybillClient timeoutMs must be positive');
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(timeoutMs, 5000);
  const quoteRetries = Math.max(0, options.quoteRetries ?? 2);
  const retryBaseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 250);
  // Overall bound for one attempt: connecting, then the response (headers + body).
  const overallTimeoutMs = connectTimeoutMs + timeoutMs;

  const agent = new Agent({
    connect: { timeout: connectTimeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let closed = false;
  let closing: Promise<void> | undefined;

  /** Removes the token, and anything shaped like a credential, from text that came from outside (the courier might echo headers). */
  const scrub = secretScrubber([token]);

  async function readBody(body: Dispatcher.ResponseData['body']): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = MAX_BODY_BYTES - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        break; // leaving the loop destroys the stream
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function send(
    operation: WaybillOperation,
    payload: unknown,
    trackingNumber: string | undefined,
    state: AttemptState,
  ): Promise<RawResponse> {
    const signal = AbortSignal.timeout(overallTimeoutMs);
    try {
      const res = await request(`${baseUrl}${endpointPaths[operation]}`, {
        method: 'POST',
        dispatcher: agent.compose(trackRequestStart(state)),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(payload),
        signal,
      });
      state.status = res.statusCode;
      const text = await readBody(res.body);
      const retryAfterMs = res.statusCode === 429 ? retryAfterMsOf(res.headers['retry-after']) : undefined;
      return { status: res.statusCode, text, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    } catch (err) {
      throw classifyTransportFailure(err, {
        operation,
        trackingNumber,
        sent: state.sent,
        overallTimedOut: signal.aborted,
        overallTimeoutMs,
        timeoutMs,
        connectTimeoutMs,
      });
    }
  }

  function interpret<T>(
    operation: WaybillOperation,
    raw: RawResponse,
    trackingNumber: string | undefined,
    read: (body: unknown) => ReadOutcome<T>,
  ): T {
    const ctx = { operation, trackingNumber, retryAfterMs: raw.retryAfterMs };
    const parsed = parseJson(raw.text);
    const excerpt = () => bodyExcerpt(raw.text, scrub);
    // A 5xx is a server/gateway fault even when it carries a ResponseCode: for book/update the courier
    // may have acted before failing, so it is never read as a clean rejection.
    if (raw.status >= 500)
      throw new UpstreamHttpError({ ...ctx, status: raw.status, bodyExcerpt: excerpt() });
    const code = parsed ? readResponseCode(parsed.value) : 'absent';
    if (code !== 'absent' && code !== 'invalid' && code !== '200') {
      const outcome = read(parsed?.value);
      const detail = outcome.kind === 'rejected' ? outcome : { responseDetail: '', remarks: '' };
      throw new UpstreamRejectedError({
        ...ctx,
        responseCode: scrub(code),
        responseDetail: scrub(detail.responseDetail),
        remarks: scrub(detail.remarks),
        httpStatus: raw.status,
      });
    }
    if (raw.status < 200 || raw.status >= 300) {
      throw new UpstreamHttpError({ ...ctx, status: raw.status, bodyExcerpt: excerpt() });
    }
    if (!parsed) {
      const reason = raw.text.trim() === '' ? 'empty body' : 'body is not JSON';
      throw new MalformedResponseError({ ...ctx, bodyExcerpt: excerpt(), reason });
    }
    const outcome = read(parsed.value);
    if (outcome.kind === 'ok') return outcome.value;
    const reason =
      outcome.kind === 'malformed' ? outcome.reason : `unexpected ResponseCode ${outcome.responseCode}`;
    throw new MalformedResponseError({ ...ctx, bodyExcerpt: excerpt(), reason: scrub(reason) });
  }

  async function call<T>(
    operation: WaybillOperation,
    payload: unknown,
    trackingNumber: string | undefined,
    read: (body: unknown) => ReadOutcome<T>,
  ): Promise<T> {
    const started = performance.now();
    const ended = options.observe?.(operation);
    const maxAttempts = operation === 'quote' ? 1 + quoteRetries : 1;
    let attempts = 0;
    let status: number | null = null;
    const log = (outcome: CallOutcome, extra: Record<string, unknown>) => {
      const line = {
        operation,
        ...(trackingNumber === undefined ? {} : { trackingNumber }),
        status,
        latencyMs: Math.round(performance.now() - started),
        attempts,
        outcome,
        ...extra,
      };
      if (outcome === 'ok') logger.info(line, 'waybill api call');
      else logger.warn(line, 'waybill api call failed');
    };

    for (;;) {
      attempts += 1;
      const state: AttemptState = { sent: false, status: null };
      try {
        const raw = await send(operation, payload, trackingNumber, state);
        status = raw.status;
        const value = interpret(operation, raw, trackingNumber, read);
        log('ok', {});
        ended?.('ok');
        return value;
      } catch (err) {
        status = state.status;
        const e =
          err instanceof WaybillApiError
            ? err
            : classifyTransportFailure(err, {
                operation,
                trackingNumber,
                sent: state.sent,
                overallTimedOut: false,
                overallTimeoutMs,
                timeoutMs,
                connectTimeoutMs,
              });
        if (operation === 'quote' && attempts < maxAttempts && !closed && quoteRetryable(e)) {
          // Exponential backoff with jitter: base * 2^(n-1) * [0.5, 1).
          const delay = retryBaseDelayMs * 2 ** (attempts - 1) * (0.5 + Math.random() * 0.5);
          await sleep(delay);
          continue;
        }
        log(outcomeOf(e), {
          ...(e.outcome === 'unknown' ? { outcomeUnknown: true } : {}),
          detail: scrub(e.message),
        });
        ended?.(e.outcome === 'unknown' ? 'unknown' : 'refused');
        throw e;
      }
    }
  }

  return {
    quote: (body) => call('quote', body, undefined, readQuoteResponse),
    book: (body) => call('book', body, body.trackingNumber, readBookingResponse),
    update: (body) => call('update', body, body.trackingNumber, readUpdateResponse),
    close() {
      closed = true;
      closing ??= agent.close();
      return closing;
    },
  };
}
