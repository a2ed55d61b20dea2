/** The Home tab of one person, from the store: today's bookings, their unfinished ones, their quotes; published. */
import { scopeChannels } from '../../operations/access.js';
import type { AuditEntry } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import { fieldOf, stringOf } from '../../waybill/fields.js';
import { attentionHomeBlocks } from '../attention/index.js';
import { openBookingDrafts } from '../book/index.js';
import { bookingLine } from '../booking/index.js';
import type { Core } from '../core.js';
import { personOf } from '../guards/person.js';
import { formatMoney } from '../kit/blocks.js';
import { codLedger, summariseCod } from '../remittance/index.js';
import type { SlackClient } from '../runtime/delivery.js';
import { HOME_BOOKINGS, HOME_DRAFTS, HOME_QUOTES, type HomeQuote, homeView } from './blocks.js';

/** The day `instant` falls on in the waybill's time zone, as [start, start of the next day). */
export function dayOf(instant: Date, timeZone: string): { from: Date; to: Date } {
  const { date } = zonedDateAndTime(instant, timeZone);
  return {
    from: instantFromZonedDateTime(date, '00:00', timeZone),
    to: instantFromZonedDateTime(zonedDateAfter(instant, 1, timeZone), '00:00', timeZone),
  };
}

/** What a Home tab is drawn from: who may do what, the store, the settings, the clock. */
type HomeSources = Pick<Core, 'access' | 'store' | 'waybill' | 'bot' | 'now'>;

/** A quote as the audit trail keeps it: the request sent and the price that came back. */
function homeQuote(entry: AuditEntry, currency: string): HomeQuote {
  const request = entry.request;
  const place = (prefix: string) =>
    stringOf(fieldOf(request, `${prefix}Address2`)) || stringOf(fieldOf(request, `${prefix}Address1`)) || '?';
  const weight = stringOf(fieldOf(request, 'packageWeight'));
  return {
    route: `${place('shipper')} → ${place('consignee')}`,
    weight: weight ? `${weight} kg` : '',
    total: formatMoney(stringOf(fieldOf(entry.response, 'totalCharge')) || '0.00', currency),
    at: entry.at,
  };
}

/** What `userId` sees on their Home tab now. */
export async function homeFor(deps: HomeSources, client: SlackClient, userId: string) {
  const person = await personOf(deps.access, client, userId);
  const unchosen = { channelChosenLater: true };
  const allowed = (await deps.access.allows(person, 'show', undefined, unchosen)).ok;
  if (!allowed) {
    return homeView({
      env: deps.waybill.env,
      timeZone: deps.waybill.timeZone,
      allowed,
      bulkAllowed: false,
      bookings: [],
      bookingsToday: 0,
      drafts: [],
      quotes: [],
    });
  }
  // Only the bookings of the conversations this person sees (the access rule).
  const scope = await deps.access.scope(person);
  const channelIds = scopeChannels(scope);
  const today = { ...dayOf(deps.now(), deps.waybill.timeZone), channelIds };
  const [bookings, bookingsToday, drafts, quotes, bulkAllowed, remittanceAllowed, attention] =
    await Promise.all([
      deps.store.bookings.listBooked({ ...today, limit: HOME_BOOKINGS }),
      deps.store.bookings.countBooked(today),
      openBookingDrafts(deps, userId, HOME_DRAFTS),
      deps.store.audit.list({ userId, operation: 'quote', limit: HOME_QUOTES * 4 }),
      deps.access.allows(person, 'bulk', undefined, unchosen),
      deps.access.allows(person, 'remittance', undefined, unchosen),
      attentionHomeBlocks(deps, person),
    ]);
  const [statuses, owed] = await Promise.all([
    deps.store.statuses.latestOf(bookings.map((booking) => booking.trackingNumber)),
    // The finance section, for those who may see money figures only.
    remittanceAllowed.ok ? codLedger(deps) : undefined,
  ]);
  return homeView({
    env: deps.waybill.env,
    timeZone: deps.waybill.timeZone,
    allowed,
    bulkAllowed: bulkAllowed.ok,
    remittanceAllowed: remittanceAllowed.ok,
    ...(owed ? { cod: { summary: summariseCod(owed), currency: deps.waybill.currency } } : {}),
    bookings: bookings.map((booking) => bookingLine(deps, booking, statuses.get(booking.trackingNumber))),
    bookingsToday,
    drafts,
    attention,
    quotes: quotes
      .filter((entry) => entry.outcome === 'ok')
      .slice(0, HOME_QUOTES)
      .map((entry) => homeQuote(entry, deps.waybill.currency)),
  });
}

/** Draws `userId`'s Home tab. */
export async function publishHome(deps: HomeSources, client: SlackClient, userId: string): Promise<void> {
  await client.views.publish({ user_id: userId, view: await homeFor(deps, client, userId) });
}
