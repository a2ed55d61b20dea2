/** The courier fields of a booking, one row each: the schemas' checks, the wire bodies, the sandbox, the CSV columns and the form inputs derive from it. */
import type { z } from 'zod';
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
 * whether required, its limit and its check (fields.ts), its key in each wire body that carries it,
 * its bulk CSV column and its form hints. Rows run in the order the dispatcher meets them (the CSV
 * template's); the bodies keep the courier's own order (`courierOrder`). A party's twelve fields are
 * one table (`partyFields`) written out for each of the three parties (`parties`). Parcels (child
 * waybills) are not rows: they are a list of their own on the wire and in the form, and have no
 * CSV columns.
 *
 * A new courier field is a row here (and its place in `courierOrder`, or it is sent last); its
 * `checkOf` in schemas.ts's objects; its place on a form (slack/book/form.ts, slack/quote/form.ts)
 * and in the review's groups; and its line in docs/courier-interface.md.
 * `test/waybill/booking-fields.unit.test.ts` names any place that misses it.
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
}

interface ShipmentRow {
  readonly path: string;
  readonly label: string;
  readonly kind: FieldKind;
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
const shipmentFields = [
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
    max: 50,
    wire: { book: 'shipperCode' },
    check: asText,
    csv: { about: "the sender's code with the courier" },
  },
  {
    path: 'merchantName',
    label: 'Merchant name',
    kind: 'text',
    max: 100,
    wire: 'merchantName',
    check: asText,
    csv: { about: 'merchant' },
  },
  {
    path: 'warehouseName',
    label: 'Warehouse name',
    kind: 'text',
    max: 100,
    wire: { book: 'warehouseName' },
    check: asText,
    csv: { about: 'warehouse' },
  },
  'shipper',
  'returnTo',
] as const satisfies readonly (ShipmentRow | PartyKey)[];

export type PartyKey = 'shipper' | 'consignee' | 'returnTo';

interface PartyRow {
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

/** The three parties: the dispatcher's word, the wire's and the CSV's prefix, and the template's example. */
export const parties = [
  {
    key: 'shipper',
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
    who: 'Return',
    wire: 'return',
    csv: 'return',
    required: false,
    example: {} as Record<string, string>,
  },
] as const;

/** A courier field as every derived place reads it: a shipment field, or one party's field. */
export interface CourierField {
  /** Its path in the Booking schema's input (`consignee.phone`, `package.weight`). */
  path: string;
  /** Its name to the dispatcher, as the schema's messages say it (`Receiver phone`). */
  label: string;
  kind: FieldKind;
  required: boolean;
  max?: number;
  choices?: ShipmentRow['choices'];
  /** Its key in each body that has it. */
  wire: { [B in Body]?: string };
  /** Its path in a quotation, where it differs from `path`. */
  quotePath?: string;
  /** Its columns in the bookings CSV file, headers given. */
  csv: (CsvSpec & { header: string })[];
  /** The party it belongs to, if any. */
  party?: PartyKey;
  /** How a form shows it, its label there given. */
  form: FormHints & { label: string };
}

const snakeCase = (path: string) => path.replace(/\./g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function shipmentField(row: ShipmentRow): CourierField {
  const wire =
    typeof row.wire === 'string' ? { quote: row.wire, book: row.wire, update: row.wire } : row.wire;
  const csv = (Array.isArray(row.csv) ? row.csv : [row.csv]) as CsvSpec[];
  return {
    path: row.path,
    label: row.label,
    kind: row.kind,
    required: row.required ?? false,
    ...(row.max === undefined ? {} : { max: row.max }),
    ...(row.choices === undefined ? {} : { choices: row.choices }),
    wire: { ...wire },
    ...(row.quotePath === undefined ? {} : { quotePath: row.quotePath }),
    csv: csv.map((spec) => ({ ...spec, header: spec.header ?? snakeCase(row.path) })),
    form: { label: row.label, ...row.form },
  };
}

function partyField(party: (typeof parties)[number], row: PartyRow): CourierField {
  const inQuote = (row.quote ?? [party.key]).includes(party.key);
  const wire = `${party.wire}${row.wire}`;
  return {
    path: `${party.key}.${row.key}`,
    label: `${party.who} ${row.label}`,
    kind: row.kind,
    required: party.required && (row.required ?? false),
    ...(row.max === undefined ? {} : { max: row.max }),
    wire: { ...(inQuote ? { quote: wire } : {}), book: wire, update: wire },
    csv: [
      {
        header: `${party.csv}_${row.key}`,
        about: `${party.who} ${row.csv.about}`,
        example: party.example[row.key] ?? '',
        ...(row.csv.old ? { old: row.csv.old.map((name) => `${party.csv}_${name}`) } : {}),
      },
    ],
    party: party.key,
    form: { label: `${row.label.charAt(0).toUpperCase()}${row.label.slice(1)}`, ...row.form },
  };
}

/** Every courier field of a booking, in the dispatcher's order. */
export const courierFields: readonly CourierField[] = shipmentFields.flatMap((row): CourierField[] => {
  if (typeof row !== 'string') return [shipmentField(row)];
  const party = parties.find((p) => p.key === row);
  return party ? partyFields.map((field) => partyField(party, field)) : [];
});

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

function inCourierOrder(body: Body): { field: CourierField; key: string }[] {
  const rank = (key: string) => {
    const at = courierOrder.indexOf(key);
    return at === -1 ? courierOrder.length : at;
  };
  return courierFields
    .flatMap((field) => {
      const key = field.wire[body];
      return key === undefined ? [] : [{ field, key }];
    })
    .sort((a, b) => rank(a.key) - rank(b.key));
}

const byBody = {
  quote: inCourierOrder('quote'),
  book: inCourierOrder('book'),
  update: inCourierOrder('update'),
};

/** The fields a body carries, each with its key there, in the courier's order. */
export const bodyFields = (body: Body): readonly { field: CourierField; key: string }[] => byBody[body];

const shipmentRows: readonly ShipmentRow[] = shipmentFields.filter((row) => typeof row !== 'string');

type RowOf<P> = Row extends infer R
  ? R extends { path: infer Q }
    ? P extends Q
      ? R
      : never
    : never
  : never;
type CheckOf<R> = R extends { check: (field: FieldArgs) => infer C } ? C : never;

/** A field's zod schema, from its row (schemas.ts puts them together); typed as the row's check is. */
export function checkOf<P extends Row['path']>(path: P, catalog: Catalog): CheckOf<RowOf<P>> {
  const row = shipmentRows.find((r) => r.path === path);
  if (!row) throw new Error(`No courier field ${path}`);
  const args = {
    label: row.label,
    required: row.required ?? false,
    ...(row.max === undefined ? {} : { max: row.max }),
    ...(row.choices === undefined ? {} : { choices: catalog[row.choices] }),
  };
  return row.check(args) as CheckOf<RowOf<P>>;
}

type PartyChecks<R> = { [F in R as F extends { key: infer K extends string } ? K : never]: CheckOf<F> };
type QuoteRows<P> = PartyFieldRow extends infer R
  ? R extends unknown
    ? InQuote<R, P> extends true
      ? R
      : never
    : never
  : never;

function checksOf(rows: readonly PartyRow[], who: string, required: boolean) {
  return Object.fromEntries(
    rows.map((row) => [
      row.key,
      row.check({
        label: `${who} ${row.label}`,
        required: required && (row.required ?? false),
        ...(row.max === undefined ? {} : { max: row.max }),
      }),
    ]),
  );
}

const partyOf = (key: PartyKey) => parties.find((party) => party.key === key) as (typeof parties)[number];

/** A party's zod schemas, one a field, labelled for it: a booking's party, or another (`Party`, the address book's). */
export function partyChecks(
  party: PartyKey | { who: string; required: boolean },
): PartyChecks<PartyFieldRow> {
  const { who, required } = typeof party === 'string' ? partyOf(party) : party;
  return checksOf(partyFields, who, required) as PartyChecks<PartyFieldRow>;
}

/** The zod schemas of the fields of a party the Quotation carries. */
export function quotePartyChecks<P extends PartyKey>(party: P): PartyChecks<QuoteRows<P>> {
  const { who, required } = partyOf(party);
  const rows = partyFields.filter((row: PartyRow) => (row.quote ?? [party]).includes(party));
  return checksOf(rows, who, required) as PartyChecks<QuoteRows<P>>;
}

// The wire bodies' types, from the table: every key a string.
type Row = Exclude<(typeof shipmentFields)[number], PartyKey>;
type KeyIn<W, B extends Body> = W extends string
  ? W
  : W extends { readonly [K in B]: infer Key }
    ? Key
    : never;
type ShipmentKeys<B extends Body> = Row extends infer R
  ? R extends { wire: infer W }
    ? KeyIn<W, B>
    : never
  : never;
type PartyFieldRow = (typeof partyFields)[number];
type InQuote<R, P> = R extends { quote: readonly (infer Q)[] } ? (P extends Q ? true : false) : true;
type PartyKeys<B extends Body> = (typeof parties)[number] extends infer P
  ? P extends { key: infer K; wire: infer Prefix extends string }
    ? PartyFieldRow extends infer R
      ? R extends { wire: infer Suffix extends string }
        ? B extends 'quote'
          ? InQuote<R, K> extends true
            ? `${Prefix}${Suffix}`
            : never
          : `${Prefix}${Suffix}`
        : never
      : never
    : never
  : never;

/** A body's keys as the table gives them, each a string. */
export type BodyWire<B extends Body> = { [K in ShipmentKeys<B> | PartyKeys<B>]: string };
