/** The courier's remittance (COD settlement) file: columns found by header, every amount read as decimal money. */
import { formatCents, MAX_MONEY_CENTS, type Money, parseCents, writtenTrackingNumber } from '../fields.js';
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
  /** Optional in the file: the fee the courier kept of the line, which wins over the fee settings. */
  fee: string;
}

export const DEFAULT_REMITTANCE_COLUMNS: RemittanceColumns = {
  trackingNumber: 'tracking_number',
  amount: 'amount',
  remittedAt: 'remitted_at',
  status: 'status',
  fee: 'fee',
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
  /** The fee the file states for the line, when it has a fee column and the cell is not empty. */
  statedFee?: Money;
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
  /** The configured currency: an amount in another one is a problem. */
  currency: string;
}

/** Signs and spellings people write for a currency besides its code (any case): the peso's. */
const CURRENCY_SIGNS: Record<string, readonly string[]> = { PHP: ['\u20b1', 'P'] };

/** An amount's currency prefix, if any (a code of up to three letters in any case, or a sign), and its number. */
const AMOUNT = /^([A-Za-z]{1,3}|\u20b1)?\s*(\S*)$/;

/**
 * An amount as a remittance file writes it (`1500`, `1,500.00`, `PHP 1,500.00`, `\u20b11,500`) in
 * canonical two-place text, or why it is not one: another currency than `currency` (its code, or
 * for the peso `\u20b1`, `P`), digits split by spaces, more than a booking may carry, or not an
 * amount ≥ 0 with at most two decimals.
 */
export function readRemittedAmount(text: string, currency: string): { amount: Money } | { problem: string } {
  const [, prefix = '', number = ''] = AMOUNT.exec(text.trim()) ?? [];
  if (!/^\d/.test(number)) return { problem: 'is not an amount such as 1,500.00' };
  const accepted = [currency, ...(CURRENCY_SIGNS[currency.toUpperCase()] ?? [])].map((c) => c.toUpperCase());
  if (prefix !== '' && !accepted.includes(prefix.toUpperCase())) {
    return { problem: `is not in ${currency}` };
  }
  const cents = parseCents(number);
  if (cents === undefined) return { problem: 'is not an amount such as 1,500.00' };
  if (cents > MAX_MONEY_CENTS)
    return { problem: `is more than ${formatCents(MAX_MONEY_CENTS)}, the most a booking may carry` };
  return { amount: formatCents(cents) };
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
  const fee = indexOf(columns.fee);
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
      fee: readCell(cells, fee),
    };
    const kept: RemittanceLine = {
      line,
      trackingNumber: writtenTrackingNumber(read.trackingNumber.text),
      amountText: read.amount.text,
      remittedAt: read.remittedAt.text,
      status: read.status.text,
    };
    const problem = cellProblem(read, columns);
    if (problem) return { ...kept, problem };
    if (kept.amountText === '') return { ...kept, problem: `No ${columns.amount} on the line` };
    const money = readRemittedAmount(kept.amountText, options.currency);
    if ('problem' in money)
      return { ...kept, problem: `${columns.amount} "${kept.amountText}" ${money.problem}` };
    const feeText = read.fee.text;
    const stated = feeText === '' ? undefined : readRemittedAmount(feeText, options.currency);
    if (stated && 'problem' in stated)
      return { ...kept, problem: `${columns.fee} "${feeText}" ${stated.problem}` };
    return { ...kept, amount: money.amount, ...(stated ? { statedFee: stated.amount } : {}) };
  });
  return { lines, problems: [] };
}

const COLUMN_KEYS = ['trackingNumber', 'amount', 'remittedAt', 'status', 'fee'] as const;

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
