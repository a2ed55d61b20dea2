/** The courier's remittance (COD settlement) file: columns found by header, every amount read as decimal money. */
import { formatCents, type Money, parseCents } from '../fields.js';
import { normaliseHeader } from './columns.js';
import { type CsvProblem, readCsvRecords } from './read-bookings.js';

/** The headers the courier's file uses for each column (settings, because each courier's file differs). */
export interface RemittanceColumns {
  trackingNumber: string;
  amount: string;
  /** Optional in the file. */
  remittedAt: string;
  /** Optional in the file: what the courier says of the parcel (delivered, returned…), carried through. */
  status: string;
}

export const DEFAULT_REMITTANCE_COLUMNS: RemittanceColumns = {
  trackingNumber: 'tracking_number',
  amount: 'amount',
  remittedAt: 'remitted_at',
  status: 'status',
};

/** One line of the file as read; `amount` is absent when `problem` says why it could not be read. */
export interface RemittanceLine {
  /** Its row in the spreadsheet (the header is row 1). */
  line: number;
  trackingNumber: string;
  amount?: Money;
  /** The amount as the file wrote it. */
  amountText: string;
  remittedAt: string;
  status: string;
  problem?: string;
}

export interface RemittanceFile {
  lines: RemittanceLine[];
  /** The file as a whole could not be read (no lines then). */
  problems: CsvProblem[];
}

export interface RemittanceCsvOptions {
  columns: RemittanceColumns;
  maxLines: number;
  maxBytes: number;
}

/**
 * A currency before the amount: a three-letter code (PHP), the peso sign, or "P" / "Php" as
 * people write it. Spaces inside (a thousands separator some files use) are dropped.
 */
const CURRENCY_PREFIX = /^(?:[A-Za-z]{3}|P|\u20b1)\s*/;

/**
 * An amount as a remittance file writes it (`1500`, `1,500.00`, `PHP 1,500.00`, `\u20b11,500`) in
 * canonical two-place text; undefined when it is not an amount ≥ 0 with at most two decimals.
 */
export function readRemittedAmount(text: string): Money | undefined {
  const plain = text.trim().replace(CURRENCY_PREFIX, '').replace(/\s+/g, '');
  const cents = parseCents(plain);
  return cents === undefined ? undefined : formatCents(cents);
}

/** A tracking number's most characters, as the booking rules have it. */
const MAX_TRACKING_NUMBER = 50;
/** A cell's most characters kept: nothing the file should hold is longer, and the rest is cut. */
const MAX_CELL = 100;

/**
 * A cell as it is kept and shown: control characters (never typed on purpose, and a NUL no
 * PostgreSQL text can hold) shown as U+FFFD, cut at MAX_CELL characters; and what it was.
 */
function readCell(cells: string[], index: number) {
  const raw = index < 0 ? '' : (cells[index] ?? '').trim();
  const chars = [...raw.replace(/\p{Cc}/gu, '\ufffd')];
  return {
    text: chars.length > MAX_CELL ? `${chars.slice(0, MAX_CELL).join('')}\u2026` : chars.join(''),
    length: chars.length,
    control: /\p{Cc}/u.test(raw),
  };
}

function fileProblem(message: string): RemittanceFile {
  return { lines: [], problems: [{ message }] };
}

/**
 * Reads a remittance CSV: UTF-8 with or without a BOM, `,` or `;` between cells, columns found by
 * header in any order (other columns ignored). The tracking number and amount columns must be
 * there; an unreadable amount, a missing or overlong tracking number, or a control character in
 * any cell is a problem on that line only.
 */
export function readRemittanceCsv(bytes: Uint8Array, options: RemittanceCsvOptions): RemittanceFile {
  const records = readCsvRecords(bytes, options.maxBytes);
  if (!Array.isArray(records)) return fileProblem(records.problem);
  const [header = [], ...body] = records;
  const names = header.map(normaliseHeader);
  const indexOf = (name: string) => names.indexOf(normaliseHeader(name));
  const { columns } = options;
  const tracking = indexOf(columns.trackingNumber);
  const amount = indexOf(columns.amount);
  const missing = [
    ...(tracking < 0 ? [columns.trackingNumber] : []),
    ...(amount < 0 ? [columns.amount] : []),
  ];
  if (missing.length > 0) {
    return fileProblem(
      `The first row must name the columns; ${missing.map((name) => `"${name}"`).join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
    );
  }
  const remittedAt = indexOf(columns.remittedAt);
  const status = indexOf(columns.status);
  const rows = body
    .map((cells, index) => ({ cells, line: index + 2 }))
    .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
  if (rows.length === 0) return fileProblem('The file has no remittances: only a header row');
  if (rows.length > options.maxLines) {
    return fileProblem(`The file has ${rows.length} lines; at most ${options.maxLines} at once`);
  }
  const lines = rows.map(({ cells, line }): RemittanceLine => {
    const read = {
      trackingNumber: readCell(cells, tracking),
      amount: readCell(cells, amount),
      remittedAt: readCell(cells, remittedAt),
      status: readCell(cells, status),
    };
    const kept: RemittanceLine = {
      line,
      trackingNumber: read.trackingNumber.text,
      amountText: read.amount.text,
      remittedAt: read.remittedAt.text,
      status: read.status.text,
    };
    const problem = cellProblem(read, columns);
    if (problem) return { ...kept, problem };
    const money = readRemittedAmount(kept.amountText);
    if (money !== undefined) return { ...kept, amount: money };
    const written = kept.amountText;
    return {
      ...kept,
      problem: written
        ? `${columns.amount} "${written}" is not an amount such as 1,500.00`
        : `No ${columns.amount} on the line`,
    };
  });
  return { lines, problems: [] };
}

const COLUMN_KEYS = ['trackingNumber', 'amount', 'remittedAt', 'status'] as const;

/** What makes a line's cells unreadable, before its amount is read, named by the column's header. */
function cellProblem(
  read: Record<keyof RemittanceColumns, ReturnType<typeof readCell>>,
  columns: RemittanceColumns,
): string | undefined {
  const withControl = COLUMN_KEYS.find((key) => read[key].control);
  if (withControl) return `${columns[withControl]} has a control character (shown as \ufffd)`;
  const tracking = read.trackingNumber;
  if (tracking.text === '') return `No ${columns.trackingNumber} on the line`;
  if (tracking.length > MAX_TRACKING_NUMBER) {
    return `${columns.trackingNumber} is ${tracking.length} characters long; at most ${MAX_TRACKING_NUMBER}`;
  }
  return undefined;
}
