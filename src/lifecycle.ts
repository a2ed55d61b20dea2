/** The process's life: graceful stop on a signal, calls cut off by a stop or a gone replica, purges. */
import type { Logger } from 'pino';
import type { InFlight } from './slack/shared/in-flight.js';
import type { Attempt, Store, StoreTables } from './store/index.js';

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
 * Courier calls taken as abandoned (by `take`) are recorded as outcome unknown in the audit log,
 * with their waybill and dispatcher, in the same transaction; returns them, so the dispatchers
 * can be told.
 */
async function recordUnknown(
  store: Store,
  logger: Logger,
  take: (tx: StoreTables) => Promise<Attempt[]>,
): Promise<Attempt[]> {
  const abandoned = await store.transaction(async (tx) => {
    const attempts = await take(tx);
    for (const attempt of attempts) {
      await tx.audit.record({
        userId: attempt.userId ?? '',
        operation: attempt.operation,
        trackingNumber: attempt.trackingNumber,
        outcome: 'unknown',
        detail: 'The bot stopped while this call was in flight: outcome unknown. Check with the courier.',
      });
    }
    return attempts;
  });
  for (const attempt of abandoned) {
    logger.warn(
      {
        attempt: attempt.key,
        trackingNumber: attempt.trackingNumber,
        user: attempt.userId,
        owner: attempt.owner,
      },
      'a courier call was in flight when the bot stopped: outcome unknown',
    );
  }
  return abandoned;
}

/** Calls left in flight by replicas that are gone (their lease expired or was released), recorded as outcome unknown. */
export function recoverAbandoned(store: Store, logger: Logger): Promise<Attempt[]> {
  return recordUnknown(store, logger, (tx) => tx.attempts.recoverAbandoned());
}

/** How often expired drafts and re-delivery records are deleted. */
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * This replica's background care of the shared store, from now until `stop`: at once, then every
 * `everyMs` (the lease renewal interval), calls abandoned by replicas that are gone are recorded as
 * outcome unknown and handed to `tell`; every hour, expired drafts and re-delivery records are
 * deleted. Both are safe with any number of replicas doing the same: each abandoned call is taken
 * by one. A database that does not answer is logged and tried again at the next turn.
 */
export function keepStore({
  store,
  logger,
  everyMs,
  tell,
}: {
  store: Store;
  logger: Logger;
  everyMs: number;
  tell: (attempts: Attempt[]) => Promise<void>;
}): { turn(): Promise<void>; stop(): Promise<void> } {
  let lastPurge = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  const turn = async () => {
    const abandoned = await recoverAbandoned(store, logger);
    if (abandoned.length > 0) await tell(abandoned);
    if (Date.now() - lastPurge >= PURGE_EVERY_MS) {
      // Drafts untouched for a week are deleted (they already stopped being offered).
      const drafts = await store.drafts.purgeExpired();
      const deliveries = await store.deliveries.purgeExpired();
      lastPurge = Date.now();
      logger.debug({ drafts, deliveries }, 'expired drafts and re-delivery records deleted');
    }
  };
  const tick = () => {
    // One turn at a time: a slow database does not pile them up.
    running ??= turn()
      .catch((err: unknown) => logger.warn({ err }, 'looking after the store failed; trying again later'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    /** A turn now, after the one under way: for tests, which wait for it rather than for the timer. */
    turn: async () => {
      await running;
      await tick();
    },
    /** No more turns; resolves once the one under way has ended. */
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

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
  if (!finished) {
    const abandoned = await recordUnknown(running.store, running.logger, (tx) =>
      tx.attempts.abandonOwn(),
    ).catch((err: unknown) => {
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
