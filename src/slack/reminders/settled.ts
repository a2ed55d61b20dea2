/**
 * A reminder DM redrawn once an item it reminded is settled (a status that closes it, a reassignment,
 * a resolve, a remittance): that item's line says so (what, by whom) instead of offering buttons.
 * Found by the reminders turn, which knows what is open; redrawn through chat.update, once per item.
 */

import type { Scope } from '../../operations/access.js';
import type { AttentionItem } from '../../operations/attention.js';
import { reminderId, type SettledDm, settledDms } from '../../operations/reminders.js';
import type { ReminderRow, Store } from '../../store/index.js';
import { callsFor, viewerOf } from '../attention/index.js';
import { statusLine } from '../booking/index.js';
import type { Core } from '../core.js';
import { personOf } from '../guards/person.js';
import type { SlackClient } from '../runtime/delivery.js';
import { ITEMS_SHOWN, type RedrawnLine, redrawnMessage } from './blocks.js';

type Redrawing = Pick<Core, 'waybill' | 'now' | 'logger' | 'access'> & {
  store: Pick<Store, 'attempts' | 'audit' | 'bookings' | 'reminders' | 'statuses'>;
};

/** Every DM with an item settled since the last turn, redrawn; `open`: what needs attention now. */
export async function redrawSettled(
  deps: Redrawing,
  client: SlackClient,
  open: readonly AttentionItem[],
): Promise<void> {
  for (const dm of await settledDms(deps.store, open)) {
    await redraw(deps, client, dm, open).catch((err: unknown) =>
      deps.logger.warn({ err, user: dm.ownerId }, 'a reminder could not be redrawn as settled'),
    );
  }
}

async function redraw(
  deps: Redrawing,
  client: SlackClient,
  dm: SettledDm,
  open: readonly AttentionItem[],
): Promise<void> {
  const byId = new Map(open.map((item) => [reminderId(item), item]));
  const viewer = await viewerOf(deps, await personOf(deps.access, client, dm.ownerId));
  const rows = dm.rows.slice(0, ITEMS_SHOWN);
  const lines = await Promise.all(
    rows.map(async (row): Promise<RedrawnLine> => {
      const item = byId.get(reminderId(row));
      return item?.ownerId === row.ownerId
        ? { item }
        : { settled: await settlement(deps, viewer.scope, row) };
    }),
  );
  const stillOpen = lines.flatMap((line) => ('item' in line ? [line.item] : []));
  const calls = await callsFor(deps, viewer, stillOpen);
  await client.chat.update({
    channel: dm.channel,
    ts: dm.ts,
    ...redrawnMessage(lines, dm.rows.length, deps.now(), calls),
  });
  deps.logger.info({ user: dm.ownerId }, 'reminder redrawn: an item settled');
}

/** What settled a row's item, as its line says it: the booking's number, then how and by whom. */
async function settlement(
  deps: Pick<Core, 'waybill' | 'access'> & {
    store: Pick<Store, 'attempts' | 'audit' | 'bookings' | 'statuses'>;
  },
  scope: Scope,
  row: ReminderRow,
): Promise<{ trackingNumber?: string; how: string }> {
  if (row.rule === 'unknown') {
    const attempt = await deps.store.attempts.get(row.key);
    const how = attempt?.state === 'succeeded' ? 'resolved: it went through' : 'resolved';
    return { ...(attempt?.trackingNumber ? { trackingNumber: attempt.trackingNumber } : {}), how };
  }
  const trackingNumber = row.key;
  const booking = await deps.store.bookings.get(trackingNumber);
  // Only what the owner may see of it: a booking of a conversation they do not see is just settled.
  if (!booking || deps.access.sight(scope, { kind: 'private' }, booking) === 'nothing')
    return { trackingNumber, how: 'settled' };
  if (booking.ownerId && booking.ownerId !== row.ownerId) {
    const [handed] = await deps.store.audit.list({ trackingNumber, operation: 'assign', limit: 1 });
    const by = handed ? ` by <@${handed.userId}>` : '';
    return { trackingNumber, how: `handed to <@${booking.ownerId}>${by}` };
  }
  const status = await deps.store.statuses.latest(trackingNumber);
  if (row.rule === 'cod' && status?.status === 'delivered') return { trackingNumber, how: 'COD remitted' };
  return { trackingNumber, how: status ? statusLine(status, deps.waybill.timeZone) : 'settled' };
}
