/** The process's life: graceful stop on a signal, its calls still running recorded as outcome unknown and their dispatchers told. */
import type { Logger } from 'pino';
import { abandonOwn, releaseUnanswered } from './operations/recovery.js';
import type { InFlight } from './slack/runtime/in-flight.js';
import type { Attempt, Store } from './store/index.js';

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
 * Stop taking requests, let calls already sent finish (up to `graceMs`), then drop the connections
 * still open (a client sending its request slowly must not keep the bot alive), record this
 * replica's calls still running as outcome unknown and tell their dispatchers, and close the
 * courier client and the store (which releases this replica's lease).
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
  // Never made, so not "outcome unknown": marked failed before abandonOwn could take them.
  await releaseUnanswered(running.store, running.logger).catch((err: unknown) =>
    running.logger.warn({ err }, 'calls recorded as begun but never made could not be marked failed'),
  );
  if (!finished) {
    const abandoned = await abandonOwn(running.store, running.logger).catch((err: unknown) => {
      // Left in flight: another replica, or this one's next start, reports them once the lease lapses.
      running.logger.error({ err }, 'calls still running could not be recorded as outcome unknown');
      return [];
    });
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
  await running.store.close();
}
