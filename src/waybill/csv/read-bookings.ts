/** A bookings CSV file to booking inputs, every row checked by the Booking schema, every problem at once. */
import { CsvError, parse } from 'csv-parse/sync';
import { toBookingInput } from '../booking-input.js';
import type { Catalog } from '../catalog.js';
import { isObject, writtenTrackingNumber } from '../fields.js';
import { applyProfile, type SenderProfile } from '../profiles.js';
import { type Booking, type Validation, validateToSend, type WaybillSchemas } from '../schemas.js';
import { type BookingColumn, bookingColumns, currentHeader, PROFILE_COLUMN } from './columns.js';
import { FORMULA_START } from './write.js';

/** One thing wrong, where a spreadsheet shows it: row 1 is the header; no row: the file as a whole. */
export interface CsvProblem {
  row?: number;
  /** The column's header as the file spells it. */
  column?: string;
  message: string;
  /** The receiver's name typed on its row, so a refused row is recognised at a glance. */
  receiver?: string;
}

/** A row ready to book. */
export interface CsvBooking {
  /** Its row in the spreadsheet (the header is row 1). */
  row: number;
  /** The tracking number typed on the row; '' when the bot is to give the next free one. */
  trackingNumber: string;
  /** The row as the booking's values (defaults, profile, then the row's own cells). */
  values: Record<string, unknown>;
}

export interface BookingCsv {
  /** Rows ready to book (none when the file itself is unusable). */
  ready: CsvBooking[];
  problems: CsvProblem[];
  /** Data rows in the file, blank ones left out. */
  rowCount: number;
}

export interface BookingCsvOptions {
  schema: WaybillSchemas['booking'];
  catalog: Catalog;
  timeZone: string;
  /** Now: a row's pickup may not be before today. */
  now: Date;
  /** Values an empty cell leaves in place (the form's defaults: pickup today, delivery tomorrow). */
  defaults: Record<string, unknown>;
  profiles: readonly SenderProfile[];
  maxRows: number;
  maxBytes: number;
}

/** Stands in for the number the bot hands out at booking time, so the rest of the row can be checked now. */
export const PENDING_TRACKING_NUMBER = 'PENDING';

/** The delimiter the header row uses more of, outside quotes: `;` where the decimal comma is usual. */
function detectDelimiter(text: string): ',' | ';' {
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    // Strips a UTF-8 BOM; `fatal` refuses bytes that are not UTF-8 rather than guessing.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function fileProblem(message: string): BookingCsv {
  return { ready: [], problems: [{ message }], rowCount: 0 };
}

/**
 * Spreadsheets write 9:05 for 09:05. A cell the bot's own files marked as text (`'+63 917…`, see
 * spreadsheetSafe) is read without the mark, so the template and results files read back as written.
 */
function cellValue(column: BookingColumn, cell: string): string {
  const trimmed = cell.trim();
  const value = trimmed.startsWith("'") && FORMULA_START.test(trimmed.slice(1)) ? trimmed.slice(1) : trimmed;
  return column.path.endsWith('.time') && /^\d:\d\d$/.test(value) ? `0${value}` : value;
}

function setValue(values: Record<string, unknown>, path: string, value: string): void {
  const [group, key] = path.split('.') as [string, string | undefined];
  if (key === undefined) {
    values[group] = value;
    return;
  }
  values[group] = { ...(isObject(values[group]) ? values[group] : {}), [key]: value };
}

/** Header cells to columns; unknown and repeated headers are problems on row 1. */
function readHeader(header: string[], columns: BookingColumn[]) {
  const byName = new Map(columns.map((column) => [column.header, column]));
  const used = new Map<string, number>();
  const problems: CsvProblem[] = [];
  const mapped = header.map((cell, index) => {
    const name = currentHeader(cell);
    const column = byName.get(name);
    if (name === '') return undefined;
    if (!column) {
      problems.push({
        row: 1,
        column: cell,
        message: `Unknown column "${cell}"; the template lists the columns`,
      });
      return undefined;
    }
    if (used.has(name)) {
      problems.push({ row: 1, column: cell, message: `Column "${cell}" appears twice` });
      return undefined;
    }
    used.set(name, index);
    return { column, header: cell };
  });
  return { mapped, problems };
}

/**
 * The header of the column a schema error belongs to: its own, or the first under it (`pickupAt`
 * is `pickup_date` and `pickup_time`); the template's name when the file lacks that column.
 */
function columnOf(path: string, columns: BookingColumn[], headers: Map<string, string>): string {
  const column = columns.find((c) => c.path === path) ?? columns.find((c) => c.path.startsWith(`${path}.`));
  if (!column) return '';
  return headers.get(column.path) ?? column.header;
}

/** A row's values as the Booking schema checks them, with `trackingNumber` given (or handed out). */
export function bookingOfRow(
  options: Pick<BookingCsvOptions, 'schema' | 'timeZone' | 'now'>,
  values: Record<string, unknown>,
  trackingNumber: string,
): Validation<Booking> {
  const input = toBookingInput(
    { ...values, trackingNumber },
    { trackingNumber, timeZone: options.timeZone, parcels: 0, pickerZone: 'configured' },
  );
  return validateToSend(options.schema, input, options);
}

/**
 * A CSV file's rows of cells: UTF-8 with or without a BOM, `,` or `;` between cells (whichever the
 * header uses), quoted cells with delimiters, quotes or line breaks inside; or, for a file too
 * large, not UTF-8 or not CSV, why in one line.
 */
export function readCsvRecords(bytes: Uint8Array, maxBytes: number): string[][] | { problem: string } {
  if (bytes.byteLength > maxBytes) {
    return { problem: `The file is ${megabytes(bytes.byteLength)}; at most ${megabytes(maxBytes)} at once` };
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return { problem: 'The file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"' };
  }
  try {
    return parse(text, { delimiter: detectDelimiter(text), relax_column_count: true });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const row = (err as CsvError & { records?: number }).records;
    return {
      problem: `Row ${(row ?? 0) + 1} cannot be read as CSV: ${err.message.replace(/^Invalid [^:]*: /, '')}`,
    };
  }
}

/**
 * Reads a bookings CSV: UTF-8 with or without a BOM, `,` or `;` between cells (whichever the
 * header uses), quoted cells with delimiters, quotes or line breaks inside. Columns are matched by
 * header, in any order, any may be left out. Every row is checked by the Booking schema; every
 * problem of every row is returned, each with its row and column. Blank rows are skipped.
 */
export function readBookingCsv(bytes: Uint8Array, options: BookingCsvOptions): BookingCsv {
  const records = readCsvRecords(bytes, options.maxBytes);
  if (!Array.isArray(records)) return fileProblem(records.problem);
  const [header, ...body] = records;
  if (!header || header.every((cell) => cell.trim() === '')) {
    return fileProblem('The file is empty: the first row must name the columns, as in the template');
  }
  const columns = bookingColumns(options.catalog);
  const { mapped, problems } = readHeader(header, columns);
  const rows = body
    .map((cells, index) => ({ cells, row: index + 2 }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  if (rows.length === 0) {
    return {
      ready: [],
      problems: [...problems, { message: 'The file has no bookings: only a header row' }],
      rowCount: 0,
    };
  }
  if (rows.length > options.maxRows) {
    return {
      ready: [],
      problems: [{ message: `The file has ${rows.length} bookings; at most ${options.maxRows} at once` }],
      rowCount: rows.length,
    };
  }
  const headers = new Map(mapped.flatMap((m) => (m ? [[m.column.path, m.header] as const] : [])));
  const profileHeader = headers.get(PROFILE_COLUMN) ?? PROFILE_COLUMN;
  const trackingHeader = headers.get('trackingNumber') ?? 'tracking_number';
  const firstRowOf = new Map<string, number>();
  const ready: CsvBooking[] = [];

  for (const { cells, row } of rows) {
    const rowProblems: CsvProblem[] = [];
    if (cells.length > header.length) {
      rowProblems.push({
        row,
        message: `The row has ${cells.length} cells but the header names ${header.length}`,
      });
    }
    const typed: [string, string][] = [];
    let profile: SenderProfile | undefined;
    mapped.forEach((m, index) => {
      const value = m ? cellValue(m.column, cells[index] ?? '') : '';
      if (!m || value === '') return;
      if (m.column.path !== PROFILE_COLUMN) {
        typed.push([m.column.path, value]);
        return;
      }
      profile = options.profiles.find((p) => p.id === value);
      if (!profile) {
        const known = options.profiles.map((p) => p.id).join(', ') || 'none are set up';
        rowProblems.push({
          row,
          column: profileHeader,
          message: `Unknown sender profile "${value}" (${known})`,
        });
      }
    });
    // The sender is an object even when no cell fills it, so each missing field is named.
    let values: Record<string, unknown> = { shipper: {}, ...structuredClone(options.defaults) };
    if (profile) values = applyProfile(values, profile);
    for (const [path, value] of typed) setValue(values, path, value);

    const trackingNumber =
      typeof values.trackingNumber === 'string' ? writtenTrackingNumber(values.trackingNumber) : '';
    const result = bookingOfRow(options, values, trackingNumber || PENDING_TRACKING_NUMBER);
    if (!result.ok) {
      for (const error of result.errors) {
        rowProblems.push({ row, column: columnOf(error.path, columns, headers), message: error.message });
      }
    }
    if (trackingNumber) {
      const first = firstRowOf.get(trackingNumber);
      if (first !== undefined) {
        rowProblems.push({
          row,
          column: trackingHeader,
          message: `Tracking number ${trackingNumber} is also on row ${first}`,
        });
      } else {
        firstRowOf.set(trackingNumber, row);
      }
    }
    const receiver = isObject(values.consignee) ? values.consignee.name : undefined;
    if (typeof receiver === 'string' && receiver !== '') {
      for (const problem of rowProblems) problem.receiver = receiver;
    }
    problems.push(...rowProblems);
    if (rowProblems.length === 0) ready.push({ row, trackingNumber, values });
  }
  return { ready, problems, rowCount: rows.length };
}

function megabytes(bytes: number): string {
  const [amount, unit] = bytes >= 100_000 ? [bytes / 1_000_000, 'MB'] : [bytes / 1000, 'kB'];
  return `${amount.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}
