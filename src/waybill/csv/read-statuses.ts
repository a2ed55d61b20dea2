/**
 * The courier's own status export (a CSV from its portal): which column is which is chosen once by a
 * person and kept (not a setting: each portal names them its own way); each row read to a tracking
 * number, the courier's status words, when, and its remarks.
 */

import { instantFromZonedDateTime } from '../dates.js';
import { writtenTrackingNumber } from '../fields.js';
import { normaliseHeader } from './columns.js';
import { readCsvRecords } from './read-bookings.js';

/** Which header holds what; the date and the remarks may be absent from a file. */
export interface StatusColumns {
  trackingNumber: string;
  status: string;
  at?: string;
  remarks?: string;
}

export const STATUS_COLUMN_KEYS = ['trackingNumber', 'status', 'at', 'remarks'] as const;
export type StatusColumnKey = (typeof STATUS_COLUMN_KEYS)[number];

/** Headers portals commonly use for each column, normalised: the first found is the guess. */
const USUAL_HEADERS: Record<StatusColumnKey, readonly string[]> = {
  trackingNumber: [
    'tracking_number',
    'tracking_no',
    'tracking',
    'waybill_number',
    'waybill_no',
    'waybill',
    'awb',
  ],
  status: ['status', 'last_status', 'latest_status', 'delivery_status', 'event'],
  at: [
    'date',
    'status_date',
    'date_time',
    'datetime',
    'updated_at',
    'timestamp',
    'last_update',
    'status_date_time',
  ],
  remarks: ['remarks', 'reason', 'remark', 'notes', 'note', 'comment'],
};

/** The file's headers a guess of each column names, as the file writes them. */
export function guessStatusColumns(headers: readonly string[]): Partial<StatusColumns> {
  const names = headers.map(normaliseHeader);
  const guess: Partial<StatusColumns> = {};
  for (const key of STATUS_COLUMN_KEYS) {
    const found = USUAL_HEADERS[key].map((usual) => names.indexOf(usual)).find((index) => index >= 0);
    const header = found === undefined ? undefined : headers[found];
    if (header !== undefined) guess[key] = header;
  }
  return guess;
}

/** One row as read; `problem` says why it cannot be used. */
export interface StatusRow {
  /** Its row in the spreadsheet (the header is row 1). */
  line: number;
  trackingNumber: string;
  statusText: string;
  remarks: string;
  at?: Date;
  problem?: string;
}

/** The header row, as the file writes it, and the rows after it; or why the file cannot be read. */
export function readStatusFile(
  bytes: Uint8Array,
  maxBytes: number,
): { headers: string[]; body: string[][] } | { problem: string } {
  const records = readCsvRecords(bytes, maxBytes);
  if (!Array.isArray(records)) return records;
  const [header = [], ...body] = records;
  const headers = header.map((h) => h.trim());
  if (headers.filter(Boolean).length < 2) return { problem: 'The first row must name the columns' };
  return { headers, body };
}

/** `2026-11-20`, `2026-11-20 14:30`, `2026-11-20T14:30:00`, `11/20/2026 2:30 PM`, in the team's zone. */
export function readStatusDate(text: string, timeZone: string): Date | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::\d{2})?\s*([AaPp][Mm])?)?$/.exec(
    text,
  );
  let parts: [string, string, string, string, string] | undefined;
  if (iso) parts = [iso[1] ?? '', iso[2] ?? '', iso[3] ?? '', iso[4] ?? '0', iso[5] ?? '0'];
  if (us) {
    let hours = Number(us[4] ?? '0');
    const half = us[6]?.toLowerCase();
    if (half && (hours < 1 || hours > 12)) return undefined;
    if (half === 'pm' && hours < 12) hours += 12;
    if (half === 'am' && hours === 12) hours = 0;
    parts = [us[3] ?? '', us[1] ?? '', us[2] ?? '', String(hours), us[5] ?? '0'];
  }
  if (!parts) return undefined;
  const [year, month, day, hours, minutes] = parts.map(Number) as [number, number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || hours > 23 || minutes > 59)
    return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  return instantFromZonedDateTime(
    `${year}-${pad(month)}-${pad(day)}`,
    `${pad(hours)}:${pad(minutes)}`,
    timeZone,
  );
}

/** A cell's most characters kept: nothing a status export should hold is longer. */
const MAX_CELL = 300;
const MAX_TRACKING_NUMBER = 50;

/**
 * Each row with something in it, by the chosen columns: a row with no tracking number or status, a
 * date that is no date, or a control character in a cell has a problem, named by its header.
 */
export function readStatusRows(
  file: { headers: readonly string[]; body: readonly string[][] },
  columns: StatusColumns,
  timeZone: string,
): StatusRow[] {
  const indexOf = (header?: string) => (header === undefined ? -1 : file.headers.indexOf(header));
  const index = {
    trackingNumber: indexOf(columns.trackingNumber),
    status: indexOf(columns.status),
    at: indexOf(columns.at),
    remarks: indexOf(columns.remarks),
  };
  return file.body
    .map((cells, i) => ({ cells, line: i + 2 }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
    .map(({ cells, line }) => {
      const cell = (key: StatusColumnKey) => (index[key] < 0 ? '' : (cells[index[key]] ?? '').trim());
      const control = STATUS_COLUMN_KEYS.find((key) => /\p{Cc}/u.test(cell(key)));
      const shown = (key: StatusColumnKey) =>
        [...cell(key).replace(/\p{Cc}/gu, '\ufffd')].slice(0, MAX_CELL).join('');
      const row: StatusRow = {
        line,
        trackingNumber: writtenTrackingNumber(shown('trackingNumber')),
        statusText: shown('status'),
        remarks: shown('remarks'),
      };
      const problem = (text: string): StatusRow => ({ ...row, problem: text });
      if (control) return problem(`${columns[control]} has a control character`);
      if (row.trackingNumber === '') return problem(`no ${columns.trackingNumber}`);
      if (row.trackingNumber.length > MAX_TRACKING_NUMBER)
        return problem(`${columns.trackingNumber} is longer than ${MAX_TRACKING_NUMBER} characters`);
      if (row.statusText === '') return problem(`no ${columns.status}`);
      const dateText = cell('at');
      if (dateText === '') return row;
      const at = readStatusDate(dateText, timeZone);
      if (!at) return problem(`${columns.at} "${shown('at')}" is not a date such as 2026-11-20 14:30`);
      return { ...row, at };
    });
}
