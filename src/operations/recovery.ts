/** Courier calls whose outcome a stopped replica lost: recovered at start-up and periodically, and this replica's own on a stop; with the store's purges. */
import type { Logger } from 'pino';
import type { Attempt, Store, StoreTables } from '../store/index.js';

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
function recoverAbandoned(store: Store, logger: Logger): Promise<Attempt[]> {
  return recordUnknown(store, logger, (tx) => tx.attempts.recoverAbandoned());
}

/** The reason a call recorded as begun, but never made, gives when it is tried again (see releaseUnanswered). */
export const notSentText =
  'Not sent: the connection to the database was lost while this was being recorded, so nothing went to the courier. Try again.';

/** Calls this replica recorded as begun but never made (the database's answer was lost), marked failed so they can be tried again. */
export async function releaseUnanswered(store: Store, logger: Logger): Promise<void> {
  const released = await store.attempts.releaseUnanswered({ message: notSentText });
  for (const attempt of released) {
    logger.warn(
      { attempt: attempt.key, trackingNumber: attempt.trackingNumber, user: attempt.userId },
      'a courier call recorded as begun was never made (the database connection was lost): marked failed',
    );
  }
}

/** How often expired drafts and re-delivery records are deleted. */
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * This replica's background care of the shared store, from now until `stop`: at once, then every
 * `everyMs` (the lease renewal interval), its own calls recorded as begun but never made are marked
 * failed (releaseUnanswered), calls abandoned by replicas that are gone are recorded as
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
    await releaseUnanswered(store, logger);
    const abandoned = await recoverAbandoned(store, logger);
    if (abandoned.length > 0) await tell(abandoned);
    if (Date.now() - lastPurge >= PURGE_EVERY_MS) {
      // Drafts untouched for a week are deleted (they already stopped being offered).
      const drafts = await store.drafts.purgeExpired();
      const deliveries = await store.deliveries.purgeExpired();
      const activity = await store.activity.purgeExpired();
      lastPurge = Date.now();
      logger.debug(
        { drafts, deliveries, activity },
        'expired drafts, re-delivery and activity records deleted',
      );
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

/** This replica's calls still running as it stops, recorded as outcome unknown; returns them, so the dispatchers can be told. */
export function abandonOwn(store: Store, logger: Logger): Promise<Attempt[]> {
  return recordUnknown(store, logger, (tx) => tx.attempts.abandonOwn());
}
