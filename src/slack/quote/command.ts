/** /quote: opens the quote form, pre-filled from `key=value` words and a dispatcher's usual defaults. */

import type { App } from '@slack/bolt';
import type { Store } from '../../store/index.js';
import { zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import type { Core } from '../core.js';
import { byCommand, requires } from '../guards/access.js';
import { ackNow, type Opening, openingModal } from '../kit/listener.js';
import {
  type Prefill,
  type PrefillKeys,
  parsePrefill,
  placePrefillKeys,
  shipmentPrefillKeys,
} from '../kit/prefill.js';
import { helpWithKeys } from '../kit/prefilled-command.js';
import type { QuoteDraft } from './draft.js';
import { quoteFields } from './form.js';
import { quoteForm } from './steps.js';

export function quotePrefillKeys(deps: Pick<Core, 'waybill'>): PrefillKeys {
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
export function quoteDefaults(deps: Pick<Core, 'waybill' | 'now'>): Record<string, unknown> {
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
  deps: Pick<Core, 'now' | 'waybill' | 'schemas'> & { store: Pick<Store, 'drafts'> },
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

export function register(app: App, deps: Core): void {
  const keys = quotePrefillKeys(deps);
  const fields = quoteFields(deps);
  app.command<Opening>(
    '/quote',
    requires(
      deps,
      byCommand(() => 'quote'),
    ),
    helpWithKeys('/quote', keys),
    // The trigger_id dies 3 s after the command: acknowledge, then open the form straight away.
    ackNow,
    openingModal(deps, 'type `/quote`'),
    ({ command, context }) =>
      context.openModal(() =>
        newQuoteForm(
          deps,
          { userId: command.user_id, channelId: command.channel_id, responseUrl: command.response_url },
          parsePrefill(command.text, keys, fields),
        ),
      ),
  );
}
