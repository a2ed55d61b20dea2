/** A quote sent: the courier's price, the channel post, the way back to the filled form on failure. */
import { type Draft, StoreUnavailableError } from '../../store/index.js';
import { isWaybillApiError } from '../../waybill/errors.js';
import type { QuoteRequest } from '../../waybill/schemas.js';
import { toQuotationWire } from '../../waybill/wire.js';
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
  deps: Pick<Core, 'store' | 'logger' | 'courier' | 'waybill'>,
  client: SlackClient,
  { viewId, draft, quote }: { viewId: string; draft: Draft<QuoteDraft>; quote: QuoteRequest },
): Promise<void> {
  const { env, catalog, currency } = deps.waybill;
  const metadata = viewMetadata({ draftId: draft.id });
  const request = toQuotationWire(quote);
  const destination = {
    channelId: draft.channelId,
    userId: draft.userId,
    responseUrl: draft.data.responseUrl,
  };
  const priced = await priceQuote(deps, draft.userId, request);
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

/**
 * A quote changes nothing at the courier, so its audit entry is not worth withholding the price
 * for: with the database away, the dispatcher still gets the answer and the gap is logged.
 */
type Price = Awaited<ReturnType<Core['courier']['quote']>>;

/**
 * The courier's price for `request`, or why it refused, in its words; either way audited as
 * `userId`'s quote (their Home tab lists their recent ones). A database away does not lose the price.
 */
export async function priceQuote(
  deps: Pick<Core, 'store' | 'logger' | 'courier'>,
  userId: string,
  request: ReturnType<typeof toQuotationWire>,
): Promise<{ ok: true; price: Price } | { ok: false; reason: string }> {
  const audit = (entry: { outcome: 'ok'; response: Price } | { outcome: 'failed'; detail: string }) =>
    deps.store.audit.record({ userId, operation: 'quote', request, ...entry }).catch((err: unknown) => {
      if (!(err instanceof StoreUnavailableError)) throw err;
      deps.logger.error({ err, outcome: entry.outcome }, 'a quote could not be written to the audit log');
    });
  let price: Price;
  try {
    price = await deps.courier.quote(request);
  } catch (err) {
    if (!isWaybillApiError(err)) throw err;
    const reason = err.userMessage();
    await audit({ outcome: 'failed', detail: reason });
    return { ok: false, reason };
  }
  await audit({ outcome: 'ok', response: price });
  return { ok: true, price };
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
