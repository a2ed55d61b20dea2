/**
 * zod schemas of the three wire request bodies (docs/courier-interface.md §2.1, §2.2, §4.2, §4.3), used by
 * the sandbox to reject what the real courier might reject. Strict key sets: every key of the interface
 * must be present (empty strings allowed unless stated) and no other key may appear. The bodies' keys
 * and how each is checked come from the table of courier fields (booking-fields.ts), by each field's kind.
 *
 * Formats checked beyond "is a string":
 * - pickupDate / expectedDeliveryDate: `YYYY-MM-DD HH:MM:SS.mmm` (Booking, Update), `YYYY-MM-DD` (Quotation),
 *   and a real calendar date / time of day;
 * - codAmount / declaredValue: non-negative decimal text with exactly two places ("1500.00");
 * - quantity: integer text ≥ 1 ("1");
 * - packageLength / packageWidth / packageHeight / Packagevolume / PackageWeight (packageWeight in
 *   Quotation): empty, or non-negative decimal text ("12", "0.5");
 * - trackingNumber (waybill and child): non-empty; child trackingNumbers distinct within a request;
 * - child length / width / weight / height: finite numbers > 0; child quantity: integer ≥ 1.
 * paymentMethod is any string, including '' (Update sends an empty one).
 */

import * as z from 'zod';
import type { Body, FieldKind } from '../booking-fields.js';
import { type BodyWire, bodyFields } from '../courier-fields.js';
import type {
  BookingRequestWire,
  ChildWaybillWire,
  Operation,
  QuotationRequestWire,
  UpdateRequestWire,
} from '../wire-types.js';

const typeError =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'missing' : `expected ${expected}, got ${describe(issue.input)}`;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Any string (empty allowed). */
const str = () => z.string({ error: typeError('a string') });

const nonEmpty = () => str().min(1, { error: 'must not be empty' });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})$/;

function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isValidDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  return (
    m !== null &&
    isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) < 24 &&
    Number(m[5]) < 60 &&
    Number(m[6]) < 60
  );
}

/** `YYYY-MM-DD HH:MM:SS.mmm` (Booking, Update). */
export const wireDateTime = () =>
  str().refine(isValidDateTime, { error: 'expected YYYY-MM-DD HH:MM:SS.mmm' });
/** `YYYY-MM-DD` (Quotation). */
export const wireDate = () => str().refine(isValidDate, { error: 'expected YYYY-MM-DD' });
/** Two-place decimal text, e.g. "1500.00". */
export const wireAmount = () =>
  str().regex(/^\d+\.\d{2}$/, { error: 'expected decimal text with two places, e.g. "1500.00"' });
/** Integer text ≥ 1, e.g. "1". */
export const wireQuantity = () =>
  str().regex(/^[1-9]\d*$/, { error: 'expected integer text >= 1, e.g. "1"' });
/** Empty, or non-negative decimal text. */
export const wireMeasure = () =>
  str().regex(/^(?:\d+(?:\.\d+)?)?$/, { error: 'expected empty or decimal text, e.g. "1.5"' });

/** For objects: the type message (unrecognized-key issues are described from their `keys`, not this). */
const objectError = { error: typeError('a JSON object') };

const positiveNumber = () =>
  z.number({ error: typeError('a number') }).positive({ error: 'must be a number > 0' });

export const childWaybillSchema = z.strictObject(
  {
    trackingNumber: nonEmpty(),
    packageType: str(),
    itemDescription: str(),
    remarks: str(),
    length: positiveNumber(),
    width: positiveNumber(),
    weight: positiveNumber(),
    height: positiveNumber(),
    uom: str(),
    quantity: z
      .number({ error: typeError('a number') })
      .int({ error: 'expected an integer >= 1' })
      .min(1, { error: 'expected an integer >= 1' }),
  },
  objectError,
);

/** How the sandbox checks a field of each kind (booking-fields.ts); a date is a date-time but in the Quotation. */
function wireCheck(kind: FieldKind, body: Body) {
  switch (kind) {
    case 'tracking':
      return nonEmpty();
    case 'date':
      return body === 'quote' ? wireDate() : wireDateTime();
    case 'money':
      return wireAmount();
    case 'count':
      return wireQuantity();
    case 'measure':
      return wireMeasure();
    default:
      return str();
  }
}

/** A body's keys, each checked by its field's kind. */
function bodyShape<B extends Body>(body: B) {
  return Object.fromEntries(bodyFields(body).map(({ field, key }) => [key, wireCheck(field.kind, body)])) as {
    [K in keyof BodyWire<B>]: z.ZodString;
  };
}

export const bookingRequestSchema = z.strictObject(
  {
    ...bodyShape('book'),
    childWaybills: z
      .array(childWaybillSchema, { error: typeError('an array') })
      .superRefine((children, ctx) => {
        const seen = new Set<string>();
        children.forEach((child, i) => {
          if (seen.has(child.trackingNumber)) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'trackingNumber'],
              message: `duplicate child trackingNumber ${child.trackingNumber}`,
            });
          }
          seen.add(child.trackingNumber);
        });
      }),
  },
  objectError,
);

export const updateRequestSchema = z.strictObject(bodyShape('update'), objectError);

export const quotationRequestSchema = z.strictObject(bodyShape('quote'), objectError);

/** The request schema of each operation. */
export const wireRequestSchemas = {
  quote: quotationRequestSchema,
  book: bookingRequestSchema,
  update: updateRequestSchema,
} as const satisfies Record<Operation, z.ZodType>;

// Compile-time proof that each schema's input and output are exactly the wire type of wire-types.ts
// (both from the table of courier fields, the bodies' keys by their kinds' checks).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type SchemasMatchWireTypes = [
  Assert<Same<z.output<typeof childWaybillSchema>, ChildWaybillWire>>,
  Assert<Same<z.input<typeof childWaybillSchema>, ChildWaybillWire>>,
  Assert<Same<z.output<typeof bookingRequestSchema>, BookingRequestWire>>,
  Assert<Same<z.input<typeof bookingRequestSchema>, BookingRequestWire>>,
  Assert<Same<z.output<typeof updateRequestSchema>, UpdateRequestWire>>,
  Assert<Same<z.input<typeof updateRequestSchema>, UpdateRequestWire>>,
  Assert<Same<z.output<typeof quotationRequestSchema>, QuotationRequestWire>>,
  Assert<Same<z.input<typeof quotationRequestSchema>, QuotationRequestWire>>,
];

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

/** One short line naming the (first) offending field and why, e.g. `pickupDate: expected YYYY-MM-DD`. */
export function describeIssues(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  if (first === undefined) return 'invalid body';
  let text: string;
  if (first.code === 'unrecognized_keys') {
    const where = first.path.length > 0 ? `${formatPath(first.path)}: ` : '';
    text = `${where}unexpected key${first.keys.length > 1 ? 's' : ''} ${first.keys.join(', ')}`;
  } else {
    text = `${first.path.length > 0 ? formatPath(first.path) : 'body'}: ${first.message}`;
  }
  return rest.length > 0 ? `${text} (+${rest.length} more)` : text;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; remarks: string };

/** Validates a parsed JSON body for an operation. */
export function parseWireRequest<O extends Operation>(
  operation: O,
  body: unknown,
): ParseResult<z.output<(typeof wireRequestSchemas)[O]>> {
  const result = wireRequestSchemas[operation].safeParse(body);
  if (result.success) return { ok: true, value: result.data as z.output<(typeof wireRequestSchemas)[O]> };
  return { ok: false, remarks: describeIssues(result.error) };
}
