/** A booking the bot made, read back from the store as the domain knows it: the one place features read it. */
import type { BookingRecord } from '../../store/index.js';
import { type Booking, validate } from '../../waybill/schemas.js';
import type { BotDeps } from '../deps.js';

/** A stored booking (stored JSON has dates as text), parsed by the Booking schema; undefined if unknown. */
export async function storedBooking(
  deps: BotDeps,
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
