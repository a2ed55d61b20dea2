/** The columns of a bookings CSV file: each header, the booking field it fills, and the template file. */
import type { Catalog } from '../catalog.js';
import { labelOf } from '../catalog.js';
import { toCsv } from './write.js';

/**
 * One CSV row is one booking. Each column fills one field of the Booking schema's input (its path,
 * e.g. `consignee.phone`); dates and times are separate columns read in WAYBILL_TIMEZONE, as the
 * form's pickers are. Parcels (child waybills) have no columns: a file books whole shipments, their
 * number in `quantity`. `sender_profile` names a sender profile that fills the sender, its codes and
 * the return party; any sender or return column given on the row wins over it.
 */
export interface BookingColumn {
  header: string;
  /** Where the cell goes in the booking input; `pickupAt.date` and `pickupAt.time` make one instant. */
  path: string;
  /** What to write, for the docs and the template's comment row. */
  about: string;
  example: string;
}

export const PROFILE_COLUMN = 'sender_profile';

const column = (header: string, path: string, about: string, example?: string): BookingColumn => ({
  header,
  path,
  about,
  example: example ?? '',
});

function party(prefix: string, who: string, path: string, example: Record<string, string>): BookingColumn[] {
  const fields: [string, string][] = [
    ['name', 'name'],
    ['phone', 'phone that can be dialled (without a country code: in the party country)'],
    ['email', 'e-mail'],
    ['street', 'street address'],
    ['region', 'province / region'],
    ['city', 'city'],
    ['district', 'district'],
    ['barangay', 'barangay'],
    ['postal', 'postal code'],
    ['country', 'two-letter country code'],
    ['latitude', 'latitude'],
    ['longitude', 'longitude'],
  ];
  return fields.map(([field, about]) =>
    column(`${prefix}_${field}`, `${path}.${field}`, `${who} ${about}`, example[field]),
  );
}

/** Every column, in the template's order. */
export function bookingColumns(catalog: Catalog): BookingColumn[] {
  const values = (choices: Catalog['serviceTypes']) => choices.map((choice) => choice.value).join(' | ');
  const cod = catalog.codPaymentMethod;
  return [
    column('tracking_number', 'trackingNumber', 'empty: the next free number'),
    column('service_type', 'serviceType', values(catalog.serviceTypes), catalog.serviceTypes[0]?.value),
    column('payment_method', 'paymentMethod', values(catalog.paymentMethods), cod),
    column(
      'cod_amount',
      'codAmount',
      `only for ${labelOf(catalog.paymentMethods, cod)}, e.g. 1500.00`,
      '1500.00',
    ),
    column('declared_value', 'declaredValue', 'e.g. 2000.00', '2000.00'),
    column('quantity', 'quantity', 'number of parcels, empty: 1', '1'),
    column('pickup_date', 'pickupAt.date', 'YYYY-MM-DD, empty: today'),
    column('pickup_time', 'pickupAt.time', 'HH:MM, empty: the next full hour'),
    column('delivery_date', 'expectedDeliveryAt.date', 'expected delivery, YYYY-MM-DD, empty: tomorrow'),
    column('delivery_time', 'expectedDeliveryAt.time', 'expected delivery, HH:MM, empty: 17:00'),
    column('item_description', 'itemDescription', 'what is sent', 'Kitchen scales'),
    column('handling_instructions', 'handlingInstructions', 'e.g. Fragile', 'Fragile'),
    column('package_type', 'package.type', values(catalog.packageTypes), catalog.packageTypes.at(-1)?.value),
    column('package_weight', 'package.weight', 'kg', '4.5'),
    column('package_length', 'package.length', 'cm', '40'),
    column('package_width', 'package.width', 'cm', '30'),
    column('package_height', 'package.height', 'cm', '20'),
    column('package_volume', 'package.volume', 'cm³, empty: length × width × height'),
    column(
      'operator_contact_number',
      'operatorContactNumber',
      'phone of whoever the courier should call',
      '+63 917 555 0100',
    ),
    ...[1, 2, 3, 4, 5].map((n) =>
      column(
        `reference${n}`,
        `reference${n}`,
        `reference ${n}, e.g. an order number`,
        n === 1 ? 'PO-77' : '',
      ),
    ),
    ...party('receiver', 'Receiver', 'consignee', {
      name: 'Maria Santos',
      phone: '0917 123 4567',
      street: '88 Rizal Ave',
      city: 'Cebu City',
      postal: '6000',
      country: 'PH',
    }),
    column(
      PROFILE_COLUMN,
      PROFILE_COLUMN,
      'id of a sender profile: fills the sender and return columns left empty',
    ),
    column('shipper_code', 'shipperCode', "the sender's code with the courier"),
    column('merchant_name', 'merchantName', 'merchant'),
    column('warehouse_name', 'warehouseName', 'warehouse'),
    ...party('sender', 'Sender', 'shipper', {
      name: 'Acme Trading',
      phone: '+63 2 8123 4567',
      street: '12 Shaw Blvd',
      city: 'Pasig',
      country: 'PH',
    }),
    ...party('return', 'Return', 'returnTo', {}),
  ];
}

/** The template: every column's header and one example booking. */
export function templateCsv(catalog: Catalog): string {
  const columns = bookingColumns(catalog);
  return toCsv(
    columns.map((column) => column.header),
    [columns.map((column) => column.example)],
  );
}

/** A header as typed (`Receiver Name`, `receiver-name`) in the template's spelling. */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** A bookings file's header by its current name: `*_neighbourhood`, the barangay's first name, is still read. */
export function currentHeader(header: string): string {
  return normaliseHeader(header).replace(/_neighbourhood$/, '_barangay');
}
