import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { quotedInput } from '../quote/index.js';
import { ids } from '../shared/ids.js';
import { openModalSoon } from '../shared/modal.js';
import { createBookingDraft, showStep } from './flow.js';

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
export function register(app: App, deps: BotDeps): void {
  app.action(ids.bookFromQuote, async ({ ack, body, client, respond }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const action = body.actions[0];
    const quoteId = action?.type === 'button' ? action.value : undefined;
    const quote = quoteId ? quotedInput(deps, quoteId) : undefined;
    if (!quote) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'This quote is too old to book from. Type `/book` to book.',
      });
      return;
    }
    const where = {
      userId: body.user.id,
      channelId: body.channel?.id ?? quote.channelId,
      responseUrl: body.response_url,
    };
    openModalSoon(deps, client, {
      triggerId: body.trigger_id,
      respond,
      again: 'click *Book this*',
      view: () =>
        showStep(deps, createBookingDraft(deps, where, bookingInputFromQuote(quote.input)), 'shipment'),
    });
  });
}
