/** Domain orders to the courier's wire bodies (Quotation, Booking, Update), spelled as the interface does. */
import type { Body } from './booking-fields.js';
import { type BodyWire, bodyFields, type CourierField } from './courier-fields.js';
import { toWireDateTime } from './dates.js';
import { getPath } from './fields.js';
import type { Booking, ChildWaybill, PackageDetails, QuoteRequest, WaybillUpdate } from './schemas.js';
import type {
  BookingRequestWire,
  ChildWaybillWire,
  QuotationRequestWire,
  UpdateRequestWire,
} from './wire-types.js';

/**
 * Domain objects to the interface's exact JSON, with its keys spelled as it spells them and in its
 * order, each field as the table of courier fields (booking-fields.ts) says. Every value is a string
 * (absent optional values are sent as "") except a child waybill's measures and quantity.
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

/** A field's value as the body writes it: by its kind (booking-fields.ts), the volume computed when not typed. */
function wireValue(field: CourierField, body: Body, order: object, timeZone: string): string {
  const path = body === 'quote' ? (field.quotePath ?? field.path) : field.path;
  if (path === 'package.volume')
    return decimalText(packageVolume((order as { package: PackageDetails }).package));
  const value = getPath(order, path);
  switch (field.kind) {
    case 'measure':
    case 'coordinate':
      return decimalText(value as number | undefined);
    case 'count':
      return String(value);
    case 'date':
      return body === 'quote' ? (value as string) : toWireDateTime(value as Date, timeZone);
    default:
      return value as string;
  }
}

/** A body's fields, keyed as the courier spells them, in its order. */
function bodyWire(body: Body, order: object, timeZone: string): Record<string, unknown> {
  return Object.fromEntries(
    bodyFields(body).map(({ field, key }) => [key, wireValue(field, body, order, timeZone)]),
  );
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
    ...(bodyWire('book', booking, timeZone) as BodyWire<'book'>),
    childWaybills: booking.childWaybills.map(childWaybillWire),
  };
}

export function toUpdateWire(update: WaybillUpdate, timeZone: string): UpdateRequestWire {
  return bodyWire('update', update, timeZone) as UpdateRequestWire;
}

/** A Quotation's dates are calendar dates already: no time zone to write them in. */
export function toQuotationWire(quote: QuoteRequest): QuotationRequestWire {
  return bodyWire('quote', quote, 'UTC') as QuotationRequestWire;
}
