/** /quote: opens the quote form, pre-filled from `key=value` words and a dispatcher's usual defaults. */
import type { App } from '@slack/bolt';
import { zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import type { BotDeps } from '../deps.js';
import { type Prefill, type PrefillKeys, placePrefillKeys, shipmentPrefillKeys } from '../shared/prefill.js';
import { onPrefilledCommand } from '../shared/prefilled-command.js';
import { type QuoteDraft, quoteForm } from './flow.js';
import { sectionFields } from './form.js';

export function quotePrefillKeys(deps: BotDeps): PrefillKeys {
  return {
    ...shipmentPrefillKeys(deps.waybill.catalog),
    pickup: { path: 'pickupDate', about: 'pickup date, YYYY-MM-DD' },
    delivery: { path: 'expectedDeliveryDate', about: 'expected delivery date, YYYY-MM-DD' },
    // The Quotation has no return postal code.
    ...placePrefillKeys({
      from: ['shipper', 'sender'],
      to: ['consignee', 'receiver'],
      return: ['returnTo', 'return', ['postal']],
    }),
  };
}

/** A dispatcher in a hurry: pickup today, delivery tomorrow, one parcel, the only service if there is one. */
function quoteDefaults(deps: BotDeps): Record<string, unknown> {
  const { timeZone, catalog } = deps.waybill;
  const now = deps.now();
  return {
    pickupDate: zonedDateAndTime(now, timeZone).date,
    expectedDeliveryDate: zonedDateAfter(now, 1, timeZone),
    quantity: '1',
    ...(catalog.serviceTypes.length === 1 ? { serviceType: catalog.serviceTypes[0]?.value } : {}),
  };
}

/** A new quote's form, with the defaults under what was pre-filled; its price is posted in `channelId`. */
export async function newQuoteForm(
  deps: BotDeps,
  where: { userId: string; channelId: string; responseUrl?: string },
  { values, notices }: Prefill = { values: {}, notices: [] },
) {
  const draft = await deps.store.drafts.create<QuoteDraft>({
    kind: 'quote',
    userId: where.userId,
    channelId: where.channelId,
    data: { input: { ...quoteDefaults(deps), ...values }, responseUrl: where.responseUrl },
  });
  return quoteForm(deps, draft, notices);
}

export function register(app: App, deps: BotDeps): void {
  onPrefilledCommand(app, deps, '/quote', {
    keys: quotePrefillKeys(deps),
    fields: sectionFields(deps.forms.quote.sections),
    form: (command, prefill) =>
      newQuoteForm(
        deps,
        { userId: command.user_id, channelId: command.channel_id, responseUrl: command.response_url },
        prefill,
      ),
  });
}
