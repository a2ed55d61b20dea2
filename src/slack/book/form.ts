/** The booking form: its steps, each step's fields, and which the Booking schema requires. */

import type { BookedVia } from '../../store/index.js';
import { parties } from '../../waybill/booking-fields.js';
import { toBookingInput } from '../../waybill/booking-input.js';
import type { Catalog } from '../../waybill/catalog.js';
import { courierFields } from '../../waybill/courier-fields.js';
import type { MessageReading } from '../../waybill/message-reader.js';
import type { WaybillSchemas } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { inputsOf, partInputs } from '../kit/fields.js';
import { type FormField, perSettings, requiredPaths } from '../kit/forms.js';

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

/** Where a booking was started from: said at the top of its steps, so the dispatcher checks it first. */
export type BookingOrigin =
  | { kind: 'rebook'; trackingNumber: string; codAmount?: string }
  | ({ kind: 'message'; text: string } & Pick<MessageReading, 'recognised' | 'notes'>);

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
  /** Who confirmed calling a flagged receiver at Confirm booking, for Try again (receiver-record.ts). */
  receiverConfirmedBy?: string;
  origin?: BookingOrigin;
  /** How it is booked when no person typed it (a workflow's step): kept when Resolve records it. */
  bookedVia?: BookedVia;
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

/** Each step's courier fields by their parts (booking-fields.ts); the parcels step has those shown with the parcels. */
export function stepFields(step: BookingStep, catalog: Catalog, parcels: number): FormField[] {
  switch (step) {
    case 'shipment':
      return partInputs(catalog, 'shipment', 'package');
    case 'receiver':
      return partInputs(catalog, 'receiver');
    case 'sender':
      return partInputs(catalog, 'sender', 'return');
    case 'parcels':
      return [
        ...courierFields.flatMap((field) => {
          const hint = field.form.withParcels;
          return hint === undefined ? [] : inputsOf(field, { catalog }).map((input) => ({ ...input, hint }));
        }),
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

/** A wire key in the words the form uses ("Receiver barangay" for `consigneeAddress4`); the key itself when no field has it. */
export function fieldName(wireKey: string, catalog: Catalog): string {
  const field = courierFields.find((f) => f.wire.book === wireKey);
  if (!field) return wireKey;
  const [input] = inputsOf(field, { catalog });
  const label = input?.label ?? wireKey;
  const party = parties.find((p) => p.key === field.party);
  return party ? `${party.who} ${label.toLowerCase()}` : label;
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

/** Which booking fields the Booking schema requires, with as many parcel rows as a booking may have. */
export const bookingFormSpec = perSettings(
  (schema: WaybillSchemas['booking'], catalog: Catalog, timeZone: string, parcels: number) => {
    const required = requiredPaths(schema, allBookingFields(catalog, parcels), (raw) =>
      toBookingInput(raw, { trackingNumber: 'GENERATED', timeZone, parcels }),
    );
    return { required };
  },
);

/** The booking form of this core's catalog, schema, time zone and parcel limit. */
export const bookingSpec = (
  core: Pick<Core, 'waybill' | 'schemas'> & { bot: Pick<Core['bot'], 'maxParcels'> },
) => bookingFormSpec(core.schemas.booking, core.waybill.catalog, core.waybill.timeZone, core.bot.maxParcels);
