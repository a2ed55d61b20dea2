/** Domain orders to the courier's wire bodies (Quotation, Booking, Update), spelled as the interface does. */
import { toWireDateTime } from './dates.js';
import type {
  Booking,
  ChildWaybill,
  PackageDetails,
  Party,
  Place,
  QuoteRequest,
  WaybillUpdate,
} from './schemas.js';
import type {
  BookingRequestWire,
  ChildWaybillWire,
  PartyWire,
  PlaceWire,
  QuotationRequestWire,
  UpdateRequestWire,
  WaybillCoreWire,
} from './wire-types.js';

/**
 * Domain objects to the interface's exact JSON, with its keys spelled as it spells them. Every
 * value is a string (absent optional values are sent as "") except a child waybill's measures and
 * quantity.
 */

/** Decimal text without exponent notation (String(1e-7) would be "1e-7"). */
export function decimalText(value: number | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(12).replace(/\.?0+$/, '') : text;
}

/** The given volume, else length × width × height (cm³) when all three are known. */
export function packageVolume(pkg: PackageDetails): number | undefined {
  if (pkg.volume !== undefined) return pkg.volume;
  if (pkg.length === undefined || pkg.width === undefined || pkg.height === undefined) return undefined;
  return Math.round(pkg.length * pkg.width * pkg.height * 1000) / 1000;
}

/** Address1..Address4 run from the broadest component to the most specific. */
function placeWire<P extends string>(prefix: P, place: Omit<Place, 'postal'>): PlaceWire<P> {
  return {
    [`${prefix}Address`]: place.street,
    [`${prefix}Country`]: place.country,
    [`${prefix}Address1`]: place.region,
    [`${prefix}Address2`]: place.city,
    [`${prefix}Address3`]: place.district,
    [`${prefix}Address4`]: place.barangay,
    [`${prefix}Longitude`]: decimalText(place.longitude),
    [`${prefix}Latitude`]: decimalText(place.latitude),
  } as PlaceWire<P>;
}

/** Postal, name, contact and e-mail on top of the place (the Quotation has only `…Postal` of these). */
function postalWire<P extends string>(prefix: P, postal: string) {
  return { [`${prefix}Postal`]: postal } as Record<`${P}Postal`, string>;
}

function partyWire<P extends 'shipper' | 'consignee' | 'return'>(prefix: P, party: Party): PartyWire<P> {
  // TypeScript cannot join generic template-key records; the callers' concrete types are checked.
  return {
    ...placeWire(prefix, party),
    ...postalWire(prefix, party.postal),
    ...({
      [`${prefix}Name`]: party.name,
      [`${prefix}Contact`]: party.phone,
      [`${prefix}Email`]: party.email,
    } as Record<`${P}${'Name' | 'Contact' | 'Email'}`, string>),
  } as PartyWire<P>;
}

function packageDimensionsWire(pkg: PackageDetails) {
  return {
    packageType: pkg.type,
    packageLength: decimalText(pkg.length),
    packageWidth: decimalText(pkg.width),
    packageHeight: decimalText(pkg.height),
  };
}

type CoreHead = Pick<WaybillCoreWire, 'ServiceType' | 'trackingNumber'>;

function headWire(order: WaybillUpdate | Booking): CoreHead {
  return { ServiceType: order.serviceType, trackingNumber: order.trackingNumber };
}

/** The part of Booking and Update between the tracking number and the package. */
function waybillBodyWire(order: WaybillUpdate | Booking, timeZone: string) {
  return {
    referenceNumber1: order.reference1,
    referenceNumber2: order.reference2,
    referenceNumber3: order.reference3,
    referenceNumber4: order.reference4,
    referenceNumber5: order.reference5,
    pickupDate: toWireDateTime(order.pickupAt, timeZone),
    expectedDeliveryDate: toWireDateTime(order.expectedDeliveryAt, timeZone),
    paymentMethod: order.paymentMethod,
    codAmount: order.codAmount,
    declaredValue: order.declaredValue,
    quantity: String(order.quantity),
  };
}

function partiesWire(order: WaybillUpdate | Booking) {
  return {
    ...partyWire('shipper', order.shipper),
    ...partyWire('consignee', order.consignee),
    ...partyWire('return', order.returnTo),
  };
}

function packageWire(pkg: PackageDetails) {
  return {
    ...packageDimensionsWire(pkg),
    Packagevolume: decimalText(packageVolume(pkg)),
    PackageWeight: decimalText(pkg.weight),
  };
}

function childWaybillWire(child: ChildWaybill): ChildWaybillWire {
  return {
    trackingNumber: child.trackingNumber,
    packageType: child.packageType,
    itemDescription: child.itemDescription,
    remarks: child.remarks,
    length: child.length,
    width: child.width,
    weight: child.weight,
    height: child.height,
    uom: child.uom,
    quantity: child.quantity,
  };
}

export function toBookingWire(booking: Booking, timeZone: string): BookingRequestWire {
  return {
    OperatorContactNumber: booking.operatorContactNumber,
    ...headWire(booking),
    ...waybillBodyWire(booking, timeZone),
    shipperCode: booking.shipperCode,
    ...partiesWire(booking),
    itemDescription: booking.itemDescription,
    handlingInstructions: booking.handlingInstructions,
    merchantName: booking.merchantName,
    ...packageWire(booking.package),
    warehouseName: booking.warehouseName,
    childWaybills: booking.childWaybills.map(childWaybillWire),
  };
}

export function toUpdateWire(update: WaybillUpdate, timeZone: string): UpdateRequestWire {
  return {
    ...headWire(update),
    ...waybillBodyWire(update, timeZone),
    ...partiesWire(update),
    itemDescription: update.itemDescription,
    handlingInstruction: update.handlingInstructions,
    merchantName: update.merchantName,
    ...packageWire(update.package),
  };
}

export function toQuotationWire(quote: QuoteRequest): QuotationRequestWire {
  return {
    ServiceType: quote.serviceType,
    pickupDate: quote.pickupDate,
    expectedDeliveryDate: quote.expectedDeliveryDate,
    paymentMethod: quote.paymentMethod,
    codAmount: quote.codAmount,
    declaredValue: quote.declaredValue,
    quantity: String(quote.quantity),
    ...placeWire('shipper', quote.shipper),
    ...postalWire('shipper', quote.shipper.postal),
    ...placeWire('consignee', quote.consignee),
    ...postalWire('consignee', quote.consignee.postal),
    ...placeWire('return', quote.returnTo),
    merchantName: quote.merchantName,
    ...packageDimensionsWire(quote.package),
    packageWeight: decimalText(quote.package.weight),
    Packagevolume: decimalText(packageVolume(quote.package)),
  };
}
