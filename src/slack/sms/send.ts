/** An SMS turn from Slack's side: the gateway from the settings, each line posted in the booking card's thread. */

import { type SmsDeps, smsTurn } from '../../operations/sms.js';
import type { SmsGateway } from '../../sms/gateway.js';
import type { SmsRow, Store } from '../../store/index.js';
import { threadPlaces } from '../booking/index.js';
import type { Core } from '../core.js';
import type { SlackClient } from '../runtime/delivery.js';
import { smsLine } from './blocks.js';

/** The metadata of each line: which SMS, and which line of it. */
export const SMS_LINE_EVENT = 'receiver_sms';

export function smsTurnWith(
  deps: Pick<Core, 'logger' | 'now' | 'bot'> & { store: Pick<Store, 'bookings' | 'imports' | 'sms'> },
  gateway: SmsGateway,
  client: SlackClient,
) {
  const sms: SmsDeps = { ...deps, settings: deps.bot.sms, gateway };
  return smsTurn(sms, {
    async tell(row: SmsRow, name: string) {
      const stored = await deps.store.bookings.get(row.trackingNumber);
      // Its card's thread (a booking from a file: its import's); none when its card was never posted.
      const [place] = stored ? await threadPlaces(deps, stored) : [];
      if (!place) return;
      const text = smsLine(row, name);
      await client.chat.postMessage({
        channel: place.channel,
        thread_ts: place.ts,
        text,
        metadata: {
          event_type: SMS_LINE_EVENT,
          event_payload: { tracking_number: row.trackingNumber, event: row.event, note: row.note ?? '' },
        },
      });
    },
  });
}
