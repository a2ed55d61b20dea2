/**
 * Receivers' records in a bookings file: the check step flags each COD row whose receiver the risk
 * rule flags, and counts them. A file has no checkbox per row, so a flagged row is not held back:
 * the dispatcher sees it before booking and takes it out of the file if the receiver does not
 * expect it.
 */

import { teamScope } from '../../operations/access.js';
import {
  needsConfirmation,
  type ReceiverRecord,
  receiverRecord,
  recordWords,
} from '../../operations/receiver-record.js';
import type { Store } from '../../store/index.js';
import type { CsvBooking } from '../../waybill/csv/read-bookings.js';
import { phoneKey } from '../../waybill/phones.js';
import type { Core } from '../core.js';
import { getPath } from '../kit/forms.js';

/** Flagged rows listed on the check step; the rest are counted. */
export const FLAGGED_LISTED = 10;

/** A COD row to a flagged receiver, as the check step lists it. */
export interface FlaggedRow {
  row: number;
  /** Counts and the rule's reasons: no typed text. */
  words: string;
}

type Deps = Pick<Core, 'waybill' | 'bot'> & { store: Pick<Store, 'receivers'> };

const text = (values: Record<string, unknown>, path: string) => {
  const value = getPath(values, path);
  return typeof value === 'string' ? value : '';
};

/** The COD rows whose receiver is flagged, in row order: one lookup per receiver of the file. */
export async function flaggedRows(deps: Deps, rows: readonly CsvBooking[]): Promise<FlaggedRow[]> {
  const records = new Map<string, Promise<ReceiverRecord | undefined>>();
  const flagged: FlaggedRow[] = [];
  for (const { row, values } of rows) {
    if (text(values, 'paymentMethod') !== deps.waybill.catalog.codPaymentMethod) continue;
    const receiver = { phone: text(values, 'consignee.phone'), country: text(values, 'consignee.country') };
    const key = phoneKey(receiver.phone, receiver.country);
    if (!key) continue;
    if (!records.has(key))
      records.set(
        key,
        receiverRecord(deps.store, deps.bot.receiverRisk, receiver, teamScope(deps.bot.access)),
      );
    const record = await records.get(key);
    if (record && needsConfirmation(record, true)) {
      flagged.push({ row, words: `${recordWords(record)} (${record.reasons.join('; ')})` });
    }
  }
  return flagged;
}

/** The check step's lines: how many rows go to flagged receivers, the first few by row. */
export function flaggedLines(flagged: readonly FlaggedRow[], count: number): string[] {
  if (count === 0) return [];
  const more = count > flagged.length ? [`…and ${count - flagged.length} more.`] : [];
  return [
    `:warning: *${count} COD ${count === 1 ? 'row goes' : 'rows go'} to flagged receivers*: booked with the rest unless you take ${count === 1 ? 'it' : 'them'} out of the file. Call them first.`,
    ...flagged.map((f) => `• Row ${f.row}: ${f.words}`),
    ...more,
  ];
}
