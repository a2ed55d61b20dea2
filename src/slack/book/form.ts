import type { Catalog } from '../../waybill/catalog.js';
import { instantFromZonedDateTime } from '../../waybill/dates.js';
import { isCalendarDate } from '../../waybill/fields.js';
import { packageFields, paymentFields } from '../quote/blocks.js';
import { contactFields, placeFields } from '../shared/blocks.js';
import { type FormField, getPath } from '../shared/forms.js';

/**
 * The booking modal's steps. A booking has some sixty fields plus parcels, more than one modal
 * holds (100 blocks), so it is typed in steps; the draft on the server keeps every step's values.
 */

export const bookingSteps = ['shipment', 'receiver', 'sender', 'parcels', 'review'] as const;
export type BookingStep = (typeof bookingSteps)[number];

export const stepTitles: Record<BookingStep, string> = {
  shipment: 'Shipment',
  receiver: 'Receiver',
  sender: 'Sender and return',
  parcels: 'Parcels',
  review: 'Review',
};

/** A booking in progress, as stored between steps (and across restarts). */
export interface BookingDraft {
  /** What was typed, by schema path, as the form holds it (date and time pickers separately). */
  input: Record<string, unknown>;
  step: BookingStep;
  /** Parcel rows on the parcels step. */
  parcels: number;
  /** Bumped on every render, so Slack shows the draft's values rather than state it kept. */
  rev: number;
  /** Handed out when the dispatcher leaves the tracking number empty; kept for retries. */
  generatedTrackingNumber?: string;
  responseUrl?: string;
  /** Tracking number once booked, so the draft is never booked twice. */
  bookedTrackingNumber?: string;
}

export function parcelFields(index: number, catalog: Catalog): FormField[] {
  const label = (text: string) => `Parcel ${index + 1}: ${text}`;
  const path = (field: string) => `childWaybills.${index}.${field}`;
  return [
    {
      path: path('packageType'),
      label: label('package type'),
      kind: 'select',
      options: catalog.packageTypes,
    },
    { path: path('itemDescription'), label: label('description'), kind: 'text', maxLength: 200 },
    { path: path('remarks'), label: label('remarks'), kind: 'text', maxLength: 200 },
    { path: path('length'), label: label('length'), kind: 'decimal' },
    { path: path('width'), label: label('width'), kind: 'decimal' },
    { path: path('height'), label: label('height'), kind: 'decimal' },
    { path: path('weight'), label: label('weight'), kind: 'decimal' },
    { path: path('uom'), label: label('unit'), kind: 'select', options: catalog.units },
    { path: path('quantity'), label: label('quantity'), kind: 'integer' },
  ];
}

export function stepFields(step: BookingStep, catalog: Catalog, parcels: number): FormField[] {
  switch (step) {
    case 'shipment':
      return [
        {
          path: 'trackingNumber',
          label: 'Tracking number',
          kind: 'text',
          maxLength: 50,
          hint: 'Leave empty and the bot gives the next free number',
        },
        ...paymentFields(catalog).filter((field) => field.path !== 'quantity'),
        { path: 'pickupAt.date', label: 'Pickup date', kind: 'date' },
        { path: 'pickupAt.time', label: 'Pickup time', kind: 'time' },
        { path: 'expectedDeliveryAt.date', label: 'Expected delivery date', kind: 'date' },
        { path: 'expectedDeliveryAt.time', label: 'Expected delivery time', kind: 'time' },
        { path: 'itemDescription', label: 'Item description', kind: 'multiline', maxLength: 500 },
        { path: 'handlingInstructions', label: 'Handling instructions', kind: 'multiline', maxLength: 500 },
        ...packageFields(catalog),
        { path: 'operatorContactNumber', label: 'Operator contact number', kind: 'text', maxLength: 30 },
        ...[1, 2, 3, 4, 5].map(
          (n): FormField => ({ path: `reference${n}`, label: `Reference ${n}`, kind: 'text', maxLength: 50 }),
        ),
      ];
    case 'receiver':
      return [...contactFields('consignee'), ...placeFields('consignee')];
    case 'sender':
      return [
        { path: 'shipperCode', label: 'Shipper code', kind: 'text', maxLength: 50 },
        ...contactFields('shipper'),
        ...placeFields('shipper'),
        { path: 'merchantName', label: 'Merchant name', kind: 'text', maxLength: 100 },
        { path: 'warehouseName', label: 'Warehouse name', kind: 'text', maxLength: 100 },
        ...contactFields('returnTo'),
        ...placeFields('returnTo'),
      ];
    case 'parcels':
      return [
        {
          path: 'quantity',
          label: 'Number of parcels',
          kind: 'integer',
          hint: 'Leave empty to count the parcels below (1 when there are none)',
        },
        ...Array.from({ length: parcels }, (_, index) => parcelFields(index, catalog)).flat(),
      ];
    case 'review':
      return [];
  }
}

/** Every field of every step, e.g. to find which the schema requires. */
export function allBookingFields(catalog: Catalog, parcels: number): FormField[] {
  return bookingSteps.flatMap((step) => stepFields(step, catalog, parcels));
}

/** The step that shows a field (for errors met at review time). */
export function stepOfPath(path: string, catalog: Catalog, parcels: number): BookingStep {
  if (path.startsWith('childWaybills')) return 'parcels';
  return (
    bookingSteps.find((step) =>
      stepFields(step, catalog, parcels).some((f) => f.path === path || f.path.startsWith(`${path}.`)),
    ) ?? 'shipment'
  );
}

export function childTrackingNumber(parent: string, index: number): string {
  return `${parent}-${String(index + 1).padStart(2, '0')}`;
}

/**
 * A date picker's day and a time picker's time as one instant: in the zone Slack reports for the
 * picker (the dispatcher's own) when `zone` is 'reported', else in `timeZone`.
 */
function pickedInstant(picked: unknown, timeZone: string, zone: PickerZone): Date | string | undefined {
  const date = getPath(picked, 'date');
  const time = getPath(picked, 'time');
  const clock = typeof time === 'string' ? time : getPath(time, 'time');
  const reported = getPath(time, 'timeZone');
  if (typeof date !== 'string' || typeof clock !== 'string' || !date || !clock) return undefined;
  // Not from Slack's pickers: passed on as text the schema refuses ("must be a date and time").
  if (!isCalendarDate(date) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(clock)) return `${date} ${clock}`;
  const useReported = zone === 'reported' && typeof reported === 'string' && reported !== '';
  return instantFromZonedDateTime(date, clock, useReported ? reported : timeZone);
}

export type PickerZone = 'reported' | 'configured';

/**
 * Form values to the booking schema's input: date + time pickers become instants (in the
 * dispatcher's own zone, which Slack's time picker reports), an empty tracking number becomes the
 * generated one, and parcels are numbered from the parent (`WB000123-01`).
 */
export function toBookingInput(
  given: Record<string, unknown> | null | undefined,
  {
    trackingNumber,
    timeZone,
    parcels,
    pickerZone = 'reported',
  }: { trackingNumber: string; timeZone: string; parcels: number; pickerZone?: PickerZone },
): Record<string, unknown> {
  const input = typeof given === 'object' && given !== null ? given : {};
  const typed = typeof input.trackingNumber === 'string' ? input.trackingNumber.trim() : '';
  const parent = typed || trackingNumber;
  const rows = Array.isArray(input.childWaybills) ? input.childWaybills.slice(0, parcels) : [];
  return {
    ...input,
    trackingNumber: parent,
    pickupAt: pickedInstant(input.pickupAt, timeZone, pickerZone),
    expectedDeliveryAt: pickedInstant(input.expectedDeliveryAt, timeZone, pickerZone),
    childWaybills: rows.map((row, index) => ({
      ...(typeof row === 'object' && row !== null ? row : {}),
      trackingNumber: childTrackingNumber(parent, index),
    })),
  };
}

/** What typed values the next render should show: this step's state over the draft's values. */
export function mergeInput(
  draft: Record<string, unknown>,
  typed: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...draft };
  for (const [key, value] of Object.entries(typed)) {
    const before = merged[key];
    const bothObjects =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof before === 'object' &&
      before !== null;
    if (Array.isArray(value) && Array.isArray(before)) {
      merged[key] = Array.from({ length: Math.max(value.length, before.length) }, (_, i) =>
        value[i] === undefined
          ? before[i]
          : mergeInput((before[i] ?? {}) as Record<string, unknown>, value[i]),
      );
    } else {
      merged[key] = bothObjects
        ? mergeInput(before as Record<string, unknown>, value as Record<string, unknown>)
        : value;
    }
  }
  return merged;
}

/** Booking fields the Update body does not carry: they cannot be changed through an update. */
const bookingOnlyPaths = new Set(['trackingNumber', 'operatorContactNumber', 'shipperCode', 'warehouseName']);

export interface FieldGroup {
  title: string;
  fields: FormField[];
}

/**
 * The update form: every field the Update body carries, in one modal. Its times are read in
 * WAYBILL_TIMEZONE (and say so), because they are pre-filled from the record and must mean the
 * same instant whoever opens the form.
 */
export function updateGroups(catalog: Catalog, timeZone: string): FieldGroup[] {
  const editable = (fields: FormField[]) =>
    fields
      .filter((field) => !bookingOnlyPaths.has(field.path))
      .map((field) => (field.kind === 'time' ? { ...field, label: `${field.label} (${timeZone})` } : field));
  const sender = stepFields('sender', catalog, 0);
  return [
    {
      title: 'Shipment',
      fields: editable([...stepFields('shipment', catalog, 0), ...stepFields('parcels', catalog, 0)]),
    },
    { title: 'Receiver', fields: editable(stepFields('receiver', catalog, 0)) },
    { title: 'Sender', fields: editable(sender.filter((f) => !f.path.startsWith('returnTo.'))) },
    { title: 'Return to', fields: editable(sender.filter((f) => f.path.startsWith('returnTo.'))) },
  ];
}
