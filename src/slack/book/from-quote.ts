/** "Book this" on a posted quote. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onOpeningButton } from '../kit/buttons.js';
import { ids } from '../kit/ids.js';
import { quotedInput } from '../quote/index.js';
import { createBookingDraft } from './draft.js';
import { showStep } from './steps.js';

/** A quote's form values as booking form values: the same paths, but dates gain a time picker. */
export function bookingInputFromQuote(quote: Record<string, unknown>): Record<string, unknown> {
  const { pickupDate, expectedDeliveryDate, ...same } = quote;
  return {
    ...same,
    ...(pickupDate ? { pickupAt: { date: pickupDate } } : {}),
    ...(expectedDeliveryDate ? { expectedDeliveryAt: { date: expectedDeliveryDate } } : {}),
  };
}

/** "Book this" on a posted quote: /book, pre-filled with what was quoted. */
export function register(app: App, deps: Core): void {
  onOpeningButton(
    app,
    deps,
    ids.bookFromQuote,
    requires(deps, 'book'),
    'click *Book this*',
    async (quoteId, body) => {
      const quote = quoteId ? await quotedInput(deps, quoteId) : undefined;
      if (!quote) return 'This quote is too old to book from. Type `/book` to book.';
      const where = {
        userId: body.user.id,
        channelId: body.channel?.id ?? quote.channelId,
        responseUrl: body.response_url,
      };
      return async () =>
        showStep(deps, await createBookingDraft(deps, where, bookingInputFromQuote(quote.input)), 'shipment');
    },
  );
}
