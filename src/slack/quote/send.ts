/** A quote sent: the courier's price (operations/quote.ts), the channel post, the way back to the filled form on failure. */

import { priceQuote } from '../../operations/quote.js';
import type { Draft, Store } from '../../store/index.js';
import type { QuoteRequest } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { section } from '../kit/blocks.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { deliveredNote, postToChannel, postToUser, type SlackClient } from '../runtime/delivery.js';
import { quoteErrorView, quoteMessage, quoteResultView } from './blocks.js';
import type { QuoteDraft } from './draft.js';
import { ids } from './ids.js';

/**
 * After the dispatcher sees "Getting a quote…": ask the courier, post the price to the channel,
 * and show it in the modal, or the reason it failed with a way back to the filled form.
 */
export async function runQuote(
  deps: Pick<Core, 'logger' | 'courier' | 'waybill'> & { store: Pick<Store, 'audit'> },
  client: SlackClient,
  { viewId, draft, quote }: { viewId: string; draft: Draft<QuoteDraft>; quote: QuoteRequest },
): Promise<void> {
  const { env, catalog, currency } = deps.waybill;
  const metadata = viewMetadata({ draftId: draft.id });
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const priced = await priceQuote(deps, draft.userId, quote);
  if (!priced.ok) {
    const { reason } = priced;
    const shown = await showInModal(client, viewId, quoteErrorView({ reason, env, metadata }));
    if (!shown) {
      await postToUser(client, destination, {
        text: `Your quote failed: ${escapeMrkdwn(reason)}`,
        blocks: [
          section(`:warning: *Your quote failed.*\n${escapeMrkdwn(reason)}`),
          { type: 'actions', elements: [reopenButton(draft.id)] },
        ],
      });
    }
    return;
  }
  const { price } = priced;
  const message = quoteMessage({
    quote,
    price,
    currency,
    catalog,
    env,
    userId: draft.userId,
    quoteId: draft.id,
  });
  // The price is shown in the modal even if Slack will not take the channel post.
  const postedNote = await postToChannel(client, destination, message, deps.logger).then(
    deliveredNote,
    (err) => {
      deps.logger.error({ err }, 'quote could not be posted');
      return 'Slack did not accept the channel post: this window is the only copy of the price.';
    },
  );
  await showInModal(
    client,
    viewId,
    quoteResultView({ quote, price, currency, catalog, env, metadata, postedNote }),
  );
}

function reopenButton(draftId: string) {
  return {
    type: 'button' as const,
    action_id: ids.quoteReopen,
    value: draftId,
    text: { type: 'plain_text' as const, text: 'Open the form again' },
    style: 'primary' as const,
  };
}
