/** The process's life: one-line exit on a bad setting, graceful stop on a signal, calls cut off by a stop. */
import type { Logger } from 'pino';
import { ConfigError } from './config.js';
import type { InFlight } from './slack/shared/in-flight.js';
import type { Attempt, Store } from './store/store.js';

/** A bad setting ends the program with one line, never a stack trace. */
export function exitOnConfigError(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

/**
 * A rejected promise nobody awaited (one inside Bolt's receiver, for a malformed request) is
 * logged rather than ending the process with every booking in flight.
 */
export function logUnhandledRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
}

/**
 * On SIGTERM or SIGINT: run `stop` once (stop taking requests, finish those in flight, close),
 * then exit 0. A second signal exits at once.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping: no new requests, finishing those in flight');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

export interface Running {
  /** Stops taking new connections; resolves once the last open one has ended. */
  stopReceiving(): Promise<void>;
  /** Ends the connections still open, e.g. a request still arriving, however slowly. */
  dropConnections(): void;
  inFlight: InFlight;
  store: Store;
  closeUpstream(): Promise<void>;
  logger: Logger;
  /** How long calls already sent may take to finish. */
  graceMs: number;
  /** Tells the dispatchers of calls still running when the grace period ends that their outcome is unknown. */
  tellAbandoned?: (attempts: Attempt[]) => Promise<void>;
}

/** How long a stopping bot spends telling dispatchers about abandoned calls. */
const TELL_ABANDONED_MS = 5000;

/**
 * In-flight courier calls of a process that stopped are recorded as outcome unknown (in the
 * audit log, with their waybill and dispatcher); returns them, so the dispatchers can be told.
 */
export function recordAbandoned(store: Store, logger: Logger): Attempt[] {
  const abandoned = store.attempts.markAbandoned();
  for (const attempt of abandoned) {
    logger.warn(
      { attempt: attempt.key, trackingNumber: attempt.trackingNumber, user: attempt.userId },
      'a courier call was in flight when the bot stopped: outcome unknown',
    );
    store.audit.record({
      userId: attempt.userId ?? '',
      operation: attempt.operation,
      trackingNumber: attempt.trackingNumber,
      outcome: 'unknown',
      detail: 'The bot stopped while this call was in flight: outcome unknown. Check with the courier.',
    });
  }
  return abandoned;
}

/**
 * Stop taking requests, let calls already sent finish (up to `graceMs`), then drop the connections
 * still open (a client sending its request slowly must not keep the bot alive), record any call
 * still running as outcome unknown and tell its dispatcher, and close the courier client and the store.
 */
export async function shutdown(running: Running): Promise<void> {
  const stopped = running.stopReceiving();
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    running.inFlight.idle().then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), running.graceMs);
    }),
  ]);
  clearTimeout(timer);
  running.dropConnections();
  await stopped;
  if (!finished) {
    const abandoned = recordAbandoned(running.store, running.logger);
    if (abandoned.length > 0 && running.tellAbandoned) {
      await Promise.race([
        running.tellAbandoned(abandoned),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, TELL_ABANDONED_MS);
        }),
      ]);
      clearTimeout(timer);
    }
  }
  await running.closeUpstream();
  running.store.close();
}
