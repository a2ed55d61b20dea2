/** Exports: a date range of bookings and updates from the audit trail, as a CSV file in the person's DM. */

import { setImmediate } from 'node:timers/promises';
import { scopeChannels } from '../../operations/access.js';
import { expectedOn } from '../../operations/remittance.js';
import type { AuditEntry, Store } from '../../store/index.js';
import { type ExportEntry, exportWriter } from '../../waybill/csv/export.js';
import { instantFromZonedDateTime } from '../../waybill/dates.js';
import { isCalendarDate } from '../../waybill/fields.js';
import { centsOf, netCents, remittedTotal, signedMoney } from '../../waybill/remittance.js';
import { bookingRemittances } from '../booking/index.js';
import type { Core } from '../core.js';
import { scopeOf } from '../guards/person.js';
import { uploadStreamToUser } from '../kit/files.js';
import type { SlackClient } from '../runtime/delivery.js';

/** A year and a day: a whole leap year, and never an unbounded read of the audit trail. */
export const MAX_EXPORT_DAYS = 366;
/** Lines read and written at a time: small enough that one page never holds other requests up for long. */
const PAGE = 250;

export interface ExportRange {
  /** Calendar days, both included. */
  first: string;
  last: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** `2026-11-01..2026-11-30` or one day `2026-11-23`; otherwise what is wrong with it, in words (for `/waybill <verb>`). */
export function parseExportRange(text: string, verb = 'export'): ExportRange | { problem: string } {
  const [first = '', last = first, ...rest] = text
    .trim()
    .split('..')
    .map((part) => part.trim());
  const example = `write the days like \`/waybill ${verb} 2026-11-01..2026-11-30\` (or one day: \`2026-11-23\`)`;
  if (rest.length > 0 || !isCalendarDate(first) || !isCalendarDate(last))
    return { problem: `To ${verb}, ${example}.` };
  if (last < first) return { problem: `The last day (${last}) is before the first (${first}).` };
  const days = (Date.parse(last) - Date.parse(first)) / DAY_MS + 1;
  if (days > MAX_EXPORT_DAYS) {
    return { problem: `That is ${days} days; ${verb} at most ${MAX_EXPORT_DAYS} at once.` };
  }
  return { first, last };
}

/**
 * Every booking and update in the range, oldest first, a page at a time: only one page is held,
 * and the requests that arrive meanwhile are read between pages (SQLite answers synchronously).
 */
async function* pagesIn(
  deps: Pick<Core, 'waybill'> & { store: Pick<Store, 'audit'> },
  range: ExportRange,
  channelIds: readonly string[] | undefined,
): AsyncGenerator<AuditEntry[]> {
  const { timeZone } = deps.waybill;
  const from = instantFromZonedDateTime(range.first, '00:00', timeZone);
  const to = instantFromZonedDateTime(dayAfter(range.last), '00:00', timeZone);
  let after: AuditEntry | undefined;
  for (;;) {
    const page = await deps.store.audit.between({
      from,
      to,
      operations: ['book', 'update'],
      channelIds,
      after,
      limit: PAGE,
    });
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    after = page.at(-1);
    await setImmediate();
  }
}

/** Each entry with what remittance files paid on its booking so far, and the difference from its net, as the cards show it. */
async function withRemittances(
  deps: Pick<Core, 'waybill' | 'bot'> & { store: Pick<Store, 'remittances' | 'statuses'> },
  entries: AuditEntry[],
): Promise<ExportEntry[]> {
  const numbers = entries.flatMap((e) => (e.trackingNumber ? [e.trackingNumber] : []));
  const [paid, expected] = await Promise.all([bookingRemittances(deps, numbers), expectedOn(deps, numbers)]);
  return entries.map((entry) => {
    const remittances = entry.trackingNumber ? paid.get(entry.trackingNumber) : undefined;
    const owed = entry.trackingNumber ? expected.get(entry.trackingNumber) : undefined;
    if (!remittances || !owed) return entry;
    const codRemitted = remittedTotal(remittances);
    return {
      ...entry,
      codRemitted,
      codDifference: signedMoney(centsOf(codRemitted) - netCents(owed)),
    };
  });
}

/**
 * Builds the export and shares it with `userId` in their DM with the bot; says how many lines.
 * Pages go to the CSV and on to the upload as they are read, so memory stays the same whatever the range.
 */
export async function sendExport(
  deps: Pick<Core, 'waybill' | 'access' | 'bot'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'>;
  },
  client: SlackClient,
  userId: string,
  range: ExportRange,
): Promise<void> {
  const writer = exportWriter(deps.waybill.timeZone);
  // Only the bookings of the conversations the person sees (the access rule).
  const channelIds = scopeChannels(await scopeOf(deps.access, client, userId));
  let lines = 0;
  async function* file() {
    yield writer.start;
    for await (const page of pagesIn(deps, range, channelIds)) {
      lines += page.length;
      // Each line carries its parcel's status, owner and receiver flag now, one query each per page.
      const numbers = page.flatMap((entry) => (entry.trackingNumber ? [entry.trackingNumber] : []));
      const statuses = await deps.store.statuses.latestOf(numbers);
      const owners = await deps.store.bookings.ownersOf(numbers);
      const checks = await deps.store.receivers.checksOf(numbers);
      yield writer.lines(
        (await withRemittances(deps, page)).map((entry) => {
          const status = entry.trackingNumber ? statuses.get(entry.trackingNumber) : undefined;
          const owner = entry.trackingNumber ? owners.get(entry.trackingNumber) : undefined;
          const receiverFlagged = entry.trackingNumber
            ? checks.get(entry.trackingNumber)?.flagged
            : undefined;
          return {
            ...entry,
            ...(status ? { status } : {}),
            ...(owner ? { owner } : {}),
            ...(receiverFlagged ? { receiverFlagged } : {}),
          };
        }),
      );
    }
  }
  const days = range.first === range.last ? range.first : `${range.first} to ${range.last}`;
  await uploadStreamToUser(client, userId, file(), () => ({
    filename: `waybills-${range.first}-to-${range.last}.csv`,
    title: `Bookings and updates, ${days}`,
    comment: `Bookings and updates, ${days} (${deps.waybill.timeZone}): ${lines} line${lines === 1 ? '' : 's'}.`,
  }));
}
