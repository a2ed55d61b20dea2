/** Slack's re-deliveries of a request already received: acknowledged and dropped. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';

const REMEMBERED = 5000;

/**
 * Slack re-delivers a request it thinks went unanswered (X-Slack-Retry-Num). A retry of one
 * already received is acknowledged and dropped, so nothing is done twice; anything that must
 * happen once (a booking, an update) is also guarded by its own attempt record.
 */
export function retryGuard(logger: Logger): Middleware<AnyMiddlewareArgs> {
  const seen = new Set<string>();
  return async (args) => {
    const body = args.body as { trigger_id?: string; view?: { id?: string; hash?: string } };
    const id = body.trigger_id ?? (body.view?.id ? `${body.view.id}:${body.view.hash}` : undefined);
    if (!id) return args.next();
    const repeated = seen.has(id);
    seen.add(id);
    // A Set iterates in insertion order: forget the oldest.
    if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
    if (repeated && args.context.retryNum) {
      logger.info(
        { retryNum: args.context.retryNum, reason: args.context.retryReason },
        'Slack retry of a request already received: ignored',
      );
      if ('ack' in args) await (args.ack as () => Promise<void>)();
      return;
    }
    return args.next();
  };
}
