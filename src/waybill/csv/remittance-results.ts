/** The results file of a remittance: each line of the courier's file with what it was found to be. */
import { AGE_BUCKETS, bucketOf } from '../cod-ageing.js';
import type { ReconciledLine } from '../remittance.js';
import { toCsv } from './write.js';

export const REMITTANCE_RESULT_COLUMNS = [
  'line',
  'tracking_number',
  'amount',
  'gross',
  'fee',
  'net',
  'return_fee',
  'expected',
  'difference',
  'outcome',
  'remitted_at',
  'status',
  'message',
];

/** One row per line, in file order; an unreadable amount is written as the file had it. */
export function remittanceResultsCsv(lines: readonly ReconciledLine[]): string {
  return toCsv(
    REMITTANCE_RESULT_COLUMNS,
    lines.map((l) => [
      String(l.line),
      l.trackingNumber,
      l.amount ?? l.amountText,
      l.gross ?? '',
      l.fee ?? '',
      l.net ?? '',
      l.returnFee ?? '',
      l.expected ?? '',
      l.difference ?? '',
      l.outcome,
      l.remittedAt,
      l.status,
      l.message,
    ]),
    // A short payment's difference is negative: a number, not a formula.
    ['line', 'amount', 'gross', 'fee', 'net', 'return_fee', 'expected', 'difference'],
  );
}

/** A COD booking with money still due. */
export interface OutstandingBooking {
  trackingNumber: string;
  codAmount: string;
  /** What is still due: its net (COD less the fee) less what files paid of it. */
  outstanding: string;
  sender: string;
  receiver: string;
  /** The conversation it was booked in: who may see its receiver (the access rule). */
  channelId: string;
  bookedDate: string;
  /** The day it was delivered (else the day a file first paid on it), never after today, and the days since. */
  since: string;
  days: number;
}

/** The COD still outstanding, one booking a row: its COD amount, what of it is still due, and its age. */
export function outstandingCsv(bookings: readonly OutstandingBooking[]): string {
  return toCsv(
    [
      'tracking_number',
      'cod_amount',
      'outstanding',
      'sender_name',
      'receiver_name',
      'booked',
      'since',
      'days',
      'age',
    ],
    bookings.map((b) => [
      b.trackingNumber,
      b.codAmount,
      b.outstanding,
      b.sender,
      b.receiver,
      b.bookedDate,
      b.since,
      String(b.days),
      AGE_BUCKETS[bucketOf(b.days)]?.label ?? '',
    ]),
    ['cod_amount', 'outstanding', 'days'],
  );
}
