/** Slack's re-deliveries of a request already received, by any replica: acknowledged and dropped. */

import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { firstDelivery } from '../../operations/deliveries.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { partsOf } from './request-parts.js';

/**
 * Slack re-delivers a request it thinks went unanswered (X-Slack-Retry-Num), perhaps to another
 * replica. Every request is claimed in the store as it arrives, so a retry of one that any replica
 * already received is acknowledged and dropped, and nothing is done twice; anything that must
 * happen once (a booking, an update) is also guarded by its own attempt record.
 */
export function retryGuard(
  deps: Pick<Core, 'logger'> & { store: Pick<Store, 'deliveries'> },
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { surface, eventId, triggerId, view } = partsOf(args.body);
    // A type-ahead asking for options only reads: answering it again is harmless, and claiming
    // every key typed would cost a write each (and all of one view's share its id).
    if (surface === 'suggestion') return args.next();
    // A workflow step delivered again is answered again: each step is safe to repeat (a booking is
    // keyed on its execution id), and a step whose first delivery never completed must not be dropped.
    if (surface === 'step') return args.next();
    // Channel messages come by the thousand and most name no tracking number: no write each. The
    // reply to one that does is claimed per thread and number, so a re-delivery posts nothing again.
    if ((args.body as { event?: { type?: string } }).event?.type === 'message') return args.next();
    // Slack never re-delivers a submission, a closed modal or a click, and a double click is a new
    // request with a trigger of its own: these are not claimed, so nothing is written before their ack.
    if (surface === 'submission' || surface === 'closed' || surface === 'button') return args.next();
    // The Events API is what Slack documents re-delivering (X-Slack-Retry-Num): an event by its id.
    const id = eventId ?? triggerId ?? (view?.id ? `${view.id}:${view.hash}` : undefined);
    if (!id) return args.next();
    const first = await firstDelivery(deps.store, id);
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
