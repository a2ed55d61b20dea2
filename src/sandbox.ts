/**
 * `npm run sandbox`: runs the waybill sandbox on its own.
 *
 * Environment: SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1), SANDBOX_TOKEN (default
 * `sandbox-token`), SANDBOX_LATENCY_MS (default 0: per-request latency applied to every routed request).
 * Prints one line with the base address on stdout; one line per request on stderr. Never prints the token.
 */

import { ConfigError } from './settings-error.js';
import { exitOnStartupFailure, listenFailure } from './startup.js';
import { startSandbox } from './waybill/sandbox/server.js';

const DEFAULT_TOKEN = 'sandbox-token';

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    exitOnStartupFailure(new ConfigError(`${name} must be an integer between ${min} and ${max}`));
  }
  return value;
}

const port = intFromEnv('SANDBOX_PORT', 4010, 0, 65535);
const latencyMs = intFromEnv('SANDBOX_LATENCY_MS', 0, 0, 600_000);
const host = process.env.SANDBOX_HOST?.trim() || '127.0.0.1';
const envToken = process.env.SANDBOX_TOKEN;
const token = envToken === undefined || envToken === '' ? DEFAULT_TOKEN : envToken;

const sandbox = await startSandbox({
  token,
  host,
  port,
  faults: latencyMs > 0 ? { latencyMs } : undefined,
  onRequest: ({ operation, status, latencyMs: ms }) => {
    process.stderr.write(`${operation} -> ${status ?? 'dropped'} in ${ms} ms\n`);
  },
}).catch((err: unknown) => exitOnStartupFailure(listenFailure(err, 'SANDBOX_PORT', port)));

const tokenNote = token === DEFAULT_TOKEN ? 'default token' : 'token from SANDBOX_TOKEN';
const latencyNote = latencyMs > 0 ? `, latency ${latencyMs} ms` : '';
process.stdout.write(`Waybill sandbox listening at ${sandbox.baseUrl} (${tokenNote}${latencyNote})\n`);

let stopping = false;
const stop = (signal: NodeJS.Signals): void => {
  if (stopping) {
    process.exit(1);
  }
  stopping = true;
  process.stderr.write(`${signal}: stopping sandbox\n`);
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
