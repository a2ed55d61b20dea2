/** Opening the import modal (Import CSV on the Home tab, `/book import`), and sending the CSV template. */
import type { App } from '@slack/bolt';
import { templateCsv } from '../../waybill/csv/columns.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { uploadToUser } from '../kit/files.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import type { SlackClient } from '../runtime/delivery.js';
import { importModal } from './blocks.js';
import { ids } from './ids.js';

/** The import modal; from a command, its channel is chosen for the results. */
export function importModalFor(deps: Pick<Core, 'waybill' | 'bot'>, channelId?: string) {
  const { maxRows, maxBytes } = deps.bot.bulk;
  return importModal({
    env: deps.waybill.env,
    limits: { maxRows, maxBytes },
    ...(channelId ? { channelId } : {}),
  });
}

async function sendTemplate(
  deps: Pick<Core, 'waybill'>,
  client: SlackClient,
  body: ButtonClick,
): Promise<void> {
  await uploadToUser(client, body.user.id, {
    filename: 'bookings-template.csv',
    title: 'Bookings template',
    content: templateCsv(deps.waybill.catalog),
    comment:
      'The template for booking from a CSV file: one booking per row, one example row. Fill it in, save it as CSV (UTF-8), then `/book import`.',
  });
}

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    ids.bulkOpen,
    requires(deps, 'bulk'),
    ackNow,
    openingModal(deps, 'click *Import CSV*'),
    ({ context }) => context.openModal(() => importModalFor(deps)),
  );
  app.action<ButtonClick>(ids.bulkTemplate, requires(deps, 'bulk'), ackNow, async ({ body, client }) => {
    deps.inFlight.run('csv template', () => sendTemplate(deps, client, body), {
      client,
      userId: body.user.id,
      ...(body.channel ? { channelId: body.channel.id } : {}),
      what: 'the CSV template',
    });
  });
}
