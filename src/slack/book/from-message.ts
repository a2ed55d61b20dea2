/** "Book from this message", a message shortcut: /book pre-filled with what the message says for certain. */
import type { App, MessageShortcut } from '@slack/bolt';
import { readMessage } from '../../waybill/message-reader.js';
import { knownParties } from '../addresses/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { setPath } from '../kit/forms.js';
import { openModalSoon } from '../kit/modal.js';
import { plainTextOf } from '../kit/mrkdwn.js';
import { createBookingDraft } from './draft.js';
import { ids } from './ids.js';
import { showStep } from './steps.js';

/**
 * The message is read by fixed rules (src/waybill/message-reader.ts); the first step then says
 * what was read and from which words, and what was left empty and why, above the pre-filled
 * form. A saved party the message names fills the receiver's fields the message left open. The
 * booking card goes to the message's conversation.
 */
export function register(app: App, deps: Core): void {
  app.shortcut<MessageShortcut>(
    { callback_id: ids.bookFromMessage, type: 'message_action' },
    requires(deps, 'book'),
    async ({ shortcut, ack, client, respond }) => {
      await ack();
      openModalSoon(deps, client, {
        triggerId: shortcut.trigger_id,
        respond,
        again: 'use *Book from this message*',
        view: async () => {
          const { catalog } = deps.waybill;
          const text = plainTextOf(shortcut.message?.text ?? '');
          // Saved parties named in the message: the reader uses one if it is the only one named.
          const named = await deps.store.parties.namedIn(text);
          const reading = readMessage(text, {
            codPaymentMethod: catalog.codPaymentMethod,
            packageTypes: catalog.packageTypes,
            knownParties: knownParties(named),
          });
          const input: Record<string, unknown> = {};
          for (const [path, value] of Object.entries(reading.values)) setPath(input, path, value);
          const where = {
            userId: shortcut.user.id,
            channelId: shortcut.channel.id,
            responseUrl: shortcut.response_url,
          };
          const origin = {
            kind: 'message' as const,
            text,
            recognised: reading.recognised,
            notes: reading.notes,
          };
          return showStep(deps, await createBookingDraft(deps, where, input, origin), 'shipment');
        },
      });
    },
  );
}
