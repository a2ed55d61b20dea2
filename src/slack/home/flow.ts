/** The Home tab of one person, from the store: today's bookings, their unfinished ones, their quotes; published. */
import type { AuditEntry, BookingRecord } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import { isObject } from '../../waybill/fields.js';
import { openBookingDrafts } from '../book/index.js';
import type { BotDeps } from '../deps.js';
import { formatMoney } from '../shared/blocks.js';
import type { SlackClient } from '../shared/delivery.js';
import {
  HOME_BOOKINGS,
  HOME_DRAFTS,
  HOME_QUOTES,
  type HomeBooking,
  type HomeQuote,
  homeView,
} from './blocks.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);

/** The day `instant` falls on in the waybill's time zone, as [start, start of the next day). */
export function dayOf(instant: Date, timeZone: string): { from: Date; to: Date } {
  const { date } = zonedDateAndTime(instant, timeZone);
  return {
    from: instantFromZonedDateTime(date, '00:00', timeZone),
    to: instantFromZonedDateTime(zonedDateAfter(instant, 1, timeZone), '00:00', timeZone),
  };
}

function homeBooking(deps: BotDeps, stored: BookingRecord): HomeBooking {
  const { catalog, currency } = deps.waybill;
  const booking = stored.record;
  const consignee = field(booking, 'consignee');
  const isCod = field(booking, 'paymentMethod') === catalog.codPaymentMethod;
  const amount = text(field(booking, 'codAmount'));
  return {
    trackingNumber: stored.trackingNumber,
    receiver: text(field(consignee, 'name')),
    city: text(field(consignee, 'city')),
    cod: isCod && amount ? formatMoney(amount, currency) : '',
    bookedBy: stored.bookedBy,
    bookedAt: stored.bookedAt,
  };
}

/** A quote as the audit trail keeps it: the request sent and the price that came back. */
function homeQuote(deps: BotDeps, entry: AuditEntry): HomeQuote {
  const request = entry.request;
  const place = (prefix: string) =>
    text(field(request, `${prefix}Address2`)) || text(field(request, `${prefix}Address1`)) || '?';
  const weight = text(field(request, 'packageWeight'));
  return {
    route: `${place('shipper')} → ${place('consignee')}`,
    weight: weight ? `${weight} kg` : '',
    total: formatMoney(text(field(entry.response, 'totalCharge')) || '0.00', deps.waybill.currency),
    at: entry.at,
  };
}

/** What `userId` sees on their Home tab now. */
export async function homeFor(deps: BotDeps, client: SlackClient, userId: string) {
  const allowed = (await deps.access.allows(client, userId, undefined, { channelChosenLater: true })).ok;
  if (!allowed) {
    return homeView({
      env: deps.waybill.env,
      allowed,
      bulkAllowed: false,
      bookings: [],
      bookingsToday: 0,
      drafts: [],
      quotes: [],
    });
  }
  const today = dayOf(deps.now(), deps.waybill.timeZone);
  const [bookings, bookingsToday, drafts, quotes, bulkAllowed] = await Promise.all([
    deps.store.bookings.listBooked({ ...today, limit: HOME_BOOKINGS }),
    deps.store.bookings.countBooked(today),
    openBookingDrafts(deps, userId, HOME_DRAFTS),
    deps.store.audit.list({ userId, operation: 'quote', limit: HOME_QUOTES * 4 }),
    deps.access.allowsBulk(client, userId, undefined, { channelChosenLater: true }),
  ]);
  return homeView({
    env: deps.waybill.env,
    allowed,
    bulkAllowed: bulkAllowed.ok,
    bookings: bookings.map((booking) => homeBooking(deps, booking)),
    bookingsToday,
    drafts,
    quotes: quotes
      .filter((entry) => entry.outcome === 'ok')
      .slice(0, HOME_QUOTES)
      .map((entry) => homeQuote(deps, entry)),
  });
}

/** Draws `userId`'s Home tab. */
export async function publishHome(deps: BotDeps, client: SlackClient, userId: string): Promise<void> {
  await client.views.publish({ user_id: userId, view: await homeFor(deps, client, userId) });
}
