/** /book: opens the booking's first step, pre-filled from `key=value` words. */
import type { App } from '@slack/bolt';
import { importModalFor } from '../bulk/index.js';
import type { Core } from '../core.js';
import { byCommand, requires } from '../guards/access.js';
import { readCommand } from '../kit/command-request.js';
import { type PrefillKeys, placePrefillKeys, shipmentPrefillKeys } from '../kit/prefill.js';
import { onPrefilledCommand } from '../kit/prefilled-command.js';
import { createBookingDraft } from './draft.js';
import { allBookingFields, bookingSteps, stepTitles } from './form.js';
import { showStep } from './steps.js';

export function bookPrefillKeys(deps: Pick<Core, 'waybill'>): PrefillKeys {
  return {
    tracking: { path: 'trackingNumber', about: 'tracking number (empty: the next free one)' },
    description: { path: 'itemDescription', about: 'item description' },
    ...shipmentPrefillKeys(deps.waybill.catalog),
    pickup: { path: 'pickupAt.date', about: 'pickup date, YYYY-MM-DD' },
    delivery: { path: 'expectedDeliveryAt.date', about: 'expected delivery date, YYYY-MM-DD' },
    to_name: { path: 'consignee.name', about: 'receiver name' },
    to_phone: { path: 'consignee.phone', about: 'receiver phone' },
    to_email: { path: 'consignee.email', about: 'receiver e-mail' },
    ...placePrefillKeys({
      from: ['shipper', 'sender'],
      to: ['consignee', 'receiver'],
      return: ['returnTo', 'return'],
    }),
  };
}

export function register(app: App, deps: Core): void {
  const steps = bookingSteps.map((step, i) => `${i + 1}. ${stepTitles[step]}`).join(' → ');
  onPrefilledCommand(
    app,
    deps,
    '/book',
    requires(
      deps,
      byCommand(({ kind }) => (kind === 'bulk' ? 'bulk' : 'book')),
    ),
    {
      keys: bookPrefillKeys(deps),
      fields: allBookingFields(deps.waybill.catalog, 0),
      intro: `*/book* books a waybill in steps: ${steps}. \`/book import\` books many at once from a CSV file.`,
      // `/book import`: the bulk booking's modal instead of the form.
      instead: (command) =>
        readCommand('/book', command.text)?.kind === 'bulk'
          ? () => importModalFor(deps, command.channel_id)
          : undefined,
      form: async (command, prefill) => {
        const where = {
          userId: command.user_id,
          channelId: command.channel_id,
          responseUrl: command.response_url,
        };
        return showStep(
          deps,
          await createBookingDraft(deps, where, prefill.values),
          'shipment',
          prefill.notices,
        );
      },
    },
  );
}
