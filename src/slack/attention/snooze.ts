/** A reminder's Snooze: the item waits (1 hour, tomorrow 9:00, 3 days), then is reminded again; its owner's alone, their permission checked again. */

import type { App, BlockAction, StaticSelectAction } from '@slack/bolt';
import { snoozeEnd, snoozeReminder } from '../../operations/reminders.js';
import type { Store } from '../../store/index.js';
import { slackDate } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { askerOf, refusalOnBooking } from '../guards/booking-access.js';
import { ackNow, type Told, tellClicker } from '../kit/listener.js';
import { ids } from './ids.js';
import { notSnoozedText, notYoursText, readSnoozeValue, snoozedText } from './item.js';

/** The booking an item is about, and who owns the item: the booking's owner, or an unknown outcome's caller. */
async function itemOf(
  deps: { store: Pick<Store, 'attempts' | 'bookings'> },
  item: { rule: string; key: string },
) {
  const attempt = item.rule === 'unknown' ? await deps.store.attempts.get(item.key) : undefined;
  const trackingNumber = item.rule === 'unknown' ? attempt?.trackingNumber : item.key;
  const booking = trackingNumber ? await deps.store.bookings.get(trackingNumber) : undefined;
  return { booking, ownerId: item.rule === 'unknown' ? attempt?.userId : booking?.ownerId };
}

export function register(app: App, deps: Core): void {
  // Putting a booking off changes what happens to it: the update permission, as for its status.
  app.action<BlockAction<StaticSelectAction>, Told>(
    ids.reminderSnooze,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    async ({ body, action, client, context: { tell } }) => {
      const answer = async (text: string) => {
        await tell({ response_type: 'ephemeral', replace_original: false, text });
      };
      const chosen = readSnoozeValue(action.selected_option.value);
      if (!chosen) return answer(notSnoozedText);
      const { booking, ownerId } = await itemOf(deps, chosen);
      // A reminder is its owner's to put off: anyone else's Snooze (a forged one) would stop its escalation.
      if (ownerId !== body.user.id) return answer(notYoursText(ownerId));
      const refused = booking && (await refusalOnBooking(deps, askerOf(client, body), 'update', booking));
      if (refused) return answer(refused);
      const until = snoozeEnd(chosen.choice, deps.now(), deps.waybill.timeZone);
      const snoozed = await snoozeReminder(deps.store, chosen, until);
      await answer(snoozed ? snoozedText(slackDate(until, deps.waybill.timeZone)) : notSnoozedText);
    },
  );
}
