/**
 * The exact JSON of the courier's waybill interface (docs/courier-interface.md), key for key, as the
 * table of courier fields (booking-fields.ts) spells it, quirks included: `Packagevolume`,
 * `PackageWeight` (Booking, Update) vs `packageWeight` (Quotation), `handlingInstructions` (Booking)
 * vs `handlingInstruction` (Update).
 */
import type { Body } from './booking-fields.js';
import type { BodyWire } from './courier-fields.js';

export const endpointPaths = {
  quote: 'API/Waybill/WaybillQuote',
  book: 'API/Waybill/WaybillRequest',
  update: 'API/Waybill/WaybillUpdate',
} as const satisfies Record<Body, string>;

export type Operation = keyof typeof endpointPaths;

/** 2.2: the only numbers on the wire are a child waybill's measures and quantity. */
export type ChildWaybillWire = {
  trackingNumber: string;
  packageType: string;
  itemDescription: string;
  remarks: string;
  length: number;
  width: number;
  weight: number;
  height: number;
  uom: string;
  quantity: number;
};

/** Fields shared by Booking and Update (2.1 minus the Booking-only ones and the handling note, spelled apart). */
export type WaybillCoreWire = Pick<BodyWire<'book'>, keyof BodyWire<'book'> & keyof BodyWire<'update'>>;

/** 4.1 Booking request body. */
export type BookingRequestWire = BodyWire<'book'> & { childWaybills: ChildWaybillWire[] };

/** 4.2 Update request body. */
export type UpdateRequestWire = BodyWire<'update'>;

/** 4.3 Quotation request body: no names, contacts, e-mails, no returnPostal; dates are YYYY-MM-DD. */
export type QuotationRequestWire = BodyWire<'quote'>;
