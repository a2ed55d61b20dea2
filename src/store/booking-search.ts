// Finding bookings: the words each is found by (booking_terms), kept with it, and the search over them.
import {
  type ExpressionBuilder,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { BackendKind } from './backend.js';
import { phoneTerms, wordsOf } from './parties.js';
import type { BookingsTable, Db, Tables } from './schema.js';
import type { BookingSearch, SearchThresholds } from './types.js';

/** Above every character: `term < prefix + TOP` holds for every term starting with `prefix` (byte order). */
const TOP = '\u{10FFFF}';
/**
 * Filters are terms beginning with `!`, which no word does (words are letters and digits), so a
 * typed word never matches one by its prefix.
 */
const STATUS = '!status:';
const OWNER = '!owner:';
const PAYMENT = '!payment:';
/** The conversation a booking was booked in: the access rule's scope is a condition of the search like any filter. */
const CHANNEL = '!channel:';
/** The term of every cash-on-delivery booking. */
export const COD_TERM = `${PAYMENT}cod`;
/** A booking no status was recorded for. */
export const BOOKED = 'booked';
/** Where the search changes strategy on a big store (SearchThresholds says how). */
export const BOOKING_THRESHOLDS: SearchThresholds['bookings'] = { many: 5000, sparse: 20_000, recent: 2000 };
/** Words read from a query: more only cost time. */
const MAX_WORDS = 8;

/** What a stored booking is found by, read defensively: the store keeps the record as JSON. */
interface Searchable {
  trackingNumber?: string;
  reference1?: string;
  reference2?: string;
  reference3?: string;
  reference4?: string;
  reference5?: string;
  codAmount?: string;
  itemDescription?: string;
  shipper?: { name?: string; phone?: string };
  consignee?: { name?: string; phone?: string; city?: string; district?: string; barangay?: string };
  childWaybills?: { trackingNumber?: string; itemDescription?: string }[];
}

/** A COD amount above zero: the booking is cash on delivery. */
const isCod = (amount: string | undefined) => /[1-9]/.test(amount ?? '');

/** The words and filters a booking is found by, its status aside (exported for seeding big stores fast). */
export function bookingTerms(record: unknown, ownerId: string): string[] {
  const b = (record ?? {}) as Searchable;
  const texts = [
    b.trackingNumber,
    b.reference1,
    b.reference2,
    b.reference3,
    b.reference4,
    b.reference5,
    b.itemDescription,
    b.shipper?.name,
    b.consignee?.name,
    b.consignee?.city,
    b.consignee?.district,
    b.consignee?.barangay,
    ...(b.childWaybills ?? []).flatMap((child) => [child.trackingNumber, child.itemDescription]),
  ];
  return [
    ...new Set([
      ...texts.flatMap((text) => wordsOf(text ?? '')),
      ...phoneTerms(b.shipper?.phone ?? ''),
      ...phoneTerms(b.consignee?.phone ?? ''),
      `${OWNER}${ownerId}`,
      `${PAYMENT}${isCod(b.codAmount) ? 'cod' : 'prepaid'}`,
    ]),
  ];
}

export const statusTerm = (status: string) => `${STATUS}${status}`;
export const channelTerm = (channelId: string) => `${CHANNEL}${channelId}`;

/**
 * The booking's terms replaced by those of its record, its status and channel terms kept; `channelId`
 * (a new booking's) adds its channel term.
 */
export async function indexBooking(
  db: Db,
  trackingNumber: string,
  record: unknown,
  ownerId: string,
  channelId?: string,
) {
  await db
    .deleteFrom('booking_terms')
    .where('tracking_number', '=', trackingNumber)
    .where((eb) => eb.and([eb.not(inRange(eb, STATUS)), eb.not(inRange(eb, CHANNEL))]))
    .execute();
  const terms = [...bookingTerms(record, ownerId), ...(channelId ? [channelTerm(channelId)] : [])].map(
    (term) => ({ term, tracking_number: trackingNumber }),
  );
  await db
    .insertInto('booking_terms')
    .values(terms)
    .onConflict((c) => c.doNothing())
    .execute();
}

/** The booking's owner term, replaced: `owner:` finds it under its new owner. */
export async function indexOwner(db: Db, trackingNumber: string, ownerId: string) {
  await db
    .deleteFrom('booking_terms')
    .where('tracking_number', '=', trackingNumber)
    .where((eb) => inRange(eb, OWNER))
    .execute();
  await db
    .insertInto('booking_terms')
    .values({ term: `${OWNER}${ownerId}`, tracking_number: trackingNumber })
    .execute();
}

/** The booking's status term, replaced. */
export async function indexStatus(db: Db, trackingNumber: string, status: string) {
  await db
    .deleteFrom('booking_terms')
    .where('tracking_number', '=', trackingNumber)
    .where((eb) => inRange(eb, STATUS))
    .execute();
  await db
    .insertInto('booking_terms')
    .values({ term: statusTerm(status), tracking_number: trackingNumber })
    .execute();
}

function inRange(eb: ExpressionBuilder<Tables, 'booking_terms'>, prefix: string) {
  return matches(eb, sql.ref('booking_terms.term'), { prefix });
}

/**
 * A condition: terms beginning with `prefix` (a typed word), or one of `exact` (a filter); `channels`
 * marks the access rule's, which a booking's own column answers when it does not drive the query.
 */
type Condition = { prefix: string } | { exact: string[]; channels?: readonly string[] };

/** The terms `term` (a column of booking_terms) that meet the condition. */
function matches<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  term: RawBuilder<string>,
  condition: Condition,
) {
  return 'exact' in condition
    ? eb(term, 'in', condition.exact)
    : eb.and([eb(term, '>=', condition.prefix), eb(term, '<', `${condition.prefix}${TOP}`)]);
}

/** A phone typed among other words is one word (`maria 0918 555` looks for 0918555), as the address book reads it. */
function queryWords(text: string): string[] {
  const joined = text.slice(0, 200).replace(/(\d)[\s\-().]+(?=\d)/g, '$1');
  return [...new Set(wordsOf(joined))].slice(0, MAX_WORDS);
}

function conditionsOf(search: BookingSearch): Condition[] {
  return [
    ...queryWords(search.text).map((prefix) => ({ prefix })),
    // Statuses: any of them (a word may name two).
    ...(search.statuses ? [{ exact: search.statuses.map(statusTerm) }] : []),
    ...(search.owner ? [{ exact: [`${OWNER}${search.owner}`] }] : []),
    ...(search.payment ? [{ exact: [`${PAYMENT}${search.payment}`] }] : []),
    // The access rule's scope: an indexed condition, so a common word is never walked through
    // bookings nobody asking may see.
    ...(search.channelIds
      ? [
          {
            exact: search.channelIds.length > 0 ? search.channelIds.map(channelTerm) : [channelTerm('')],
            channels: search.channelIds.length > 0 ? search.channelIds : [''],
          },
        ]
      : []),
  ];
}

/**
 * Bookings matching every condition, newest first, after `search.after`; only those booked in
 * `search.channelIds` when given (in the query, so no page can hold another).
 */
export async function findBookings(
  db: Db,
  kind: BackendKind,
  search: BookingSearch,
  thresholds: SearchThresholds['bookings'],
) {
  const conditions = conditionsOf(search);
  const terms = (condition: Condition) =>
    db
      .selectFrom('booking_terms')
      .select('booking_terms.tracking_number')
      .where((eb) => matches(eb, sql.ref('booking_terms.term'), condition));
  /** Each condition's bookings, counted up to `most` + 1, in one statement: one round trip, not one each. */
  const countUpTo = async (most: number) => {
    const counted = conditions.length
      ? await db
          .selectNoFrom((eb) =>
            conditions.map((condition, i) =>
              eb
                .selectFrom(
                  terms(condition)
                    .limit(most + 1)
                    .as('first'),
                )
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .as(`n${i}`),
            ),
          )
          .executeTakeFirstOrThrow()
      : {};
    return conditions.map((_, i) => Number((counted as Record<string, unknown>)[`n${i}`]));
  };
  // Up to `many` first: most queries have a rare word, and counting common ones further is most of their time.
  const counts = await countUpTo(thresholds.many);
  const fewest = Math.min(...counts);
  const tracking = sql.ref<string>('bookings.tracking_number');
  /**
   * The bookings of every driving condition. SQLite merges the conditions' terms well (INTERSECT;
   * probing was 2.5 times the CPU). PostgreSQL expected an INTERSECT large and walked every booking
   * newest first with it as a filter (120 ms of CPU for "manila rice cooker" on the big store): there
   * the rarest condition's terms are each checked in the others (14 ms), whose size it estimates well,
   * and the limit (no intersection is larger than its driver) keeps the subquery apart.
   */
  const intersection = (first: number, rest: readonly number[]) => {
    if (kind === 'sqlite')
      return rest.reduce(
        (all, i) => all.intersect(terms(conditions[i] as Condition)),
        terms(conditions[first] as Condition),
      );
    const driver = sql.ref<string>('driver.tracking_number');
    return rest
      .reduce(
        (found, i) =>
          found.where(({ exists }) =>
            exists(terms(conditions[i] as Condition).where('booking_terms.tracking_number', '=', driver)),
          ),
        db
          .selectFrom('booking_terms as driver')
          .select('driver.tracking_number')
          .where((eb) => matches(eb, sql.ref('driver.term'), conditions[first] as Condition)),
      )
      .limit(thresholds.sparse);
  };
  /**
   * The page, `driving` conditions' bookings (rarest first) fetched (their intersection) and sorted, the others
   * checked booking by booking; with none driving, the bookings walked newest first (only the
   * newest `window` of them, when given).
   */
  const pageOf = (driving: readonly number[], window?: number) => {
    let query = db.selectFrom('bookings').selectAll();
    const [first, ...rest] = driving;
    if (first !== undefined) query = query.where('bookings.tracking_number', 'in', intersection(first, rest));
    for (const [i, condition] of conditions.entries()) {
      if (driving.includes(i)) continue;
      // The channel rule, checked on the booking's own row: no lookup in the terms for each booking.
      if ('channels' in condition && condition.channels) {
        query = query.where('bookings.channel_id', 'in', [...condition.channels]);
        continue;
      }
      query = query.where(({ exists }) =>
        exists(terms(condition).where('booking_terms.tracking_number', '=', tracking)),
      );
    }
    if (window) {
      // From the window's oldest booking on: one short walk of bookings_booked_at, in the range.
      const oldest = within(db.selectFrom('bookings').select('bookings.booked_at'), search)
        .orderBy('bookings.booked_at', 'desc')
        .offset(window - 1)
        .limit(1);
      query = query.where('bookings.booked_at', '>=', (eb) => eb.fn.coalesce(oldest, sql.lit(0)));
    }
    return filtered(query, search).execute();
  };
  // A rare word's bookings are few enough to fetch and sort; a single common one's are dense enough
  // that walking the newest fills a page soon.
  if (fewest <= thresholds.many) return pageOf([counts.indexOf(fewest)]);
  if (conditions.length <= 1) return pageOf([]);
  // Several common words, maybe seldom together (`maria juan`): the newest bookings first; a full page
  // there is the page. Else the whole range when it is short (a month), or the bookings of the words
  // not too common to fetch, intersected: which those are is counted up to `sparse` while the newest
  // are walked (on PostgreSQL on another pooled connection).
  const [recent, sparse] = await Promise.all([
    search.after ? undefined : pageOf([], thresholds.recent),
    countUpTo(thresholds.sparse),
  ]);
  if (recent?.length === search.limit) return recent;
  const driving = sparse
    .flatMap((n, i) => (n <= thresholds.sparse ? [i] : []))
    .sort((a, b) => (sparse[a] ?? 0) - (sparse[b] ?? 0));
  // Without days or a page's start the range is every booking: no short walk there.
  if (!search.from && !search.to && !search.after) return pageOf(driving);
  const range = within(db.selectFrom('bookings').select('bookings.tracking_number'), search).limit(
    thresholds.sparse + 1,
  );
  const { n } = await db
    .selectFrom(range.as('range'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return pageOf(Number(n) <= thresholds.sparse ? [] : driving);
}

/** The search's days and the page's start. */
function within<Q extends SelectQueryBuilder<Tables, 'bookings', object>>(
  query: Q,
  search: BookingSearch,
): Q {
  let bounded = query;
  if (search.from) bounded = bounded.where('bookings.booked_at', '>=', search.from.getTime()) as Q;
  if (search.to) bounded = bounded.where('bookings.booked_at', '<', search.to.getTime()) as Q;
  const after = search.after;
  if (after) {
    const at = after.bookedAt.getTime();
    bounded = bounded.where((eb) =>
      eb.or([
        eb('bookings.booked_at', '<', at),
        eb.and([
          eb('bookings.booked_at', '=', at),
          eb('bookings.tracking_number', '<', after.trackingNumber),
        ]),
      ]),
    ) as Q;
  }
  return bounded;
}

/** Within the search's days, from the page's start: newest first, a page's worth. */
function filtered(
  query: SelectQueryBuilder<Tables, 'bookings', Selectable<BookingsTable>>,
  search: BookingSearch,
) {
  return within(query, search)
    .orderBy('bookings.booked_at', 'desc')
    .orderBy('bookings.tracking_number', 'desc')
    .limit(search.limit);
}
