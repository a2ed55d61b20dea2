/** One zod schema per operation (quote, booking, update): the single source of truth for what is valid. */
import * as z from 'zod';
import type { Catalog } from './catalog.js';
import { labelOf } from './catalog.js';
import { checksUnder, partyChecks, quotePartyChecks } from './courier-fields.js';
import { instantFromZonedDateTime, zonedDateAndTime } from './dates.js';
import {
  choice,
  instant,
  isCalendarDate,
  isObject,
  parseCents,
  quantity,
  requiredMeasure,
  text,
  trackingNumber,
} from './fields.js';
import { readPhone } from './phones.js';
import { checkPlace, officialPlace, type PlaceParts, postalWarning } from './places.js';

/**
 * One schema per operation (Quote, Booking, Update): the single source of truth for what is
 * valid. Each field's own check comes from its row in the table of courier fields
 * (booking-fields.ts), in the schema of each body that carries it; here they are put together with
 * the parties and the package, and with the rules across fields. Which fields are
 * required is our decision (the interface does not say); docs/courier-interface.md lists it.
 * Messages name the field in the dispatcher's words.
 */

const MAX_CHILD_WAYBILLS = 50;

type Ctx = z.core.$RefinementCtx;

/**
 * Cross-field rules run even when some fields failed, so the dispatcher sees every problem at
 * once; they must therefore tolerate fields that did not parse.
 */
function crossCheck<T>(rules: (order: T, ctx: Ctx) => void) {
  return z.superRefine<T>(
    (order, ctx) => {
      if (isObject(order)) rules(order, ctx);
    },
    { when: () => true },
  );
}

interface Coordinates {
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/** A group of inputs (a party, the package) left out or sent as null is a group of empty inputs. */
function group<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess((value) => value ?? {}, z.object(shape));
}

/** Half a coordinate pair is a typo, not a location. */
function checkCoordinates(who: string, place: Coordinates | undefined, ctx: Ctx, path: (string | number)[]) {
  if (!isObject(place)) return;
  if ((place.latitude === undefined) !== (place.longitude === undefined)) {
    const missing = place.latitude === undefined ? 'latitude' : 'longitude';
    ctx.addIssue({
      code: 'custom',
      path: [...path, missing],
      message: `${who} ${missing} is required when the ${missing === 'latitude' ? 'longitude' : 'latitude'} is given`,
    });
  }
}

/** A party's phone can be dialled in the party's country (the courier's when it has none). */
function checkPhone(who: string, party: unknown, ctx: Ctx, path: (string | number)[]) {
  if (!isObject(party) || typeof party.phone !== 'string' || party.phone === '') return;
  const reading = readPhone(party.phone, typeof party.country === 'string' ? party.country : undefined);
  if (!reading.ok) {
    ctx.addIssue({ code: 'custom', path: [...path, 'phone'], message: `${who} phone ${reading.problem}` });
  }
}

/** Refused (the default), or shown as warnings on the review for couriers whose customers write places their own way (WAYBILL_PLACE_CHECK). */
export type PlaceCheck = 'refuse' | 'warn';

const placeLabels: Record<keyof PlaceParts, string> = {
  region: 'province / region',
  city: 'city',
  barangay: 'barangay',
};

/** A Philippine party's place parts as typed, or none for a party elsewhere (their places are not checked). */
function philippinePlace(party: unknown): (PlaceParts & { postal: string }) | undefined {
  if (!isObject(party) || typeof party.country !== 'string' || party.country.trim().toUpperCase() !== 'PH')
    return;
  const part = (key: keyof PlaceParts | 'postal') => (typeof party[key] === 'string' ? party[key] : '');
  if (part('city').trim() === '') return;
  return {
    region: part('region'),
    city: part('city'),
    barangay: part('barangay'),
    postal: part('postal'),
  };
}

/** What does not fit together in a Philippine party's province, city and barangay (places.ts). */
function placeProblems(who: string, party: unknown, path: (string | number)[]): FieldError[] {
  const place = philippinePlace(party);
  if (!place) return [];
  const problems = checkPlace(place);
  return problems.map(({ field, problem }) => ({
    path: [...path, field].join('.'),
    message: `${who} ${placeLabels[field]} ${problem}`,
  }));
}

const parties = [
  ['Sender', 'shipper'],
  ['Receiver', 'consignee'],
  ['Return', 'returnTo'],
] as const;

/** An order's parties; a checked booking returns to its sender when no return party was given: the same party, told once. */
const told = (order: Record<string, unknown>) =>
  parties.filter(([, key]) => key !== 'returnTo' || order.returnTo !== order.shipper);

/** Every party's place problems, each at its field: refused by the schema, or warned of on the review. */
export function placeProblemsOf(order: Record<string, unknown>): FieldError[] {
  return told(order).flatMap(([who, key]) => placeProblems(who, order[key], [key]));
}

/** Postal codes not of their party's city, for the review whatever WAYBILL_PLACE_CHECK says (places.ts). */
export function postalWarningsOf(order: Record<string, unknown>): string[] {
  return told(order).flatMap(([who, key]) => {
    const place = philippinePlace(order[key]);
    const warning = place && postalWarning(place);
    return warning ? [`${who} postal code ${warning}`] : [];
  });
}

function refusePlaces(problems: FieldError[], ctx: Ctx) {
  for (const { path, message } of problems) ctx.addIssue({ code: 'custom', path: path.split('.'), message });
}

/** A checked party's places by their official names where the list has them (places.ts), as every surface keeps them. */
function withOfficialPlace<P extends PlaceParts & { district: string }>(party: P): P {
  return philippinePlace(party) ? officialPlace(party) : party;
}

/** A checked party with its phone written as the courier gets it (phones.ts). */
function withWrittenPhone<P extends { phone: string; country: string }>(party: P): P {
  const reading = party.phone === '' ? undefined : readPhone(party.phone, party.country);
  return reading?.ok ? { ...party, phone: reading.written } : party;
}

/** A checked party as it is kept: phone written for the courier, places by their official names. */
const keptParty = <P extends PlaceParts & { district: string; phone: string; country: string }>(party: P) =>
  withOfficialPlace(withWrittenPhone(party));

/** A return party left entirely empty means "return to the sender"; a partial one must be usable. */
export function isBlankParty(party: object): boolean {
  return Object.values(party).every((value) => value === '' || value === undefined);
}

function checkReturnParty(party: Record<string, unknown>, required: readonly string[], ctx: Ctx) {
  if (isBlankParty(party)) return;
  const labels: Record<string, string> = {
    street: 'Return address',
    city: 'Return city',
    country: 'Return country',
    name: 'Return name',
    phone: 'Return phone',
  };
  for (const key of required) {
    if (party[key] === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['returnTo', key],
        message: `${labels[key]} is required when a return party is given (leave the return party empty to return to the sender)`,
      });
    }
  }
}

function checkDimensions(pkg: { length?: number; width?: number; height?: number } | undefined, ctx: Ctx) {
  if (!isObject(pkg)) return;
  const given = (['length', 'width', 'height'] as const).filter((key) => pkg[key] !== undefined);
  if (given.length === 0 || given.length === 3) return;
  for (const key of ['length', 'width', 'height'] as const) {
    if (pkg[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['package', key],
        message: `Package ${key} is required when any of length, width and height is given`,
      });
    }
  }
}

/** A COD amount is due exactly when the payment method is the cash-on-delivery kind. */
function checkCod(catalog: Catalog, order: { paymentMethod?: unknown; codAmount?: unknown }, ctx: Ctx) {
  if (typeof order.codAmount !== 'string' || typeof order.paymentMethod !== 'string') return;
  // An unknown payment method has its own error; a COD verdict on it would only confuse.
  const known =
    order.paymentMethod === '' || catalog.paymentMethods.some((m) => m.value === order.paymentMethod);
  if (!known) return;
  const isCod = order.paymentMethod === catalog.codPaymentMethod;
  const codLabel = labelOf(catalog.paymentMethods, catalog.codPaymentMethod);
  const due = (parseCents(order.codAmount) ?? 0n) > 0n;
  if (isCod && !due) {
    ctx.addIssue({
      code: 'custom',
      path: ['codAmount'],
      message: `COD amount must be more than 0 when the payment method is ${codLabel}`,
    });
  } else if (!isCod && due) {
    ctx.addIssue({
      code: 'custom',
      path: ['codAmount'],
      message: `COD amount must be empty unless the payment method is ${codLabel}`,
    });
  }
}

function checkDeliveryAfterPickup(pickup: unknown, delivery: unknown, path: string, ctx: Ctx) {
  const comparable =
    (pickup instanceof Date && delivery instanceof Date) ||
    (typeof pickup === 'string' &&
      typeof delivery === 'string' &&
      isCalendarDate(pickup) &&
      isCalendarDate(delivery));
  if (comparable && delivery < pickup) {
    ctx.addIssue({ code: 'custom', path: [path], message: 'Expected delivery must not be before pickup' });
  }
}

function childWaybillSchema(catalog: Catalog) {
  return z.object({
    trackingNumber: trackingNumber('Parcel tracking number'),
    packageType: choice('Parcel package type', catalog.packageTypes),
    itemDescription: text('Parcel description', { max: 200 }),
    remarks: text('Parcel remarks', { max: 200 }),
    length: requiredMeasure('Parcel length'),
    width: requiredMeasure('Parcel width'),
    height: requiredMeasure('Parcel height'),
    weight: requiredMeasure('Parcel weight'),
    uom: choice('Parcel unit', catalog.units),
    quantity: quantity('Parcel quantity').transform((n) => n ?? 1),
  });
}

/**
 * A Booking's or an Update's fields: those its body carries (the Update body is the Booking body
 * minus the Booking-only fields), its parties and its package. The courier's Update takes an empty
 * payment method; ours never sends one: an update is stored as the booking it changes, and a booking
 * without a payment method would no longer be one.
 */
function waybillShape<B extends 'book' | 'update'>(body: B, catalog: Catalog) {
  return {
    ...checksUnder(body, '', catalog),
    shipper: z.object(partyChecks('shipper')),
    consignee: group(partyChecks('consignee')),
    returnTo: z.object(partyChecks('returnTo')).optional(),
    package: group(checksUnder(body, 'package.', catalog)),
  };
}

type OrderCommon = {
  paymentMethod: unknown;
  codAmount: unknown;
  shipper: Coordinates;
  consignee: Coordinates;
  returnTo?: (Coordinates & Record<string, unknown>) | undefined;
  package: { length?: number; width?: number; height?: number };
};

/** How the cross-field rules read one kind of order. */
interface OrderRules {
  /** Its pickup and expected-delivery keys. */
  dates: readonly [string, string];
  /** What a return party must have once any of it is given. */
  returnRequired: readonly string[];
}

const quoteRules: OrderRules = {
  dates: ['pickupDate', 'expectedDeliveryDate'],
  returnRequired: ['street', 'city', 'country'],
};

const waybillRules: OrderRules = {
  dates: ['pickupAt', 'expectedDeliveryAt'],
  returnRequired: ['name', 'phone', 'street', 'city', 'country'],
};

/** The cross-field rules of every order: COD, dates in order, whole coordinates, a usable return party, whole dimensions. */
function checkOrder(
  catalog: Catalog,
  order: OrderCommon & Record<string, unknown>,
  ctx: Ctx,
  { dates: [pickup, delivery], returnRequired }: OrderRules,
  places: PlaceCheck,
) {
  checkCod(catalog, order, ctx);
  if (places === 'refuse') refusePlaces(placeProblemsOf(order), ctx);
  checkDeliveryAfterPickup(order[pickup], order[delivery], delivery, ctx);
  checkCoordinates('Sender', order.shipper, ctx, ['shipper']);
  checkCoordinates('Receiver', order.consignee, ctx, ['consignee']);
  checkPhone('Sender', order.shipper, ctx, ['shipper']);
  checkPhone('Receiver', order.consignee, ctx, ['consignee']);
  if (order.returnTo) {
    checkCoordinates('Return', order.returnTo, ctx, ['returnTo']);
    checkPhone('Return', order.returnTo, ctx, ['returnTo']);
    checkReturnParty(order.returnTo, returnRequired, ctx);
  }
  if (order.package) checkDimensions(order.package, ctx);
}

/** The parties of a checked booking or update as kept (keptParty); an empty return party means "return to the sender". */
function withParties<
  P extends PlaceParts & { district: string; phone: string; country: string },
  T extends { shipper: P; consignee: P; returnTo?: P | undefined },
>(order: T) {
  const shipper = keptParty(order.shipper);
  const returnTo = order.returnTo && !isBlankParty(order.returnTo) ? keptParty(order.returnTo) : shipper;
  return { ...order, shipper, consignee: keptParty(order.consignee), returnTo };
}

export function createWaybillSchemas(catalog: Catalog, { places = 'refuse' }: { places?: PlaceCheck } = {}) {
  // A quotation's dates are days, not instants (checksUnder).
  const quoted = checksUnder('quote', '', catalog);
  const quote = z
    .object({
      ...quoted,
      quantity: quoted.quantity.transform((n) => n ?? 1),
      shipper: group(quotePartyChecks('shipper')),
      consignee: group(quotePartyChecks('consignee')),
      returnTo: z.object(quotePartyChecks('returnTo')).optional(),
      package: group(checksUnder('quote', 'package.', catalog)),
    })
    .check(crossCheck((order, ctx) => checkOrder(catalog, order, ctx, quoteRules, places)))
    .transform(({ returnTo, ...order }) => {
      const shipper = withOfficialPlace(order.shipper);
      const { postal: _postal, ...shipperPlace } = shipper;
      const returnPlace = returnTo && !isBlankParty(returnTo) ? withOfficialPlace(returnTo) : shipperPlace;
      return { ...order, shipper, consignee: withOfficialPlace(order.consignee), returnTo: returnPlace };
    });

  const booking = z
    .object({
      ...waybillShape('book', catalog),
      childWaybills: z.preprocess(
        (value) => value ?? [],
        z.array(z.preprocess((child) => child ?? {}, childWaybillSchema(catalog))).max(MAX_CHILD_WAYBILLS),
      ),
    })
    .check(
      crossCheck((order, ctx) => {
        checkOrder(catalog, order, ctx, waybillRules, places);
        if (!Array.isArray(order.childWaybills)) return;
        const seen = new Set([order.trackingNumber]);
        order.childWaybills.forEach((child, index) => {
          if (typeof child?.trackingNumber !== 'string' || child.trackingNumber === '') return;
          if (seen.has(child.trackingNumber)) {
            ctx.addIssue({
              code: 'custom',
              path: ['childWaybills', index, 'trackingNumber'],
              message: `Parcel tracking number ${child.trackingNumber} is used twice in this booking`,
            });
          }
          seen.add(child.trackingNumber);
        });
      }),
    )
    .transform((order) => ({
      ...withParties(order),
      quantity: order.quantity ?? Math.max(1, order.childWaybills.length),
    }));

  const update = z
    .object(waybillShape('update', catalog))
    .check(crossCheck((order, ctx) => checkOrder(catalog, order, ctx, waybillRules, places)))
    .transform((order) => ({ ...withParties(order), quantity: order.quantity ?? 1 }));

  // A party on its own, as the address book keeps it: what a booking needs of its sender.
  const party = z
    .object(partyChecks({ who: 'Party', required: true }))
    .check(
      crossCheck((given, ctx) => {
        checkCoordinates('Party', given, ctx, []);
        checkPhone('Party', given, ctx, []);
        if (places === 'refuse') refusePlaces(placeProblems('Party', given, []), ctx);
      }),
    )
    .transform(keptParty);

  return { quote, booking, update, party };
}

export type WaybillSchemas = ReturnType<typeof createWaybillSchemas>;

const built = new Map<string, WaybillSchemas>();

/**
 * The schemas of a catalog and place check, built once for each: a core's are then the same objects
 * as every other core's of those settings (one core in production; many bots in a test run, where
 * building zod schemas is a good part of starting one). Keyed by the catalog's values, not the object.
 */
export function waybillSchemas(catalog: Catalog, places: PlaceCheck): WaybillSchemas {
  const key = JSON.stringify([catalog, places]);
  let schemas = built.get(key);
  if (schemas === undefined) {
    schemas = createWaybillSchemas(structuredClone(catalog), { places });
    built.set(key, schemas);
  }
  return schemas;
}
export type QuoteRequest = z.output<WaybillSchemas['quote']>;
export type Booking = z.output<WaybillSchemas['booking']>;
export type WaybillUpdate = z.output<WaybillSchemas['update']>;
export type ChildWaybill = Booking['childWaybills'][number];
export type Party = Booking['shipper'];
export type SavedPartyInput = z.output<WaybillSchemas['party']>;
export type Place = QuoteRequest['shipper'];
export type PackageDetails = Booking['package'];

export interface FieldError {
  /** Dot-joined path into the input, e.g. `consignee.phone` or `childWaybills.2.weight`. */
  path: string;
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Parses raw input; on failure, one message per field (the first found): field rules first, then cross-field ones. */
export function validate<S extends z.ZodType>(schema: S, raw: unknown): Validation<z.output<S>> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return { ok: true, value: result.data };
  const byPath = new Map<string, string>();
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  return { ok: false, errors: [...byPath].map(([path, message]) => ({ path, message })) };
}

/** The pickup a booking's input names, as the schema reads it; undefined while it is not a date and time. */
const pickupOf = (input: unknown) =>
  instant('Pickup date and time').safeParse(isObject(input) ? input.pickupAt : undefined).data;

/**
 * A booking about to be sent, validated: by the schema, and its pickup today or later, today as it is
 * in the courier's time zone; said with the other fields' problems. Not a rule of the schema itself:
 * a booking made earlier, read back from the store, may be older.
 */
export function validateToSend(
  schema: WaybillSchemas['booking'],
  input: unknown,
  { now, timeZone }: { now: Date; timeZone: string },
): Validation<Booking> {
  const checked = validate(schema, input);
  const pickup = pickupOf(input);
  const today = zonedDateAndTime(now, timeZone).date;
  if (!pickup || pickup >= instantFromZonedDateTime(today, '00:00', timeZone)) return checked;
  const past = { path: 'pickupAt', message: `Pickup date must be today (${today}) or later` };
  return { ok: false, errors: [...(checked.ok ? [] : checked.errors), past] };
}
