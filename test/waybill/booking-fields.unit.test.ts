/**
 * The table of courier fields reaches every place a field must be: the schemas, the wire bodies, the
 * sandbox, the CSV columns, the forms and the review. Each row reaches them all, and so does a made-up
 * row added to the table and nowhere else.
 */
import { describe, expect, it, vi } from 'vitest';
import { partyFormSpec } from '../../src/slack/addresses/form.js';
import { allBookingFields, fieldName } from '../../src/slack/book/form.js';
import { bookingReviewView } from '../../src/slack/book/review-view.js';
import { quoteFormSections, sectionFields } from '../../src/slack/quote/form.js';
import type { Body } from '../../src/waybill/booking-fields.js';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { bodyFields, courierFields } from '../../src/waybill/courier-fields.js';
import { bookingColumns } from '../../src/waybill/csv/columns.js';
import { getPath, money, text } from '../../src/waybill/fields.js';
import { wireRequestSchemas } from '../../src/waybill/sandbox/wire-schemas.js';
import { createWaybillSchemas, validate } from '../../src/waybill/schemas.js';
import { toBookingWire, toQuotationWire, toUpdateWire } from '../../src/waybill/wire.js';

const schemas = createWaybillSchemas(defaultCatalog, { places: 'warn' });

const party = (name: string, city: string) => ({
  name,
  phone: '0917 123 4567',
  email: 'desk@example.com',
  street: '12 Jupiter St',
  region: 'Metro Manila',
  city,
  district: 'Salcedo Village',
  barangay: 'Bel-Air',
  postal: '1209',
  country: 'PH',
  latitude: '14.5606',
  longitude: '121.0245',
});

/** A booking with every field given, so every field is in every body and on the review. */
const everything = {
  trackingNumber: 'WB-1',
  serviceType: 'DOOR_TO_DOOR',
  paymentMethod: 'COD',
  codAmount: '100',
  declaredValue: '200',
  quantity: '2',
  pickupAt: '2026-11-23T01:30:00Z',
  expectedDeliveryAt: '2026-11-25T09:00:00Z',
  itemDescription: 'Scales',
  handlingInstructions: 'Fragile',
  package: { type: 'BOX', weight: '2', length: '10', width: '11', height: '12', volume: '1500' },
  operatorContactNumber: '+63 917 555 0100',
  reference1: 'R1',
  reference2: 'R2',
  reference3: 'R3',
  reference4: 'R4',
  reference5: 'R5',
  consignee: party('Maria Santos', 'Makati'),
  shipperCode: 'S1',
  merchantName: 'Acme Online',
  warehouseName: 'Pasig WH',
  shipper: party('Acme Trading', 'Makati'),
  returnTo: party('Acme Returns', 'Pasig'),
  childWaybills: [],
};

function valid<T>(result: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!result.ok) throw new Error(`invalid test input: ${JSON.stringify(result.errors)}`);
  return result.value;
}

const booking = valid(validate(schemas.booking, everything));
const update = valid(
  validate(schemas.update, { ...everything, operatorContactNumber: undefined, childWaybills: undefined }),
);
const quote = valid(
  validate(schemas.quote, { ...everything, pickupDate: '2026-11-23', expectedDeliveryDate: '2026-11-25' }),
);
const bodies: Record<Body, Record<string, unknown>> = {
  book: toBookingWire(booking, 'Asia/Manila'),
  update: toUpdateWire(update, 'Asia/Manila'),
  quote: toQuotationWire(quote),
};

const names = courierFields.map((field) => field.path);

describe('the table of courier fields', () => {
  it('names each field once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it('reaches the Booking schema: each field is kept in a checked booking', () => {
    expect(
      names.filter((path) => getPath(booking, path) === undefined),
      "a body's schema takes the fields its wire body carries (checksUnder); a new group (like `package.`) needs its place in src/waybill/schemas.ts",
    ).toEqual([]);
  });

  it.each(['book', 'update', 'quote'] as const)(
    'reaches the %s body and the sandbox checks each of its keys',
    (body) => {
      const keys = bodyFields(body).map(({ key }) => key);
      const sent = Object.keys(bodies[body]).filter((key) => key !== 'childWaybills');
      expect(sent).toEqual(keys);
      expect(
        Object.keys(wireRequestSchemas[body].shape)
          .filter((key) => key !== 'childWaybills')
          .sort(),
      ).toEqual([...keys].sort());
      expect(wireRequestSchemas[body].safeParse(bodies[body]).success).toBe(true);
    },
  );

  it('reaches the bookings CSV file: each field has its column', () => {
    const filled = new Set(
      bookingColumns(defaultCatalog).map((column) => column.path.replace(/\.(date|time)$/, '')),
    );
    expect(
      names.filter((path) => !filled.has(path)),
      'give the row its csv column',
    ).toEqual([]);
  });

  it('reaches the booking form: each field is on one of its steps', () => {
    const shown = new Set(
      allBookingFields(defaultCatalog, 0).map((field) => field.path.replace(/\.(date|time)$/, '')),
    );
    expect(
      names.filter((path) => !shown.has(path)),
      "a field's part puts it on a step (stepFields in src/slack/book/form.ts)",
    ).toEqual([]);
  });

  it("reaches the quote form: each field of the Quotation's is on it", () => {
    const shown = new Set(sectionFields(quoteFormSections(defaultCatalog)).map((field) => field.path));
    const quoted = courierFields.filter((field) => field.wire.quote !== undefined);
    expect(
      quoted.map((field) => field.quotePath ?? field.path).filter((path) => !shown.has(path)),
      "a field's part (or quotePart) puts it in a section of src/slack/quote/form.ts",
    ).toEqual([]);
  });

  it("reaches the address book's form: each of a party's fields", () => {
    const shown = partyFormSpec(schemas.party).fields.map((field) => field.path);
    const partyKeys = courierFields.filter((field) => field.party === 'shipper').map((field) => field.path);
    expect(shown).toEqual(partyKeys.map((path) => path.replace(/^shipper\./, 'party.')));
  });

  it('reaches the review: each field of the Booking body is shown by its form name', () => {
    const view = JSON.stringify(
      bookingReviewView({
        wire: toBookingWire(booking, 'Asia/Manila'),
        env: 'sandbox',
        metadata: '',
        timeZone: 'Asia/Manila',
        currency: 'PHP',
        catalog: defaultCatalog,
      }),
    );
    const keys = bodyFields('book').map(({ key }) => key);
    const named = keys.map((key) => fieldName(key, defaultCatalog));
    expect(named.filter((name, index) => name === keys[index])).toEqual([]);
    expect(
      named.filter((name) => !view.includes(`*${name}*`)),
      "a field's part puts it in a group of reviewGroups in src/slack/book/review-view.ts",
    ).toEqual([]);
  });

  it('gives every text field a limit, which its form input holds', () => {
    const unlimited = courierFields.filter(
      (field) => (field.kind === 'text' || field.kind === 'place') && field.max === undefined,
    );
    expect(unlimited.map((field) => field.path)).toEqual([]);
  });
});

describe('a new courier field', () => {
  const table = '../../src/waybill/booking-fields.js';

  it('is one row: a made-up one reaches the schemas, the bodies, the sandbox, the CSV, the forms and the review', async () => {
    // A shipment's insured value and a party's landmark, added to the table and nowhere else.
    vi.resetModules();
    vi.doMock(table, async (importOriginal) => {
      const real = await importOriginal<typeof import('../../src/waybill/booking-fields.js')>();
      return {
        ...real,
        shipmentFields: [
          ...real.shipmentFields,
          {
            path: 'insuredValue',
            label: 'Insured value',
            kind: 'money',
            wire: 'insuredValue',
            check: ({ label }: { label: string }) => money(label),
            csv: { about: 'e.g. 500.00', example: '500.00' },
          },
        ],
        partyFields: [
          ...real.partyFields,
          {
            key: 'landmark',
            label: 'landmark',
            kind: 'text',
            max: 100,
            wire: 'Landmark',
            check: ({ label, max = 0 }: { label: string; max?: number }) => text(label, { max }),
            csv: { about: 'landmark' },
          },
        ],
      };
    });
    try {
      const { createWaybillSchemas: schemasOf, validate: check } = await import(
        '../../src/waybill/schemas.js'
      );
      const wire = await import('../../src/waybill/wire.js');
      const { wireRequestSchemas: sandbox } = await import('../../src/waybill/sandbox/wire-schemas.js');
      const { bookingColumns: columns } = await import('../../src/waybill/csv/columns.js');
      const { stepFields } = await import('../../src/slack/book/form.js');
      const { quoteFormSections: sections, sectionFields: fieldsOf } = await import(
        '../../src/slack/quote/form.js'
      );
      const { partyFormSpec: addressForm } = await import('../../src/slack/addresses/form.js');
      const { bookingReviewView: review } = await import('../../src/slack/book/review-view.js');

      const made = schemasOf(defaultCatalog, { places: 'warn' });
      const withNew = {
        ...everything,
        insuredValue: '500',
        consignee: { ...everything.consignee, landmark: 'Near the church' },
      };
      const newBooking = valid(check(made.booking, withNew));
      const newUpdate = valid(
        check(made.update, { ...withNew, operatorContactNumber: undefined, childWaybills: undefined }),
      );
      const newQuote = valid(
        check(made.quote, { ...withNew, pickupDate: '2026-11-23', expectedDeliveryDate: '2026-11-25' }),
      );
      for (const order of [newBooking, newUpdate, newQuote]) {
        expect(order).toMatchObject({ insuredValue: '500.00', shipper: { landmark: '' } });
      }
      expect(newBooking.consignee).toMatchObject({ landmark: 'Near the church' });

      const sent = {
        book: wire.toBookingWire(newBooking, 'Asia/Manila'),
        update: wire.toUpdateWire(newUpdate, 'Asia/Manila'),
        quote: wire.toQuotationWire(newQuote),
      };
      for (const body of ['book', 'update', 'quote'] as const) {
        expect(sent[body]).toMatchObject({ insuredValue: '500.00', consigneeLandmark: 'Near the church' });
        expect(Object.keys(sandbox[body].shape)).toEqual(
          expect.arrayContaining(['insuredValue', 'shipperLandmark', 'consigneeLandmark', 'returnLandmark']),
        );
        expect(sandbox[body].safeParse(sent[body]).success).toBe(true);
      }

      expect(columns(defaultCatalog).map((column) => column.header)).toEqual(
        expect.arrayContaining(['insured_value', 'sender_landmark', 'receiver_landmark', 'return_landmark']),
      );

      const paths = (fields: readonly { path: string }[]) => fields.map((field) => field.path);
      expect(paths(stepFields('shipment', defaultCatalog, 0))).toContain('insuredValue');
      expect(paths(stepFields('receiver', defaultCatalog, 0))).toContain('consignee.landmark');
      expect(paths(stepFields('sender', defaultCatalog, 0))).toEqual(
        expect.arrayContaining(['shipper.landmark', 'returnTo.landmark']),
      );
      expect(paths(fieldsOf(sections(defaultCatalog)))).toEqual(
        expect.arrayContaining([
          'insuredValue',
          'shipper.landmark',
          'consignee.landmark',
          'returnTo.landmark',
        ]),
      );
      expect(paths(addressForm(made.party).fields)).toContain('party.landmark');

      const shown = JSON.stringify(
        review({
          wire: sent.book,
          env: 'sandbox',
          metadata: '',
          timeZone: 'Asia/Manila',
          currency: 'PHP',
          catalog: defaultCatalog,
        }),
      );
      expect(shown).toContain('*Insured value*');
      expect(shown).toContain('*Receiver landmark*');
    } finally {
      vi.doUnmock(table);
      vi.resetModules();
    }
  });
});
