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

function party(prefix: string, who: string, path: string, example: Record<string, string>): BookingColumn[] {
  const fields: [string, string][] = [
    ['name', 'name'],
    ['phone', 'phone, 7 to 20 digits'],
    ['email', 'e-mail'],
    ['street', 'street address'],
    ['region', 'province / region'],
    ['city', 'city'],
    ['district', 'district'],
    ['neighbourhood', 'neighbourhood'],
    ['postal', 'postal code'],
    ['country', 'two-letter country code'],
    ['latitude', 'latitude'],
    ['longitude', 'longitude'],
  ];
  return fields.map(([field, about]) => ({
    header: `${prefix}_${field}`,
    path: `${path}.${field}`,
    about: `${who} ${about}`,
    example: example[field] ?? '',
  }));
}

/** Every column, in the template's order. */
export function bookingColumns(catalog: Catalog): BookingColumn[] {
  const values = (choices: Catalog['serviceTypes']) => choices.map((choice) => choice.value).join(' | ');
  const cod = catalog.codPaymentMethod;
  return [
    {
      header: 'tracking_number',
      path: 'trackingNumber',
      about: 'empty: the next free number',
      example: '',
    },
    {
      header: 'service_type',
      path: 'serviceType',
      about: values(catalog.serviceTypes),
      example: catalog.serviceTypes[0]?.value ?? '',
    },
    {
      header: 'payment_method',
      path: 'paymentMethod',
      about: values(catalog.paymentMethods),
      example: cod,
    },
    {
      header: 'cod_amount',
      path: 'codAmount',
      about: `only for ${labelOf(catalog.paymentMethods, cod)}, e.g. 1500.00`,
      example: '1500.00',
    },
    { header: 'declared_value', path: 'declaredValue', about: 'e.g. 2000.00', example: '2000.00' },
    { header: 'quantity', path: 'quantity', about: 'number of parcels, empty: 1', example: '1' },
    { header: 'pickup_date', path: 'pickupAt.date', about: 'YYYY-MM-DD, empty: today', example: '' },
    { header: 'pickup_time', path: 'pickupAt.time', about: 'HH:MM, empty: the next full hour', example: '' },
    {
      header: 'delivery_date',
      path: 'expectedDeliveryAt.date',
      about: 'expected delivery, YYYY-MM-DD, empty: tomorrow',
      example: '',
    },
    {
      header: 'delivery_time',
      path: 'expectedDeliveryAt.time',
      about: 'expected delivery, HH:MM, empty: 17:00',
      example: '',
    },
    { header: 'item_description', path: 'itemDescription', about: 'what is sent', example: 'Kitchen scales' },
    {
      header: 'handling_instructions',
      path: 'handlingInstructions',
      about: 'e.g. Fragile',
      example: 'Fragile',
    },
    {
      header: 'package_type',
      path: 'package.type',
      about: values(catalog.packageTypes),
      example: catalog.packageTypes.at(-1)?.value ?? '',
    },
    { header: 'package_weight', path: 'package.weight', about: 'kg', example: '4.5' },
    { header: 'package_length', path: 'package.length', about: 'cm', example: '40' },
    { header: 'package_width', path: 'package.width', about: 'cm', example: '30' },
    { header: 'package_height', path: 'package.height', about: 'cm', example: '20' },
    {
      header: 'package_volume',
      path: 'package.volume',
      about: 'cm³, empty: length × width × height',
      example: '',
    },
    {
      header: 'operator_contact_number',
      path: 'operatorContactNumber',
      about: 'phone of whoever the courier should call',
      example: '+63 917 555 0100',
    },
    ...[1, 2, 3, 4, 5].map((n) => ({
      header: `reference${n}`,
      path: `reference${n}`,
      about: `reference ${n}, e.g. an order number`,
      example: n === 1 ? 'PO-77' : '',
    })),
    ...party('receiver', 'Receiver', 'consignee', {
      name: 'Maria Santos',
      phone: '0917 123 4567',
      street: '88 Rizal Ave',
      city: 'Cebu City',
      postal: '6000',
      country: 'PH',
    }),
    {
      header: PROFILE_COLUMN,
      path: PROFILE_COLUMN,
      about: 'id of a sender profile: fills the sender and return columns left empty',
      example: '',
    },
    { header: 'shipper_code', path: 'shipperCode', about: "the sender's code with the courier", example: '' },
    { header: 'merchant_name', path: 'merchantName', about: 'merchant', example: '' },
    { header: 'warehouse_name', path: 'warehouseName', about: 'warehouse', example: '' },
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
