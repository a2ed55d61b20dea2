/**
 * The courier's status export: rows read onto our statuses (waybill/csv/read-statuses.ts), then
 * which of them to record. No courier call.
 *
 * Rules:
 * - Two rows for one parcel: the latest by date wins (the later row on a tie, or with no dates);
 *   the other is listed, not recorded.
 * - A row conflicts, and is not recorded, when it says delivered but we recorded returned or
 *   cancelled later than its date, or when its date is older than our latest status.
 * - The columns a person chose are kept for the file's headers: the next file with the same
 *   headers is read without asking.
 */
import type { StatusEntry, Store } from '../store/index.js';
import type { StatusColumns } from '../waybill/csv/read-statuses.js';
import { statusLabel } from '../waybill/statuses.js';
import type { StatusChoice } from './status.js';

/** A row whose status was read. */
export interface ChosenRow {
  line: number;
  trackingNumber: string;
  choice: StatusChoice;
  at?: Date;
}

/** Each parcel's latest row, in file order, and the rows it supersedes (with the row that won). */
export function latestRows(rows: readonly ChosenRow[]): {
  latest: ChosenRow[];
  superseded: { row: ChosenRow; by: number }[];
} {
  const winner = new Map<string, ChosenRow>();
  for (const row of rows) {
    const before = winner.get(row.trackingNumber);
    if (!before || (row.at?.getTime() ?? 0) >= (before.at?.getTime() ?? 0))
      winner.set(row.trackingNumber, row);
  }
  const latest = rows.filter((row) => winner.get(row.trackingNumber) === row);
  const superseded = rows
    .filter((row) => winner.get(row.trackingNumber) !== row)
    .map((row) => ({ row, by: winner.get(row.trackingNumber)?.line ?? 0 }));
  return { latest, superseded };
}

const FINAL = new Set(['returned', 'cancelled']);

/** Why the row contradicts our latest status, if it does (the same status is not a conflict: nothing is written). */
export function conflictOf(row: ChosenRow, latest: StatusEntry | undefined): string | undefined {
  if (!latest) return undefined;
  const same = latest.status === row.choice.status && (latest.reason ?? '') === (row.choice.reason ?? '');
  if (same) return undefined;
  const ours = statusLabel(latest.status, latest.reason);
  const recordedLater = !row.at || row.at.getTime() < latest.at.getTime();
  if (row.choice.status === 'delivered' && FINAL.has(latest.status) && recordedLater)
    return `the file says delivered, but we recorded ${ours} later`;
  if (row.at && row.at.getTime() < latest.at.getTime())
    return `the file's date is older than our latest status (${ours})`;
  return undefined;
}

/** The key a file's headers are kept under: the same headers in the same order. */
const headersKey = (headers: readonly string[]) => JSON.stringify(headers);

/** The columns chosen before for a file with these headers, if every one is still among them. */
export async function keptColumns(
  deps: { store: Store },
  headers: readonly string[],
): Promise<StatusColumns | undefined> {
  const kept = await deps.store.statusColumns.get(headersKey(headers));
  if (!kept) return undefined;
  const named = [kept.trackingNumber, kept.status, kept.at, kept.remarks].filter((h) => h !== undefined);
  return named.every((header) => headers.includes(header)) ? kept : undefined;
}

/** Keeps the columns a person chose for files with these headers. */
export async function keepColumns(
  deps: { store: Store },
  input: { headers: readonly string[]; columns: StatusColumns; userId: string },
): Promise<void> {
  await deps.store.statusColumns.put({
    headers: headersKey(input.headers),
    columns: input.columns,
    userId: input.userId,
  });
}
