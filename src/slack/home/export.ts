/** Exports: a date range of bookings and updates from the audit trail, as a CSV file in the person's DM. */
import type { AuditEntry } from '../../store/index.js';
import { exportCsv } from '../../waybill/csv/export.js';
import { instantFromZonedDateTime } from '../../waybill/dates.js';
import { isCalendarDate } from '../../waybill/fields.js';
import type { BotDeps } from '../deps.js';
import type { SlackClient } from '../shared/delivery.js';
import { uploadToUser } from '../shared/files.js';

/** A year and a day: a whole leap year, and never an unbounded read of the audit trail. */
export const MAX_EXPORT_DAYS = 366;
const PAGE = 1000;

export interface ExportRange {
  /** Calendar days, both included. */
  first: string;
  last: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** `2026-11-01..2026-11-30` or one day `2026-11-23`; otherwise what is wrong with it, in words. */
export function parseExportRange(text: string): ExportRange | { problem: string } {
  const [first = '', last = first, ...rest] = text
    .trim()
    .split('..')
    .map((part) => part.trim());
  const example = 'write the days like `/waybill export 2026-11-01..2026-11-30` (or one day: `2026-11-23`)';
  if (rest.length > 0 || !isCalendarDate(first) || !isCalendarDate(last))
    return { problem: `To export, ${example}.` };
  if (last < first) return { problem: `The last day (${last}) is before the first (${first}).` };
  const days = (Date.parse(last) - Date.parse(first)) / DAY_MS + 1;
  if (days > MAX_EXPORT_DAYS) {
    return { problem: `That is ${days} days; export at most ${MAX_EXPORT_DAYS} at once.` };
  }
  return { first, last };
}

/** Every booking and update in the range, oldest first, read page by page. */
async function entriesIn(deps: BotDeps, range: ExportRange): Promise<AuditEntry[]> {
  const { timeZone } = deps.waybill;
  const from = instantFromZonedDateTime(range.first, '00:00', timeZone);
  const to = instantFromZonedDateTime(dayAfter(range.last), '00:00', timeZone);
  const entries: AuditEntry[] = [];
  for (;;) {
    const page = await deps.store.audit.between({
      from,
      to,
      operations: ['book', 'update'],
      afterId: entries.at(-1)?.id,
      limit: PAGE,
    });
    entries.push(...page);
    if (page.length < PAGE) return entries;
  }
}

/** Builds the export and shares it with `userId` in their DM with the bot; says how many lines. */
export async function sendExport(
  deps: BotDeps,
  client: SlackClient,
  userId: string,
  range: ExportRange,
): Promise<void> {
  const entries = await entriesIn(deps, range);
  const days = range.first === range.last ? range.first : `${range.first} to ${range.last}`;
  await uploadToUser(client, userId, {
    filename: `waybills-${range.first}-to-${range.last}.csv`,
    title: `Bookings and updates, ${days}`,
    content: exportCsv(entries, deps.waybill.timeZone),
    comment: `Bookings and updates, ${days} (${deps.waybill.timeZone}): ${entries.length} line${entries.length === 1 ? '' : 's'}.`,
  });
}
