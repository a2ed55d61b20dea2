/** The results file of a bulk booking: each row's tracking number, courier reference, outcome and message. */
import { toCsv } from './write.js';

/**
 * What became of one row: booked now; booked by an earlier run of the same file (never twice);
 * refused by the courier (nothing booked, a later run may try again); outcome unknown (the courier
 * may have it: never sent again); not sent because the row has problems.
 */
export type RowOutcome = 'booked' | 'already booked' | 'failed' | 'unknown' | 'not valid';

export interface RowResult {
  row: number;
  /** Who it is for, so a row is recognised at a glance ('' when the row could not be read). */
  receiver: string;
  trackingNumber: string;
  courierReference: string;
  outcome: RowOutcome;
  message: string;
}

export const RESULT_COLUMNS = [
  'row',
  'receiver_name',
  'tracking_number',
  'courier_reference',
  'outcome',
  'message',
];

export function resultsCsv(results: readonly RowResult[]): string {
  return toCsv(
    RESULT_COLUMNS,
    [...results]
      .sort((a, b) => a.row - b.row)
      .map((r) => [String(r.row), r.receiver, r.trackingNumber, r.courierReference, r.outcome, r.message]),
    ['row'],
  );
}
