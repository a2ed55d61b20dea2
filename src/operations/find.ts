/** Finding bookings: `/waybill find`'s words and filters read, and one page of what matches. */
import { type BookingRecord, type BookingSearch, type Store, wordsOf } from '../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter } from '../waybill/dates.js';
import { PARCEL_STATUSES, STATUS_WORDS } from '../waybill/statuses.js';

/** Results a page: ten lines with their buttons stay far below a message's 50 blocks. */
export const FIND_PAGE = 10;

/** What a find looks for, as read from the words typed; where and from which booking on is the caller's. */
export type FindQuery = Omit<BookingSearch, 'channelIds' | 'after' | 'limit'>;

export type FindReading = { ok: true; query: FindQuery } | { ok: false; problem: string };

/** `booked` (no status recorded yet) and each recorded status, by the words dispatchers type for it. */
const STATUS_NAMES: readonly (readonly [string, readonly string[]])[] = [
  ['booked', ['booked']],
  ...Object.entries(STATUS_WORDS).map(
    ([status, words]) =>
      [status, [status, PARCEL_STATUSES[status as keyof typeof PARCEL_STATUSES], ...words]] as const,
  ),
];

const squash = (word: string) => word.toLowerCase().replace(/[\s_-]+/g, '');

/** The statuses a word names: whole, else begun (`fail`, `in-transit`, `rts`). */
function statusesNamed(word: string): string[] {
  const typed = squash(word);
  const named = (exact: boolean) =>
    STATUS_NAMES.filter(([, words]) =>
      words.some((w) => (exact ? squash(w) === typed : squash(w).startsWith(typed))),
    ).map(([status]) => status);
  return typed ? (named(true).length ? named(true) : named(false)) : [];
}

/** A person by Slack's mention (`<@U123|maria>`), their id, or `me`. */
function personNamed(value: string, userId: string): string | undefined {
  if (value.toLowerCase() === 'me') return userId;
  return /^<?@?([UW][A-Z0-9]{2,})(\|[^>]*)?>?$/.exec(value)?.[1];
}

/** The start of a YYYY-MM-DD day in the zone, or of the day after it; undefined for no such date. */
function dayStart(date: string, timeZone: string, after: boolean): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  const start = instantFromZonedDateTime(date, '00:00', timeZone);
  return after ? instantFromZonedDateTime(zonedDateAfter(start, 1, timeZone), '00:00', timeZone) : start;
}

/**
 * `/waybill find`'s words: `status:`, `from:`, `to:` and `owner:` filters, `cod` or `prepaid`, and the
 * words to find; a filter that cannot be read is named in the problem.
 */
export function readFindQuery(
  text: string,
  { userId, timeZone }: { userId: string; timeZone: string },
): FindReading {
  const words: string[] = [];
  const query: FindQuery = { text: '' };
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const filter = /^(status|from|to|owner):(.*)$/i.exec(token);
    const lower = token.toLowerCase();
    if (lower === 'cod' || lower === 'prepaid') {
      query.payment = lower;
      continue;
    }
    if (!filter) {
      words.push(token);
      continue;
    }
    const [, name = '', value = ''] = filter;
    const key = name.toLowerCase();
    if (key === 'status') {
      const statuses = statusesNamed(value);
      if (!statuses.length)
        return {
          ok: false,
          problem: `\`status:\` needs one of: ${STATUS_NAMES.map(([status]) => status).join(', ')}.`,
        };
      query.statuses = statuses;
    } else if (key === 'owner') {
      const owner = personNamed(value, userId);
      if (!owner)
        return {
          ok: false,
          problem: "`owner:` needs `me` or a person's member ID, such as `owner:U0123ABCD`.",
        };
      query.owner = owner;
    } else {
      const at = dayStart(value, timeZone, key === 'to');
      if (!at)
        return { ok: false, problem: `\`${key}:\` needs a date as YYYY-MM-DD, such as ${key}:2026-11-01.` };
      if (key === 'to') query.to = at;
      else query.from = at;
    }
  }
  query.text = words.join(' ');
  // Words of symbols alone (`%`, `.*`, an emoji) match nothing: without a filter they would list every booking.
  const filtered = query.statuses || query.owner || query.from || query.to || query.payment;
  if (!filtered && wordsOf(query.text).length === 0)
    return { ok: false, problem: 'Nothing to search for: write letters or digits, or a filter.' };
  if (query.from && query.to && query.from >= query.to)
    return { ok: false, problem: '`from:` must be on or before `to:`.' };
  return { ok: true, query };
}

/** One page of bookings matching `query`, newest first, after the booking that ended the last page. */
export async function findPage<T>(
  store: Pick<Store, 'bookings'>,
  query: FindQuery,
  where: Pick<BookingSearch, 'channelIds' | 'after'>,
): Promise<{ bookings: BookingRecord<T>[]; more: boolean }> {
  const found = await store.bookings.find<T>({ ...query, ...where, limit: FIND_PAGE + 1 });
  return { bookings: found.slice(0, FIND_PAGE), more: found.length > FIND_PAGE };
}
