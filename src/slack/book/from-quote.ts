/** "Book this" on a posted quote. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { quotedInput, quoteIds } from '../quote/index.js';
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
  app.action<ButtonClick, Opening>(
    quoteIds.bookFromQuote,
    requires(deps, 'book'),
    ackNow,
    openingModal(deps, 'click *Book this*'),
    async ({ action: { value: quoteId = '' }, body, context }) => {
      const quote = quoteId ? await quotedInput(deps, quoteId) : undefined;
      if (!quote) return context.openModal('This quote is too old to book from. Type `/book` to book.');
      const where = {
        userId: body.user.id,
        channelId: body.channel?.id ?? quote.channelId,
        responseUrl: body.response_url,
      };
      return context.openModal(async () =>
        showStep(deps, await createBookingDraft(deps, where, bookingInputFromQuote(quote.input)), 'shipment'),
      );
    },
  );
}
