/** /book: opens the booking's first step, pre-filled from `key=value` words. */
import type { App } from '@slack/bolt';
import { importModalFor } from '../bulk/index.js';
import type { Core } from '../core.js';
import { byCommand, requires } from '../guards/access.js';
import { firstWord } from '../kit/command-request.js';
import { ackNow, type Opening, openingModal } from '../kit/listener.js';
import { type PrefillKeys, parsePrefill, placePrefillKeys, shipmentPrefillKeys } from '../kit/prefill.js';
import { helpWithKeys } from '../kit/prefilled-command.js';
import { createBookingDraft } from './draft.js';
import { allBookingFields, bookingSteps, stepTitles } from './form.js';
import { showStep } from './steps.js';

/** `/book import`: booking many from a CSV file, the bulk booking's modal instead of the form. */
const IMPORT = 'import';

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
  const keys = bookPrefillKeys(deps);
  const fields = allBookingFields(deps.waybill.catalog, 0);
  app.command<Opening>(
    '/book',
    requires(
      deps,
      byCommand((verb) => (verb === IMPORT ? 'bulk' : 'book')),
    ),
    helpWithKeys(
      '/book',
      keys,
      `*/book* books a waybill in steps: ${steps}. \`/book import\` books many at once from a CSV file.`,
    ),
    // The trigger_id dies 3 s after the command: acknowledge, then open the form straight away.
    ackNow,
    openingModal(deps, 'type `/book`'),
    async ({ command, context }) => {
      // `/book import`: the bulk booking's modal instead of the form.
      if (firstWord(command.text) === IMPORT) {
        await context.openModal(
          () => importModalFor(deps, command.channel_id),
          `type \`/book ${command.text.trim()}\``,
        );
        return;
      }
      await context.openModal(async () => {
        const where = {
          userId: command.user_id,
          channelId: command.channel_id,
          responseUrl: command.response_url,
        };
        const prefill = parsePrefill(command.text, keys, fields);
        return showStep(
          deps,
          await createBookingDraft(deps, where, prefill.values),
          'shipment',
          prefill.notices,
        );
      });
    },
  );
}
