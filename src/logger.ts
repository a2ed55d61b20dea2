/**
 * The project logger: pino, with authorization headers and token fields redacted by path, and every
 * occurrence of the app's secret values (Slack bot token, app token, signing secret, upstream token),
 * and anything shaped like a credential (`Bearer …`, a Slack `xox…`/`xapp-…` token), replaced by
 * `[redacted]` anywhere in a log line: messages, error messages and stacks, nested objects.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export interface LoggerOptions {
  /** Default 'info'. (LOG_LEVEL is read by the caller.) */
  level?: string;
  /** Default: stdout. */
  destination?: pino.DestinationStream;
  /** Secret values that must never appear in output. Empty strings are ignored. */
  secrets?: string[];
}

export const REDACTED = '[redacted]';

export const redactPaths = [
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.authorization',
  '*.Authorization',
  'token',
  '*.token',
  'req.headers.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Credentials by their shape, whoever's they are: a bearer token after `Bearer`, Slack tokens
 * (`xoxb-…`, `xoxp-…`, `xoxe.xoxp-…`, `xapp-…`). Their characters never include `"` or `\`, so a
 * serialised log line stays valid JSON.
 */
const credentialShapes: [RegExp, string][] = [
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\b(?:xox[a-z]?[.-]|xapp-)[A-Za-z0-9.-]+/g, REDACTED],
];

/**
 * A function replacing each secret in a text (a serialised log line, a courier answer quoted in an
 * error), then anything shaped like a credential. Each secret is matched both as itself and in its
 * JSON-escaped form (a secret holding `"` or `\` appears escaped inside pino's JSON).
 */
export function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret containing another is replaced whole.
  const values =
    forms.size === 0
      ? undefined
      : new RegExp(
          [...forms]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|'),
          'g',
        );
  return (line) =>
    credentialShapes.reduce(
      (text, [shape, replacement]) => text.replace(shape, replacement),
      values ? line.replace(values, REDACTED) : line,
    );
}

/** A Slack request being handled: its id, and whether a listener of it failed. */
export interface HandledRequest {
  id: string;
  failed: boolean;
}

/**
 * The Slack request being handled, carried through everything it starts (awaits, timers, work after
 * the ack). One store for all the request's bookkeeping: each store costs every promise a copy.
 */
const currentRequest = new AsyncLocalStorage<HandledRequest>();

/** Runs `work` as the handling of `request`: every log line it leads to carries its id. */
export function inRequest<T>(request: HandledRequest, work: () => T): T {
  return currentRequest.run(request, work);
}

/** The request in hand, if any. */
export const requestInHand = (): HandledRequest | undefined => currentRequest.getStore();

export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const scrub = secretScrubber(options.secrets ?? []);
  const pinoOptions: pino.LoggerOptions = {
    level: options.level ?? 'info',
    // Every line written while a request is handled (the courier's call line included, by whichever
    // logger or child logger writes it) names the request.
    mixin: () => {
      const request = currentRequest.getStore();
      return request === undefined ? {} : { requestId: request.id };
    },
    redact: { paths: redactPaths, censor: REDACTED },
    hooks: { streamWrite: scrub },
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}
