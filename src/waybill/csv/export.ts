/** The export file: bookings and updates from the audit trail, one line each, for invoicing. */
import { zonedDateAndTime } from '../dates.js';
import { isObject } from '../fields.js';
import { toCsv } from './write.js';

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
}

/** Each column and where its cell comes from: the entry, the request sent, or the courier's answer. */
const columns: [string, (entry: ExportEntry, request: Record<string, unknown>) => unknown][] = [
  ['operation', (e) => e.operation],
  ['outcome', (e) => e.outcome],
  ['tracking_number', (e, r) => e.trackingNumber ?? r.trackingNumber],
  ['courier_reference', (e) => (isObject(e.response) ? e.response.trackingRefNo : '')],
  ['by', (e) => e.userId],
  ['service_type', (_, r) => r.ServiceType],
  ['payment_method', (_, r) => r.paymentMethod],
  ['cod_amount', (_, r) => r.codAmount],
  ['declared_value', (_, r) => r.declaredValue],
  ['quantity', (_, r) => r.quantity],
  ['weight_kg', (_, r) => r.PackageWeight],
  ['pickup', (_, r) => r.pickupDate],
  ['expected_delivery', (_, r) => r.expectedDeliveryDate],
  ['receiver_name', (_, r) => r.consigneeName],
  ['receiver_city', (_, r) => r.consigneeAddress2],
  ['receiver_country', (_, r) => r.consigneeCountry],
  ['sender_name', (_, r) => r.shipperName],
  ['sender_city', (_, r) => r.shipperAddress2],
  ['merchant_name', (_, r) => r.merchantName],
  ['item_description', (_, r) => r.itemDescription],
  ['reference1', (_, r) => r.referenceNumber1],
  ['message', (e) => e.detail],
];

export const EXPORT_COLUMNS = ['at', ...columns.map(([header]) => header)];

/** The export: `at` in the waybill's time zone, the courier's date-times as sent (already in it). */
export function exportCsv(entries: readonly ExportEntry[], timeZone: string): string {
  return toCsv(
    EXPORT_COLUMNS,
    entries.map((entry) => {
      const request = isObject(entry.request) ? entry.request : {};
      const { date, time } = zonedDateAndTime(entry.at, timeZone);
      const cells = columns.map(([, cell]) => {
        const value = cell(entry, request);
        return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
      });
      return [`${date} ${time}`, ...cells];
    }),
  );
}
