/** A big audit trail for exports, written straight into a migrated store (SQLite or PostgreSQL): far faster than booking each line. */
import type { Insertable } from 'kysely';
import type { AuditTable } from '../src/store/schema.js';
import { type BulkWriter, type StoreTarget, writeRows } from './bulk-insert.js';

export interface AuditRows {
  count: number;
  /** The first line's time; the others follow at equal steps over `days`. */
  from: Date;
  days: number;
  /** The request as the courier got it, stored as the audit line's JSON. */
  request: (trackingNumber: string, i: number) => unknown;
  /** Default: every tenth line a quote (not exported), the others bookings. */
  operation?: (i: number) => string;
}

export const everyTenthAQuote = (i: number) => (i % 10 === 9 ? 'quote' : 'book');

/** `WB0000000`, `WB0000001`, …: line i's tracking number. */
export const auditTrackingNumber = (i: number) => `WB${String(i).padStart(7, '0')}`;

/** Line i's time: `count` lines at equal steps over `days` from `from`. */
export const auditLineAt = (rows: Pick<AuditRows, 'count' | 'from' | 'days'>, i: number) =>
  rows.from.getTime() + i * Math.floor((rows.days * 24 * 60 * 60 * 1000) / rows.count);

/** Lines written a batch at a time, so that a million of them are never all in memory. */
const BATCH = 5000;

/** Appends `count` audit lines to the store's open transaction. */
export async function insertAuditRows(writer: BulkWriter, rows: AuditRows): Promise<void> {
  const operation = rows.operation ?? everyTenthAQuote;
  for (let from = 0; from < rows.count; from += BATCH) {
    const batch: Insertable<AuditTable>[] = [];
    for (let i = from; i < Math.min(rows.count, from + BATCH); i++) {
      const trackingNumber = auditTrackingNumber(i);
      batch.push({
        at: auditLineAt(rows, i),
        user_id: 'UDISPATCH',
        operation: operation(i),
        tracking_number: trackingNumber,
        outcome: 'ok',
        request: JSON.stringify(rows.request(trackingNumber, i)),
        response: JSON.stringify({ trackingRefNo: `R${i}` }),
        detail: null,
      });
    }
    await writer.insert('audit', batch);
  }
}

/** Creates (or migrates) the store at `target` and appends `count` audit lines in one transaction. */
export async function seedAuditRows(target: StoreTarget, rows: AuditRows): Promise<void> {
  await writeRows(target, (writer) => insertAuditRows(writer, rows));
}
