/** The table of courier fields, one row each: the schemas, the wire bodies, the sandbox, the CSV columns, the forms and the review derive from it (courier-fields.ts). */
import type * as z from 'zod';
import type { Catalog, Choice } from './catalog.js';
import { labelOf } from './catalog.js';
import {
  choice,
  country,
  email,
  homePhone,
  instant,
  latitude,
  longitude,
  measure,
  money,
  phone,
  quantity,
  requiredMeasure,
  text,
  trackingNumber,
} from './fields.js';
import type { PlaceLevel } from './places.js';

/**
 * One row per courier field: its key in the Booking schema, its name to the dispatcher, its kind,
 * whether required, its limit and its check (fields.ts), its key in each wire body that carries it
 * (which also puts it in that body's schema), its part of the booking (the form's step and the
 * review's group), its bulk CSV column and its form hints. Rows run in the order the booking form
 * shows them, which the review, the quote form and the CSV template keep; the bodies keep the
 * courier's own order (`courierOrder`). A party's twelve fields are one table (`partyFields`)
 * written out for each of the three parties (`parties`). Parcels (child waybills) are not rows:
 * they are a list of their own on the wire and in the form, and have no CSV columns.
 *
 * A new courier field is a row here (a key missing from `courierOrder` is sent last) and its line
 * in docs/courier-interface.md; `test/waybill/booking-fields.unit.test.ts` shows a made-up row
 * reaching every place.
 */

/** The three bodies sent to the courier. */
export type Body = 'quote' | 'book' | 'update';

/**
 * What a field holds, which decides how it is written on the wire and checked by the sandbox:
 * `money` as two-place text, `measure` and `coordinate` as decimal text, `count` as integer text,
 * `date` as a date-time (Booking, Update) or a date (Quotation); the others as typed.
 */
export type FieldKind =
  | 'tracking'
  | 'text'
  | 'choice'
  | 'money'
  | 'count'
  | 'measure'
  | 'date'
  | 'phone'
  | 'email'
  | 'place'
  | 'country'
  | 'coordinate';

/**
 * The part of a booking a field belongs to: the booking form shows the shipment's and the package's
 * on its first step, the receiver's on the next, the sender's and the return party's on the third;
 * the review has a group for each; the quote form a section for each it carries.
 */
export type Part = 'shipment' | 'package' | 'receiver' | 'sender' | 'return';

/** Its key in each body that has it; one string: the same key in all three. */
type WireKeys = string | { readonly [B in Body]?: string };

/** A column of the bookings CSV file; `part` splits a date-time into its date and time columns. */
export interface CsvSpec {
  /** The header; the field's path in snake case (`package_weight`) when not given. */
  readonly header?: string;
  /** What to write, for the docs and the template's comment row. */
  readonly about?: string | ((catalog: Catalog) => string);
  /** The template's example, empty when not given. */
  readonly example?: string | ((catalog: Catalog) => string | undefined);
  readonly part?: 'date' | 'time';
  /** Earlier headers a file may still use, read as this one. */
  readonly old?: readonly string[];
}

/** What a field's check is given: its label, whether it is required, its limit, its catalogue list. */
export interface FieldArgs {
  label: string;
  required: boolean;
  max?: number;
  choices?: readonly Choice[];
}

/** The checks most rows share (fields.ts): text of its limit, a choice of its catalogue list. */
const asText = ({ label, max = 0, required }: FieldArgs) => text(label, { max, required });
const asChoice = ({ label, choices = [] }: FieldArgs) => choice(label, choices);

/**
 * How a form shows a field, as plain data (slack/kit/fields.ts makes the Block Kit inputs). The input
 * follows the kind: a select of its catalogue list, a decimal, a whole number, the place type-ahead,
 * a date's two pickers (`Pickup date`, `Pickup time` from `Pickup date and time`), text otherwise.
 */
export interface FormHints {
  /** Its label in a form, where it is not the row's; a party's field is its row's label capitalised. */
  readonly label?: string;
  readonly placeholder?: string;
  readonly hint?: string | ((catalog: Catalog) => string);
  /** Text of several lines. */
  readonly multiline?: boolean;
  /** Which part of the place list a `place` field offers. */
  readonly level?: PlaceLevel;
  /** Shown on the booking form's parcels step, not its part's, with this hint there. */
  readonly withParcels?: string;
}

export interface ShipmentRow {
  readonly path: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** Its part of the booking: `package` for the package's (`package.weight`), `shipment` when not given. */
  readonly part?: Part;
  /** Its section of the quote form, where it differs from its part. */
  readonly quotePart?: Part;
  readonly required?: boolean;
  readonly max?: number;
  /** The catalogue's list a `choice` field takes its values from. */
  readonly choices?: 'serviceTypes' | 'paymentMethods' | 'packageTypes';
  readonly wire: WireKeys;
  /** Its path in a quotation, where it differs (`pickupDate`). */
  readonly quotePath?: string;
  readonly csv: CsvSpec | readonly CsvSpec[];
  /** Its zod schema in the Booking and Update schemas (schemas.ts composes them). */
  readonly check: (field: FieldArgs) => z.ZodType;
  readonly form?: FormHints;
}

/** The fields that are not a party's, in the dispatcher's order, with `parties` where each party's fields go. */
export const shipmentFields = [
  {
    path: 'trackingNumber',
    label: 'Tracking number',
    kind: 'tracking',
    required: true,
    wire: { book: 'trackingNumber', update: 'trackingNumber' },
    check: ({ label }) => trackingNumber(label),
    form: { hint: 'Leave empty and the bot gives the next free number' },
    csv: { about: 'empty: the next free number' },
  },
  {
    path: 'serviceType',
    label: 'Service type',
    kind: 'choice',
    required: true,
    choices: 'serviceTypes',
    wire: 'ServiceType',
    check: asChoice,
    csv: { example: (catalog) => catalog.serviceTypes[0]?.value },
  },
  {
    path: 'paymentMethod',
    label: 'Payment method',
    kind: 'choice',
    required: true,
    choices: 'paymentMethods',
    wire: 'paymentMethod',
    check: asChoice,
    csv: { example: (catalog) => catalog.codPaymentMethod },
  },
  {
    path: 'codAmount',
    label: 'COD amount',
    kind: 'money',
    wire: 'codAmount',
    check: ({ label }) => money(label),
    form: { hint: (catalog) => `Only for ${labelOf(catalog.paymentMethods, catalog.codPaymentMethod)}` },
    csv: {
      about: (catalog) =>
        `only for ${labelOf(catalog.paymentMethods, catalog.codPaymentMethod)}, e.g. 1500.00`,
      example: '1500.00',
    },
  },
  {
    path: 'declaredValue',
    label: 'Declared value',
    kind: 'money',
    wire: 'declaredValue',
    check: ({ label }) => money(label),
    csv: { about: 'e.g. 2000.00', example: '2000.00' },
  },
  {
    path: 'quantity',
    label: 'Number of parcels',
    kind: 'count',
    wire: 'quantity',
    check: ({ label }) => quantity(label),
    form: { withParcels: 'Leave empty to count the parcels below (1 when there are none)' },
    csv: { about: 'number of parcels, empty: 1', example: '1' },
  },
  {
    path: 'pickupAt',
    label: 'Pickup date and time',
    kind: 'date',
    required: true,
    wire: 'pickupDate',
    quotePath: 'pickupDate',
    check: ({ label }) => instant(label),
    csv: [
      { header: 'pickup_date', part: 'date', about: 'YYYY-MM-DD, empty: today' },
      { header: 'pickup_time', part: 'time', about: 'HH:MM, empty: the next full hour' },
    ],
  },
  {
    path: 'expectedDeliveryAt',
    label: 'Expected delivery date and time',
    kind: 'date',
    required: true,
    wire: 'expectedDeliveryDate',
    quotePath: 'expectedDeliveryDate',
    check: ({ label }) => instant(label),
    csv: [
      { header: 'delivery_date', part: 'date', about: 'expected delivery, YYYY-MM-DD, empty: tomorrow' },
      { header: 'delivery_time', part: 'time', about: 'expected delivery, HH:MM, empty: 17:00' },
    ],
  },
  {
    path: 'itemDescription',
    label: 'Item description',
    kind: 'text',
    required: true,
    max: 500,
    wire: { book: 'itemDescription', update: 'itemDescription' },
    check: asText,
    form: { multiline: true },
    csv: { about: 'what is sent', example: 'Kitchen scales' },
  },
  {
    path: 'handlingInstructions',
    label: 'Handling instructions',
    kind: 'text',
    max: 500,
    wire: { book: 'handlingInstructions', update: 'handlingInstruction' },
    check: asText,
    form: { multiline: true },
    csv: { about: 'e.g. Fragile', example: 'Fragile' },
  },
  {
    path: 'package.type',
    label: 'Package type',
    kind: 'choice',
    required: true,
    choices: 'packageTypes',
    wire: 'packageType',
    check: asChoice,
    csv: { example: (catalog) => catalog.packageTypes.at(-1)?.value },
  },
  {
    path: 'package.weight',
    label: 'Package weight',
    kind: 'measure',
    required: true,
    wire: { book: 'PackageWeight', update: 'PackageWeight', quote: 'packageWeight' },
    check: ({ label }) => requiredMeasure(label, { unit: 'kg', max: 100_000 }),
    form: { label: 'Weight (kg)' },
    csv: { about: 'kg', example: '4.5' },
  },
  {
    path: 'package.length',
    label: 'Package length',
    kind: 'measure',
    wire: 'packageLength',
    check: ({ label }) => measure(label, { unit: 'cm' }),
    form: { label: 'Length (cm)' },
    csv: { about: 'cm', example: '40' },
  },
  {
    path: 'package.width',
    label: 'Package width',
    kind: 'measure',
    wire: 'packageWidth',
    check: ({ label }) => measure(label, { unit: 'cm' }),
    form: { label: 'Width (cm)' },
    csv: { about: 'cm', example: '30' },
  },
  {
    path: 'package.height',
    label: 'Package height',
    kind: 'measure',
    wire: 'packageHeight',
    check: ({ label }) => measure(label, { unit: 'cm' }),
    form: { label: 'Height (cm)' },
    csv: { about: 'cm', example: '20' },
  },
  {
    // Sent as typed, else length × width × height (wire.ts).
    path: 'package.volume',
    label: 'Package volume',
    kind: 'measure',
    wire: 'Packagevolume',
    check: ({ label }) => measure(label, { unit: 'cm³', max: 1e12 }),
    form: { label: 'Volume (cm³)', hint: 'Leave empty to use length × width × height' },
    csv: { about: 'cm³, empty: length × width × height' },
  },
  {
    path: 'operatorContactNumber',
    label: 'Operator contact number',
    kind: 'phone',
    required: true,
    wire: { book: 'OperatorContactNumber' },
    check: ({ label, required }) => homePhone(label, { required }),
    csv: { about: 'phone of whoever the courier should call', example: '+63 917 555 0100' },
  },
  ...([1, 2, 3, 4, 5] as const).map(
    (n) =>
      ({
        path: `reference${n}`,
        label: `Reference ${n}`,
        kind: 'text',
        max: 50,
        wire: { book: `referenceNumber${n}`, update: `referenceNumber${n}` },
        check: asText,
        csv: { about: `reference ${n}, e.g. an order number`, example: n === 1 ? 'PO-77' : '' },
      }) as const,
  ),
  'consignee',
  {
    path: 'shipperCode',
    label: 'Shipper code',
    kind: 'text',
    part: 'sender',
    max: 50,
    wire: { book: 'shipperCode' },
    check: asText,
    csv: { about: "the sender's code with the courier" },
  },
  'shipper',
  {
    path: 'merchantName',
    label: 'Merchant name',
    kind: 'text',
    part: 'sender',
    // A quotation has no sender's codes: its merchant is shown with the package.
    quotePart: 'package',
    max: 100,
    wire: 'merchantName',
    check: asText,
    csv: { about: 'merchant' },
  },
  {
    path: 'warehouseName',
    label: 'Warehouse name',
    kind: 'text',
    part: 'sender',
    max: 100,
    wire: { book: 'warehouseName' },
    check: asText,
    csv: { about: 'warehouse' },
  },
  'returnTo',
] as const satisfies readonly (ShipmentRow | PartyKey)[];

export type PartyKey = 'shipper' | 'consignee' | 'returnTo';

export interface PartyRow {
  /** Its key in the party (`consignee.phone`). */
  readonly key: string;
  /** Its name after the party's (`Receiver phone`). */
  readonly label: string;
  readonly kind: FieldKind;
  /** Required of a sender and a receiver (a return party is all or nothing, schemas.ts). */
  readonly required?: boolean;
  readonly max?: number;
  /** Its key after the party's prefix (`consigneeContact`). */
  readonly wire: string;
  /** The parties whose field the Quotation carries, when not all three. */
  readonly quote?: readonly PartyKey[];
  readonly csv: { readonly about: string; readonly old?: readonly string[] };
  readonly check: (field: FieldArgs) => z.ZodType;
  readonly form?: FormHints;
}

/** A party's fields in the dispatcher's order. */
export const partyFields = [
  {
    key: 'name',
    label: 'name',
    kind: 'text',
    required: true,
    max: 100,
    wire: 'Name',
    quote: [],
    check: asText,
    csv: { about: 'name' },
  },
  {
    key: 'phone',
    label: 'phone',
    kind: 'phone',
    required: true,
    wire: 'Contact',
    quote: [],
    check: ({ label, required }) => phone(label, { required }),
    form: { placeholder: '+63 917 123 4567' },
    csv: { about: 'phone that can be dialled (without a country code: in the party country)' },
  },
  {
    key: 'email',
    label: 'e-mail',
    kind: 'email',
    wire: 'Email',
    quote: [],
    check: ({ label }) => email(label),
    csv: { about: 'e-mail' },
  },
  {
    key: 'street',
    label: 'address',
    kind: 'text',
    required: true,
    max: 200,
    wire: 'Address',
    check: asText,
    form: { placeholder: 'Street and number' },
    csv: { about: 'street address' },
  },
  {
    key: 'region',
    label: 'province / region',
    kind: 'place',
    max: 100,
    wire: 'Address1',
    check: asText,
    form: { level: 'province', placeholder: 'Type to find a province' },
    csv: { about: 'province / region' },
  },
  {
    key: 'city',
    label: 'city',
    kind: 'place',
    required: true,
    max: 100,
    wire: 'Address2',
    check: asText,
    form: { level: 'city', placeholder: 'Type to find a city or municipality' },
    csv: { about: 'city' },
  },
  {
    key: 'district',
    label: 'district',
    kind: 'text',
    max: 100,
    wire: 'Address3',
    check: asText,
    csv: { about: 'district' },
  },
  {
    key: 'barangay',
    label: 'barangay',
    kind: 'place',
    max: 100,
    wire: 'Address4',
    // The barangay's first name, still read.
    check: asText,
    form: { level: 'barangay', placeholder: 'Type to find a barangay' },
    csv: { about: 'barangay', old: ['neighbourhood'] },
  },
  {
    key: 'postal',
    label: 'postal code',
    kind: 'text',
    max: 20,
    wire: 'Postal',
    quote: ['shipper', 'consignee'],
    check: asText,
    csv: { about: 'postal code' },
  },
  {
    key: 'country',
    label: 'country',
    kind: 'country',
    required: true,
    wire: 'Country',
    check: ({ label, required }) => country(label, { required }),
    form: { placeholder: 'PH', hint: 'Two letters' },
    csv: { about: 'two-letter country code' },
  },
  {
    key: 'latitude',
    label: 'latitude',
    kind: 'coordinate',
    wire: 'Latitude',
    check: ({ label }) => latitude(label),
    form: { placeholder: '14.5547' },
    csv: { about: 'latitude' },
  },
  {
    key: 'longitude',
    label: 'longitude',
    kind: 'coordinate',
    wire: 'Longitude',
    check: ({ label }) => longitude(label),
    form: { placeholder: '121.0244' },
    csv: { about: 'longitude' },
  },
] as const satisfies readonly PartyRow[];

/** The three parties: the dispatcher's word, the wire's and the CSV's prefix, its part of the booking, and the template's example. */
export const parties = [
  {
    key: 'shipper',
    part: 'sender',
    who: 'Sender',
    wire: 'shipper',
    csv: 'sender',
    required: true,
    example: {
      name: 'Acme Trading',
      phone: '+63 2 8123 4567',
      street: '12 Shaw Blvd',
      city: 'Pasig',
      country: 'PH',
    } as Record<string, string>,
  },
  {
    key: 'consignee',
    part: 'receiver',
    who: 'Receiver',
    wire: 'consignee',
    csv: 'receiver',
    required: true,
    example: {
      name: 'Maria Santos',
      phone: '0917 123 4567',
      street: '88 Rizal Ave',
      city: 'Cebu City',
      postal: '6000',
      country: 'PH',
    } as Record<string, string>,
  },
  {
    key: 'returnTo',
    part: 'return',
    who: 'Return',
    wire: 'return',
    csv: 'return',
    required: false,
    example: {} as Record<string, string>,
  },
] as const;

/** A party's keys in the order the courier's sample writes them. */
const partyOrder = [
  'Address',
  'Country',
  'Address1',
  'Address2',
  'Address3',
  'Address4',
  'Longitude',
  'Latitude',
  'Postal',
  'Name',
  'Contact',
  'Email',
];

/**
 * The keys in the order the courier's sample writes them, every body's in one list (a key a body
 * lacks is skipped): the bodies keep it, so the JSON sent stays the same byte for byte. A key not
 * listed goes last.
 */
export const courierOrder: readonly string[] = [
  'OperatorContactNumber',
  'ServiceType',
  'trackingNumber',
  'referenceNumber1',
  'referenceNumber2',
  'referenceNumber3',
  'referenceNumber4',
  'referenceNumber5',
  'pickupDate',
  'expectedDeliveryDate',
  'paymentMethod',
  'codAmount',
  'declaredValue',
  'quantity',
  'shipperCode',
  ...parties.flatMap((party) => partyOrder.map((key) => `${party.wire}${key}`)),
  'itemDescription',
  'handlingInstructions',
  'handlingInstruction',
  'merchantName',
  'packageType',
  'packageLength',
  'packageWidth',
  'packageHeight',
  // The Quotation's weight comes before the volume, the Booking's after.
  'packageWeight',
  'Packagevolume',
  'PackageWeight',
  'warehouseName',
];
