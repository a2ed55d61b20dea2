/** A quote: the courier's price for a delivery, audited as the asker's (their Home tab lists their recent ones). */
import type { Logger } from 'pino';
import { type Store, StoreUnavailableError } from '../store/index.js';
import type { WaybillClient } from '../waybill/client.js';
import { isWaybillApiError } from '../waybill/errors.js';
import type { QuoteResult } from '../waybill/responses.js';
import type { QuoteRequest } from '../waybill/schemas.js';
import { toQuotationWire } from '../waybill/wire.js';

/**
 * The courier's price for `quote`, or why it refused, in its words; either way audited as `userId`'s
 * quote. A quote changes nothing at the courier, so its audit entry is not worth withholding the
 * price for: with the database away, the asker still gets the answer and the gap is logged.
 */
export async function priceQuote(
  deps: { store: Pick<Store, 'audit'>; logger: Logger; courier: Pick<WaybillClient, 'quote'> },
  userId: string,
  quote: QuoteRequest,
): Promise<{ ok: true; price: QuoteResult } | { ok: false; reason: string }> {
  const request = toQuotationWire(quote);
  const audit = (entry: { outcome: 'ok'; response: QuoteResult } | { outcome: 'failed'; detail: string }) =>
    deps.store.audit.record({ userId, operation: 'quote', request, ...entry }).catch((err: unknown) => {
      if (!(err instanceof StoreUnavailableError)) throw err;
      deps.logger.error({ err, outcome: entry.outcome }, 'a quote could not be written to the audit log');
    });
  let price: QuoteResult;
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
