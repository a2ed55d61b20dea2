/** A booking the bot made, read back from the store as the domain knows it (with its COD remittances): the one place features read it. */

import { expectedCod } from '../../operations/remittance.js';
import type { BookingRecord, StatusEntry, Store } from '../../store/index.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { formatCents } from '../../waybill/fields.js';
import { netCents, PAYING_OUTCOMES } from '../../waybill/remittance.js';
import { type Booking, validate } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import type { SlackClient } from '../runtime/delivery.js';
import { bookingCard, type CardRemittance } from './booking-card.js';

/** A stored booking (stored JSON has dates as text), parsed by the Booking schema; undefined if unknown. */
export async function storedBooking(
  deps: Pick<Core, 'schemas' | 'logger'> & { store: Pick<Store, 'bookings'> },
  trackingNumber: string,
): Promise<{ record: BookingRecord<Booking>; booking: Booking } | undefined> {
  const record = await deps.store.bookings.get<Booking>(trackingNumber);
  if (!record) return undefined;
  const parsed = validate(deps.schemas.booking, record.record);
  if (!parsed.ok) {
    deps.logger.error({ trackingNumber, errors: parsed.errors }, 'stored booking no longer validates');
    return undefined;
  }
  return { record, booking: parsed.value };
}

/** What remittance files paid on each of these bookings, oldest first, as their cards show it. */
export async function bookingRemittances(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'remittances'> },
  trackingNumbers: readonly string[],
): Promise<Map<string, CardRemittance[]>> {
  const byBooking = new Map<string, CardRemittance[]>();
  for (const line of await deps.store.remittances.ofBookings(trackingNumbers)) {
    if (!line.amount || !(PAYING_OUTCOMES as readonly string[]).includes(line.outcome)) continue;
    const date = line.remittedAt || zonedDateAndTime(line.recordedAt, deps.waybill.timeZone).date;
    const list = byBooking.get(line.trackingNumber) ?? [];
    list.push({ amount: line.amount, fileName: line.fileName, date });
    byBooking.set(line.trackingNumber, list);
  }
  return byBooking;
}

/**
 * The card of a stored booking as it stands: with what remittance files paid on it and its latest
 * recorded status (read here unless the caller has it), so no surface draws a card that drops either.
 */
export async function storedBookingCard(
  deps: Pick<Core, 'waybill' | 'bot'> & { store: Pick<Store, 'receivers' | 'remittances' | 'statuses'> },
  record: BookingRecord<Booking>,
  booking: Booking,
  updatedBy = record.updatedBy,
  latestStatus?: StatusEntry,
  viewer?: string,
) {
  const { catalog, currency, env, timeZone } = deps.waybill;
  const remittances = (await bookingRemittances(deps, [booking.trackingNumber])).get(booking.trackingNumber);
  const status = latestStatus ?? (await deps.store.statuses.latest(booking.trackingNumber));
  const receiver = (await deps.store.receivers.checksOf([booking.trackingNumber])).get(
    booking.trackingNumber,
  );
  const expected = expectedCod(deps, record, status?.status === 'returned');
  return bookingCard({
    booking,
    trackingRefNo: record.trackingRefNo,
    bookedBy: record.bookedBy,
    bookedAt: record.bookedAt,
    owner: record.ownerId,
    catalog,
    currency,
    env,
    timeZone,
    ...(updatedBy ? { updatedBy } : {}),
    ...(remittances
      ? { remittances, expected: { fee: expected.fee, net: formatCents(netCents(expected)) } }
      : {}),
    ...(status ? { status } : {}),
    ...(receiver ? { receiver } : {}),
    ...(record.bookedVia ? { via: record.bookedVia } : {}),
    ...(viewer ? { viewer } : {}),
  });
}

/** Where a booking's card was posted: its channel, and the audit channel. */
export function cardPlaces(
  deps: Pick<Core, 'bot'>,
  record: BookingRecord,
): { channel: string; ts: string }[] {
  return [
    { channel: record.cardChannelId, ts: record.cardTs },
    { channel: deps.bot.auditChannelId, ts: record.auditCardTs },
  ].filter((p): p is { channel: string; ts: string } => Boolean(p.channel && p.ts));
}

/**
 * Where a booking's lines go (a status, a change, a new owner): its cards' threads; a booking from a
 * file has no card, so its import's summary thread, which names it already.
 */
export async function threadPlaces(
  deps: Pick<Core, 'bot'> & { store: Pick<Store, 'imports'> },
  record: BookingRecord,
): Promise<{ channel: string; ts: string }[]> {
  const cards = cardPlaces(deps, record);
  if (cards.length > 0) return cards;
  const imported = await deps.store.imports.threadOf(record.trackingNumber);
  return imported ? [{ channel: imported.channelId, ts: imported.ts }] : [];
}

/**
 * A booking's cards (its channel's and the audit channel's) redrawn as the store has it now; false when it
 * has none to edit. Its record is read only when there is a card: a booking from a file may have none.
 */
export async function redrawCards(
  deps: Pick<Core, 'schemas' | 'logger' | 'waybill' | 'bot'> & {
    store: Pick<Store, 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  },
  client: SlackClient,
  trackingNumber: string,
): Promise<boolean> {
  const stored = await deps.store.bookings.get(trackingNumber);
  const places = stored ? cardPlaces(deps, stored) : [];
  const known = places.length > 0 ? await storedBooking(deps, trackingNumber) : undefined;
  if (!known) return false;
  const card = await storedBookingCard(deps, known.record, known.booking);
  for (const place of places) {
    await client.chat.update({ channel: place.channel, ts: place.ts, ...card }).catch((err: unknown) => {
      deps.logger.warn({ err, trackingNumber }, 'booking card could not be edited');
    });
  }
  return true;
}
