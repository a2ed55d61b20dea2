/**
 * The project logger: pino, with authorization headers and token fields redacted by path, and every
 * occurrence of the app's secret values (Slack bot token, app token, signing secret, upstream token)
 * replaced by `[redacted]` anywhere in a log line: messages, error messages and stacks, nested objects.
 */
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
 * A function replacing each secret in a serialised log line. Each secret is matched both as itself and in
 * its JSON-escaped form (a secret holding `"` or `\` appears escaped inside pino's JSON).
 */
export function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  if (forms.size === 0) return (line) => line;
  // Longest first, so a secret containing another is replaced whole.
  const pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  return (line) => line.replace(pattern, REDACTED);
}

export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const scrub = secretScrubber(options.secrets ?? []);
  const pinoOptions: pino.LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: REDACTED },
    hooks: { streamWrite: scrub },
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}
