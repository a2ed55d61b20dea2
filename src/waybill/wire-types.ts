/**
 * The exact JSON of the courier's waybill interface (docs/courier-interface.md), key for key.
 * Its spelling quirks are deliberate: `Packagevolume`, `PackageWeight` (Booking, Update) vs
 * `packageWeight` (Quotation), `handlingInstructions` (Booking) vs `handlingInstruction` (Update).
 */

export const endpointPaths = {
  quote: 'API/Waybill/WaybillQuote',
  book: 'API/Waybill/WaybillRequest',
  update: 'API/Waybill/WaybillUpdate',
} as const;

export type Operation = keyof typeof endpointPaths;

export type PartyWire<P extends string> = {
  [K in
    | 'Name'
    | 'Address'
    | 'Country'
    | 'Address1'
    | 'Address2'
    | 'Address3'
    | 'Address4'
    | 'Postal'
    | 'Contact'
    | 'Email'
    | 'Longitude'
    | 'Latitude' as `${P}${K}`]: string;
};

/** Fields shared by Booking and Update (2.1 minus the Booking-only ones and the handling note). */
export type WaybillCoreWire = {
  ServiceType: string;
  trackingNumber: string;
  referenceNumber1: string;
  referenceNumber2: string;
  referenceNumber3: string;
  referenceNumber4: string;
  referenceNumber5: string;
  pickupDate: string;
  expectedDeliveryDate: string;
  paymentMethod: string;
  codAmount: string;
  declaredValue: string;
  quantity: string;
  itemDescription: string;
  merchantName: string;
  packageType: string;
  packageLength: string;
  packageWidth: string;
  packageHeight: string;
  Packagevolume: string;
  PackageWeight: string;
} & PartyWire<'shipper'> &
  PartyWire<'consignee'> &
  PartyWire<'return'>;

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

/** 4.1 Booking request body. */
export type BookingRequestWire = WaybillCoreWire & {
  OperatorContactNumber: string;
  shipperCode: string;
  handlingInstructions: string;
  warehouseName: string;
  childWaybills: ChildWaybillWire[];
};

/** 4.2 Update request body. */
export type UpdateRequestWire = WaybillCoreWire & {
  handlingInstruction: string;
};

type PlaceKeys =
  | 'Country'
  | 'Address'
  | 'Address1'
  | 'Address2'
  | 'Address3'
  | 'Address4'
  | 'Longitude'
  | 'Latitude';

/** A place without name, contact, e-mail or postal code, as the Quotation sends it. */
export type PlaceWire<P extends string> = { [K in PlaceKeys as `${P}${K}`]: string };

/** 4.3 Quotation request body: no names, contacts, e-mails, no returnPostal; dates are YYYY-MM-DD. */
export type QuotationRequestWire = {
  ServiceType: string;
  pickupDate: string;
  expectedDeliveryDate: string;
  paymentMethod: string;
  codAmount: string;
  declaredValue: string;
  quantity: string;
  shipperPostal: string;
  consigneePostal: string;
  merchantName: string;
  packageType: string;
  packageLength: string;
  packageWidth: string;
  packageHeight: string;
  packageWeight: string;
  Packagevolume: string;
} & PlaceWire<'shipper'> &
  PlaceWire<'consignee'> &
  PlaceWire<'return'>;
