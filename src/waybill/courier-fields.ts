/**
 * What every place reads of the table of courier fields (booking-fields.ts): each field as one record,
 * the fields each wire body carries in the courier's order, each body's checks, and the bodies' types.
 */
import type * as z from 'zod';
import {
  type Body,
  type CsvSpec,
  courierOrder,
  type FieldArgs,
  type FieldKind,
  type FormHints,
  type Part,
  type PartyKey,
  type PartyRow,
  parties,
  partyFields,
  type ShipmentRow,
  shipmentFields,
} from './booking-fields.js';
import type { Catalog } from './catalog.js';
import { calendarDate } from './fields.js';

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
  /** Its part of the booking (booking-fields.ts), and of the quote form where that differs. */
  part: Part;
  quotePart?: Part;
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
    part: row.part ?? (row.path.startsWith('package.') ? 'package' : 'shipment'),
    ...(row.quotePart === undefined ? {} : { quotePart: row.quotePart }),
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
    part: party.part,
    form: { label: `${row.label.charAt(0).toUpperCase()}${row.label.slice(1)}`, ...row.form },
  };
}

/** Every courier field of a booking, in the booking form's order. */
export const courierFields: readonly CourierField[] = shipmentFields.flatMap((row): CourierField[] => {
  if (typeof row !== 'string') return [shipmentField(row)];
  const party = parties.find((p) => p.key === row);
  return party ? partyFields.map((field) => partyField(party, field)) : [];
});

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

type CheckOf<R> = R extends { check: (field: FieldArgs) => infer C } ? C : never;

/** A quotation's date is a day: `Pickup date` of `Pickup date and time`. */
export const dayLabel = (label: string) => label.replace(/ and time$/, '');

/** The rows a body carries. */
type RowIn<B extends Body> = Row extends infer R
  ? R extends { wire: infer W }
    ? [KeyIn<W, B>] extends [never]
      ? never
      : R
    : never
  : never;
type PathIn<R, B extends Body> = B extends 'quote'
  ? R extends { quotePath: infer Q extends string }
    ? Q
    : R extends { path: infer P extends string }
      ? P
      : never
  : R extends { path: infer P extends string }
    ? P
    : never;
type CheckIn<R, B extends Body> = B extends 'quote'
  ? R extends { kind: 'date' }
    ? ReturnType<typeof calendarDate>
    : CheckOf<R>
  : CheckOf<R>;
/** A path's key under a prefix, when it is right under it. */
type KeyUnder<Path, Prefix extends string> = Path extends `${Prefix}${infer K}`
  ? K extends `${string}.${string}`
    ? never
    : K
  : never;
type ChecksUnder<B extends Body, Prefix extends string> = {
  [R in RowIn<B> as KeyUnder<PathIn<R, B>, Prefix>]: CheckIn<R, B>;
};

function checkIn(row: ShipmentRow, body: Body, catalog: Catalog): z.ZodType {
  const required = row.required ?? false;
  if (body === 'quote' && row.kind === 'date') return calendarDate(dayLabel(row.label), { required });
  return row.check({
    label: row.label,
    required,
    ...(row.max === undefined ? {} : { max: row.max }),
    ...(row.choices === undefined ? {} : { choices: catalog[row.choices] }),
  });
}

/**
 * The zod schemas of the fields that are not a party's that a body carries, by their key in its
 * schema right under `prefix`: the top level's (`''`) or a group's (`'package.'`); typed as the rows'
 * checks are. A quotation's dates are days at their own paths (`pickupDate`).
 */
export function checksUnder<B extends Body, P extends string>(
  body: B,
  prefix: P,
  catalog: Catalog,
): ChecksUnder<B, P> {
  return Object.fromEntries(
    shipmentRows.flatMap((row) => {
      const field = shipmentField(row);
      const path = body === 'quote' ? (field.quotePath ?? field.path) : field.path;
      const key = path.slice(prefix.length);
      if (field.wire[body] === undefined || !path.startsWith(prefix) || key.includes('.')) return [];
      return [[key, checkIn(row, body, catalog)]];
    }),
  ) as ChecksUnder<B, P>;
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

/** A party's keys, in the order a booking shows them. */
export const partyKeys = partyFields.map((row) => row.key);

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
