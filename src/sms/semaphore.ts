/**
 * Semaphore (semaphore.co), the Philippine business SMS API: `POST {SEMAPHORE_URL}/api/v4/messages`
 * with `apikey`, `number`, `message` and `sendername`, 120 calls a minute (the outbox keeps to it).
 * Only what surely did not reach Semaphore is ever retried: its 429 and 503 (not taken), a connection
 * never made. A timeout after the request went out, a connection cut while waiting, any other 5xx may
 * have been taken, so it is `unknown` and never sent again by the bot.
 */
import { Agent, errors, request } from 'undici';
import { SEMAPHORE_PER_MINUTE, type SendOutcome, type SmsGateway } from './gateway.js';

export interface SemaphoreSettings {
  apiKey: string;
  /** The API's base address, ending with `/`. */
  url: string;
  /** The registered sender name (at most 11 characters); '' for Semaphore's default. */
  senderName: string;
  /** How long a call may wait for Semaphore's answer once sent. Default 15 s. */
  timeoutMs?: number;
}

/** Errors raised before any byte of the request could have reached Semaphore. */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function semaphoreGateway(settings: SemaphoreSettings): SmsGateway & { close(): Promise<void> } {
  const timeoutMs = settings.timeoutMs ?? 15_000;
  const dispatcher = new Agent({
    connect: { timeout: 5_000 },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const endpoint = new URL('api/v4/messages', settings.url);
  // Whatever Semaphore or the network says is shown in the thread: never with the key in it.
  const clean = (text: string) => text.split(settings.apiKey).join('[key]').slice(0, 200);
  return {
    name: 'semaphore',
    perMinute: SEMAPHORE_PER_MINUTE,
    async send(number, message): Promise<SendOutcome> {
      // No sender name: Semaphore's own default, rather than an empty one it may refuse.
      const body = new URLSearchParams({
        apikey: settings.apiKey,
        number,
        message,
        ...(settings.senderName ? { sendername: settings.senderName } : {}),
      }).toString();
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          dispatcher,
        });
      } catch (err) {
        const code = errorCode(err);
        return NOT_REACHED.has(code)
          ? { kind: 'unavailable', reason: `Semaphore could not be reached (${code})` }
          : { kind: 'unknown', reason: `no answer from Semaphore after sending (${code})` };
      }
      const text = await response.body.text().catch(() => '');
      const { statusCode } = response;
      if (statusCode === 429 || statusCode === 503) {
        const retryAfterMs = retryAfter(response.headers['retry-after']);
        return {
          kind: 'unavailable',
          reason:
            statusCode === 429 ? 'Semaphore asked to slow down (429)' : 'Semaphore is unavailable (503)',
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        };
      }
      if (statusCode >= 500) return { kind: 'unknown', reason: `Semaphore answered ${statusCode}` };
      const answer = parse(text);
      const first = Array.isArray(answer) ? answer[0] : undefined;
      if (statusCode < 300 && first && typeof first === 'object' && 'message_id' in first)
        return { kind: 'sent', messageId: String(first.message_id) };
      return {
        kind: 'refused',
        reason: clean(`Semaphore refused it (${statusCode}): ${problemOf(answer, text)}`),
      };
    },
    close: () => dispatcher.close(),
  };
}

function errorCode(err: unknown): string {
  if (err instanceof errors.UndiciError) return err.code;
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } })?.code ??
    (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? code : 'network error';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Semaphore's validation errors are `{ "number": ["The number format is invalid."] }`. */
function problemOf(answer: unknown, text: string): string {
  if (answer && typeof answer === 'object' && !Array.isArray(answer)) {
    const messages = Object.values(answer).flatMap((value) => (Array.isArray(value) ? value : [value]));
    const words = messages.filter((value) => typeof value === 'string').join(' ');
    if (words) return words;
  }
  return text.trim() || 'no reason given';
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
