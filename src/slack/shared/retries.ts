/** Slack's re-deliveries of a request already received, by any replica: acknowledged and dropped. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { BotDeps } from '../deps.js';

/**
 * Slack re-delivers a request it thinks went unanswered (X-Slack-Retry-Num), perhaps to another
 * replica. Every request is claimed in the store as it arrives, so a retry of one that any replica
 * already received is acknowledged and dropped, and nothing is done twice; anything that must
 * happen once (a booking, an update) is also guarded by its own attempt record.
 */
export function retryGuard(deps: Pick<BotDeps, 'store' | 'logger'>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as { type?: string; trigger_id?: string; view?: { id?: string; hash?: string } };
    // A type-ahead asking for options only reads: answering it again is harmless, and claiming
    // every key typed would cost a write each (and all of one view's share its id).
    if (body.type === 'block_suggestion') return args.next();
    const id = body.trigger_id ?? (body.view?.id ? `${body.view.id}:${body.view.hash}` : undefined);
    if (!id) return args.next();
    const first = await deps.store.deliveries.claim(id);
    if (!first && args.context.retryNum) {
      deps.logger.info(
        { retryNum: args.context.retryNum, reason: args.context.retryReason },
        'Slack retry of a request already received: ignored',
      );
      if ('ack' in args) await (args.ack as () => Promise<void>)();
      return;
    }
    return args.next();
  };
}
