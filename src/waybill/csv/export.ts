/** The export file: bookings and updates from the audit trail, one line each, for invoicing. */
import { zonedStamper } from '../dates.js';
import { isObject } from '../fields.js';
import { statusLabel } from '../statuses.js';
import { csvWriter } from './write.js';

/** One audit entry, as the store keeps it (request and response are the wire bodies). */
export interface ExportEntry {
  at: Date;
  userId: string;
  operation: string;
  outcome: string;
  trackingNumber?: string;
  request?: unknown;
  response?: unknown;
  detail?: string;
  /** What remittance files paid on its booking so far, and that less its COD amount (two-place text). */
  codRemitted?: string;
  codDifference?: string;
  /** The tracking number's latest status when exported, as a dispatcher recorded it. */
  status?: { status: string; reason?: string; at: Date; userId: string };
  /** Who owns its booking when exported. */
  owner?: string;
  /** Its receiver was flagged by the risk rule when it was booked. */
  receiverFlagged?: boolean;
}

/** Each column and where its cell comes from: the entry, the request sent, or the courier's answer. */
type Stamp = (instant: Date) => string;
const columns: [string, (entry: ExportEntry, request: Record<string, unknown>, stamp: Stamp) => unknown][] = [
  ['operation', (e) => e.operation],
  ['outcome', (e) => e.outcome],
  ['tracking_number', (e, r) => e.trackingNumber ?? r.trackingNumber],
  ['courier_reference', (e) => (isObject(e.response) ? e.response.trackingRefNo : '')],
  ['by', (e) => e.userId],
  ['service_type', (_, r) => r.ServiceType],
  ['payment_method', (_, r) => r.paymentMethod],
  ['cod_amount', (_, r) => r.codAmount],
  ['cod_remitted', (e) => e.codRemitted],
  ['cod_difference', (e) => e.codDifference],
  ['declared_value', (_, r) => r.declaredValue],
  ['quantity', (_, r) => r.quantity],
  ['weight_kg', (_, r) => r.PackageWeight],
  ['pickup', (_, r) => r.pickupDate],
  ['expected_delivery', (_, r) => r.expectedDeliveryDate],
  ['receiver_name', (_, r) => r.consigneeName],
  ['receiver_city', (_, r) => r.consigneeAddress2],
  ['receiver_barangay', (_, r) => r.consigneeAddress4],
  ['receiver_country', (_, r) => r.consigneeCountry],
  ['sender_name', (_, r) => r.shipperName],
  ['sender_city', (_, r) => r.shipperAddress2],
  ['merchant_name', (_, r) => r.merchantName],
  ['item_description', (_, r) => r.itemDescription],
  ['reference1', (_, r) => r.referenceNumber1],
  ['message', (e) => e.detail],
  ['status', (e) => (e.status ? statusLabel(e.status.status, e.status.reason) : '')],
  ['status_at', (e, _, stamp) => (e.status ? stamp(e.status.at) : '')],
  ['status_recorded_by', (e) => e.status?.userId],
  ['owner', (e) => e.owner],
  ['receiver_flagged', (e) => (e.receiverFlagged ? 'yes' : '')],
];

export const EXPORT_COLUMNS = ['at', ...columns.map(([header]) => header)];
/** Amounts, weights and counts: a spreadsheet sums them. */
const NUMBER_COLUMNS = [
  'cod_amount',
  'declared_value',
  'quantity',
  'weight_kg',
  'cod_remitted',
  'cod_difference',
];

/** One audit entry as a line of the export: `at` stamped in the waybill's time zone, the courier's date-times as sent (already in it). */
function exportLine(entry: ExportEntry, stamp: Stamp): string[] {
  const request = isObject(entry.request) ? entry.request : {};
  const cells = columns.map(([, cell]) => {
    const value = cell(entry, request, stamp);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  });
  return [stamp(entry.at), ...cells];
}

/** The export written piece by piece: `start`, then `lines` for each page of entries, so no range is held whole. */
export function exportWriter(timeZone: string) {
  const writer = csvWriter(EXPORT_COLUMNS, NUMBER_COLUMNS);
  const stamp = zonedStamper(timeZone);
  return {
    start: writer.start,
    lines: (entries: readonly ExportEntry[]) => writer.rows(entries.map((entry) => exportLine(entry, stamp))),
  };
}
