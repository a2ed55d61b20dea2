/** Pricing, wire schemas, the sandbox server. */
import { afterEach, describe, expect, it } from 'vitest';
import { type PricingInput, priceQuotation, quotationResponse } from '../../src/waybill/sandbox/pricing.js';
import {
  type Sandbox,
  type SandboxOptions,
  type SandboxRequestInfo,
  startSandbox,
} from '../../src/waybill/sandbox/server.js';
import {
  bookingRequestSchema,
  quotationRequestSchema,
  updateRequestSchema,
} from '../../src/waybill/sandbox/wire-schemas.js';
import {
  type BookingRequestWire,
  endpointPaths,
  type Operation,
  type QuotationRequestWire,
  type UpdateRequestWire,
} from '../../src/waybill/wire-types.js';

const TOKEN = 'test-token';

const BOOKING: BookingRequestWire = {
  OperatorContactNumber: '+639170000000',
  ServiceType: 'DOOR-TO-DOOR',
  trackingNumber: 'TN-1001',
  referenceNumber1: 'ORDER-77',
  referenceNumber2: '',
  referenceNumber3: '',
  referenceNumber4: '',
  referenceNumber5: '',
  pickupDate: '2025-03-10 09:30:00.000',
  expectedDeliveryDate: '2025-03-12 17:00:00.000',
  paymentMethod: 'COD',
  codAmount: '1500.00',
  declaredValue: '2000.00',
  quantity: '2',
  shipperCode: 'SHP-01',
  shipperName: 'Acme Store',
  shipperAddress: '12 Rizal St',
  shipperCountry: 'PH',
  shipperAddress1: 'Metro Manila',
  shipperAddress2: 'Makati',
  shipperAddress3: 'Poblacion',
  shipperAddress4: 'Unit 4',
  shipperPostal: '1210',
  shipperContact: '+639171111111',
  shipperEmail: 'shipper@example.com',
  shipperLongitude: '121.0244',
  shipperLatitude: '14.5547',
  consigneeName: 'Juan Dela Cruz',
  consigneeAddress: '5 Mabini Ave',
  consigneeCountry: 'PH',
  consigneeAddress1: 'Cebu',
  consigneeAddress2: 'Cebu City',
  consigneeAddress3: 'Lahug',
  consigneeAddress4: '',
  consigneePostal: '6000',
  consigneeContact: '+639172222222',
  consigneeEmail: 'juan@example.com',
  consigneeLongitude: '123.8854',
  consigneeLatitude: '10.3157',
  returnName: 'Acme Returns',
  returnAddress: '12 Rizal St',
  returnCountry: 'PH',
  returnAddress1: 'Metro Manila',
  returnAddress2: 'Makati',
  returnAddress3: 'Poblacion',
  returnAddress4: 'Unit 4',
  returnPostal: '1210',
  returnContact: '+639171111111',
  returnEmail: 'returns@example.com',
  returnLongitude: '121.0244',
  returnLatitude: '14.5547',
  itemDescription: 'Shoes',
  handlingInstructions: 'Fragile',
  merchantName: 'Acme',
  packageType: 'BOX',
  packageLength: '30',
  packageWidth: '20',
  packageHeight: '10',
  Packagevolume: '6000',
  PackageWeight: '2.5',
  warehouseName: 'Main WH',
  childWaybills: [
    {
      trackingNumber: 'TN-1001-1',
      packageType: 'BOX',
      itemDescription: 'Left shoe',
      remarks: '',
      length: 30,
      width: 20,
      weight: 1.25,
      height: 5,
      uom: 'cm',
      quantity: 1,
    },
    {
      trackingNumber: 'TN-1001-2',
      packageType: 'BOX',
      itemDescription: 'Right shoe',
      remarks: 'same box size',
      length: 30,
      width: 20,
      weight: 1.25,
      height: 5,
      uom: 'cm',
      quantity: 1,
    },
  ],
};

function updateFrom(booking: BookingRequestWire): UpdateRequestWire {
  const {
    OperatorContactNumber: _o,
    shipperCode: _s,
    warehouseName: _w,
    childWaybills: _c,
    handlingInstructions,
    ...core
  } = booking;
  return { ...core, handlingInstruction: handlingInstructions };
}

const UPDATE: UpdateRequestWire = {
  ...updateFrom(BOOKING),
  consigneeAddress: '7 Osmeña Blvd',
  expectedDeliveryDate: '2025-03-13 12:00:00.000',
  paymentMethod: '',
  handlingInstruction: 'Keep dry',
};

const QUOTE: QuotationRequestWire = {
  ServiceType: 'DOOR-TO-DOOR',
  pickupDate: '2025-03-10',
  expectedDeliveryDate: '2025-03-12',
  paymentMethod: 'COD',
  codAmount: '0.00',
  declaredValue: '0.00',
  quantity: '1',
  shipperCountry: 'PH',
  shipperAddress: '12 Rizal St',
  shipperAddress1: 'Metro Manila',
  shipperAddress2: 'Makati',
  shipperAddress3: 'Poblacion',
  shipperAddress4: '',
  shipperPostal: '1210',
  shipperLongitude: '121.0244',
  shipperLatitude: '14.5547',
  consigneeCountry: 'PH',
  consigneeAddress: '5 Mabini Ave',
  consigneeAddress1: 'Cebu',
  consigneeAddress2: 'Cebu City',
  consigneeAddress3: 'Lahug',
  consigneeAddress4: '',
  consigneePostal: '6000',
  consigneeLongitude: '123.8854',
  consigneeLatitude: '10.3157',
  returnAddress: '12 Rizal St',
  returnCountry: 'PH',
  returnAddress1: 'Metro Manila',
  returnAddress2: 'Makati',
  returnAddress3: 'Poblacion',
  returnAddress4: '',
  returnLongitude: '121.0244',
  returnLatitude: '14.5547',
  merchantName: 'Acme',
  packageType: 'BOX',
  packageLength: '',
  packageWidth: '',
  packageHeight: '',
  packageWeight: '1',
  Packagevolume: '',
};

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function start(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ token: TOKEN, ...options });
  sandboxes.push(sandbox);
  return sandbox;
}

function post(
  sandbox: Sandbox,
  operation: Operation,
  body: unknown,
  init: { token?: string | null; raw?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fetch(sandbox.baseUrl + endpointPaths[operation], {
    method: 'POST',
    headers,
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
}

/** Waits (by polling, not by a fixed sleep) until a condition holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('pricing (pure)', () => {
  const base: PricingInput = QUOTE;

  it('domestic, weight only: 100 + 40 × 1 kg, VAT 12 %', () => {
    expect(quotationResponse(base)).toEqual({ DeliveryCharge: 140, VAT: 16.8, TotalCharge: 156.8 });
  });

  it('rounds the actual weight up and uses dimensions when Packagevolume is empty', () => {
    // weight 2.3 -> 3 kg; 30×20×10 = 6000 cm³ -> 1.2 -> 2 kg; weight wins: 100 + 120 = 220, VAT 26.40
    const p = priceQuotation({
      ...base,
      packageWeight: '2.3',
      packageLength: '30',
      packageWidth: '20',
      packageHeight: '10',
    });
    expect(p).toMatchObject({
      chargeableKg: 3,
      decidedBy: 'weight',
      deliveryChargeCents: 22000,
      vatCents: 2640,
    });
    expect(p.totalChargeCents).toBe(24640);
  });

  it('international surcharge when the countries differ (case-insensitive)', () => {
    // 100 + 40 + 150 = 290.00, VAT 34.80, total 324.80
    expect(quotationResponse({ ...base, consigneeCountry: 'SG' })).toEqual({
      DeliveryCharge: 290,
      VAT: 34.8,
      TotalCharge: 324.8,
    });
    expect(
      quotationResponse({ ...base, shipperCountry: 'ph', consigneeCountry: ' PH ' }).DeliveryCharge,
    ).toBe(140);
  });

  it('COD fee 2 % and valuation fee 1 %, rounded half-up to the cent', () => {
    // 0.5 kg -> 1 kg: 100 + 40; COD 2 % of 1500.00 = 30.00; 1 % of 2345.67 = 23.4567 -> 23.46
    // DeliveryCharge 193.46; VAT 12 % = 23.2152 -> 23.22; total 216.68
    const p = priceQuotation({
      ...base,
      packageWeight: '0.5',
      codAmount: '1500.00',
      declaredValue: '2345.67',
    });
    expect(p).toMatchObject({ codFeeCents: 3000, valuationFeeCents: 2346, deliveryChargeCents: 19346 });
    expect(p).toMatchObject({ vatCents: 2322, totalChargeCents: 21668 });
    expect(
      quotationResponse({ ...base, packageWeight: '0.5', codAmount: '1500.00', declaredValue: '2345.67' }),
    ).toEqual({ DeliveryCharge: 193.46, VAT: 23.22, TotalCharge: 216.68 });
  });

  it('half a cent rounds up; less than half rounds down', () => {
    // 2 % of 0.25 = 0.005 -> 0.01; 1 % of 0.50 = 0.005 -> 0.01; 1 % of 0.49 = 0.0049 -> 0.00
    expect(priceQuotation({ ...base, codAmount: '0.25' }).codFeeCents).toBe(1);
    expect(priceQuotation({ ...base, declaredValue: '0.50' }).valuationFeeCents).toBe(1);
    expect(priceQuotation({ ...base, declaredValue: '0.49' }).valuationFeeCents).toBe(0);
    // VAT rounds down: DeliveryCharge 140.01 -> 16.8012 -> 16.80
    expect(priceQuotation({ ...base, declaredValue: '1.00' }).vatCents).toBe(1680);
  });

  it('no COD fee when codAmount is 0.00', () => {
    expect(priceQuotation({ ...base, codAmount: '0.00' }).codFeeCents).toBe(0);
  });

  it('volumetric weight wins when larger', () => {
    // 60000 cm³ / 5000 = 12 kg > 2 kg: 100 + 480 = 580.00, VAT 69.60, total 649.60
    expect(priceQuotation({ ...base, packageWeight: '2.00', Packagevolume: '60000' })).toMatchObject({
      chargeableKg: 12,
      decidedBy: 'volume',
    });
    expect(quotationResponse({ ...base, packageWeight: '2.00', Packagevolume: '60000' })).toEqual({
      DeliveryCharge: 580,
      VAT: 69.6,
      TotalCharge: 649.6,
    });
    // exact division does not round up; one hundredth above does
    expect(priceQuotation({ ...base, packageWeight: '', Packagevolume: '10000' }).chargeableKg).toBe(2);
    expect(priceQuotation({ ...base, packageWeight: '', Packagevolume: '10000.01' }).chargeableKg).toBe(3);
  });

  it('Packagevolume takes precedence over the dimensions; partial dimensions are ignored', () => {
    const dims = { packageLength: '100', packageWidth: '100', packageHeight: '100' }; // 200 kg volumetric
    expect(priceQuotation({ ...base, ...dims, Packagevolume: '5000' }).chargeableKg).toBe(1);
    expect(priceQuotation({ ...base, ...dims, packageHeight: '' }).chargeableKg).toBe(1);
    expect(priceQuotation({ ...base, ...dims, packageWeight: '0.1' }).chargeableKg).toBe(200);
    expect(
      priceQuotation({ ...base, packageLength: '12.5', packageWidth: '20', packageHeight: '20' })
        .chargeableKg,
    ).toBe(1); // 5000 cm³ exactly
  });

  it('minimum 1 kg when weight is zero or empty and no volume is known', () => {
    expect(priceQuotation({ ...base, packageWeight: '0' }).chargeableKg).toBe(1);
    expect(priceQuotation({ ...base, packageWeight: '' }).chargeableKg).toBe(1);
  });

  it('quantity multiplies nothing', () => {
    const five: QuotationRequestWire = { ...QUOTE, quantity: '5' };
    const one: QuotationRequestWire = { ...QUOTE, quantity: '1' };
    expect(quotationResponse(five)).toEqual(quotationResponse(one));
  });

  it('large amounts stay exact (no float drift)', () => {
    // 100 + 40 + 2 % of 99,999,999.99 (1,999,999.9998 -> 2,000,000.00) + 1 % of 12,345,678.91 (123,456.7891 -> 123,456.79)
    const p = priceQuotation({ ...base, codAmount: '99999999.99', declaredValue: '12345678.91' });
    expect(p.codFeeCents).toBe(200_000_000);
    expect(p.valuationFeeCents).toBe(12_345_679);
    expect(p.deliveryChargeCents).toBe(212_359_679);
    expect(p.vatCents).toBe(25_483_161); // 25,483,161.48 cents
    expect(
      quotationResponse({ ...base, codAmount: '99999999.99', declaredValue: '12345678.91' }).TotalCharge,
    ).toBe(2378428.4);
  });

  it('is deterministic and rejects non-decimal measures', () => {
    expect(priceQuotation(QUOTE)).toEqual(priceQuotation({ ...QUOTE }));
    expect(() => priceQuotation({ ...base, packageWeight: 'heavy' })).toThrow(RangeError);
    expect(() => priceQuotation({ ...base, codAmount: '-1.00' })).toThrow(RangeError);
  });
});

describe('wire schemas', () => {
  it('accept the sample bodies', () => {
    expect(bookingRequestSchema.safeParse(BOOKING).success).toBe(true);
    expect(bookingRequestSchema.safeParse({ ...BOOKING, childWaybills: [] }).success).toBe(true);
    expect(updateRequestSchema.safeParse(UPDATE).success).toBe(true);
    expect(quotationRequestSchema.safeParse(QUOTE).success).toBe(true);
  });

  it('reject impossible calendar dates and times', () => {
    expect(
      bookingRequestSchema.safeParse({ ...BOOKING, pickupDate: '2025-02-30 09:00:00.000' }).success,
    ).toBe(false);
    expect(
      bookingRequestSchema.safeParse({ ...BOOKING, pickupDate: '2025-02-10 24:00:00.000' }).success,
    ).toBe(false);
    expect(
      bookingRequestSchema.safeParse({ ...BOOKING, pickupDate: '2024-02-29 23:59:59.999' }).success,
    ).toBe(true);
    expect(quotationRequestSchema.safeParse({ ...QUOTE, pickupDate: '2025-13-01' }).success).toBe(false);
    expect(
      quotationRequestSchema.safeParse({ ...QUOTE, pickupDate: '2025-03-10 09:30:00.000' }).success,
    ).toBe(false);
  });

  it('reject bad child waybills', () => {
    const child = BOOKING.childWaybills[0];
    if (child === undefined) throw new Error('sample has children');
    const withChild = (patch: Record<string, unknown>) => ({
      ...BOOKING,
      childWaybills: [{ ...child, ...patch }],
    });
    expect(bookingRequestSchema.safeParse(withChild({ length: 0 })).success).toBe(false);
    expect(bookingRequestSchema.safeParse(withChild({ weight: '1.25' })).success).toBe(false);
    expect(bookingRequestSchema.safeParse(withChild({ quantity: 1.5 })).success).toBe(false);
    expect(bookingRequestSchema.safeParse(withChild({ quantity: 0 })).success).toBe(false);
    expect(bookingRequestSchema.safeParse(withChild({ trackingNumber: '' })).success).toBe(false);
    expect(bookingRequestSchema.safeParse(withChild({ extra: 'x' })).success).toBe(false);
  });
});

describe('sandbox HTTP server', () => {
  it('has a base address ending with the path prefix and a slash', async () => {
    const sandbox = await start();
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/$/);
    const other = await start({ pathPrefix: '/v2' });
    expect(other.baseUrl).toMatch(/\/v2\/$/);
    expect((await post(other, 'quote', QUOTE)).status).toBe(200);
  });

  describe('auth', () => {
    it('rejects a missing token with 401', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'book', BOOKING, { token: null });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        ResponseCode: '401',
        ResponseDetail: 'Unauthorized',
        remarks: 'missing Authorization header',
      });
      expect(sandbox.bookings.size).toBe(0);
      expect(sandbox.received).toHaveLength(1);
    });

    it('rejects a wrong token with 401', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'quote', QUOTE, { token: 'nope' });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ ResponseCode: '401', ResponseDetail: 'Unauthorized' });
    });
  });

  describe('routing', () => {
    it('404 JSON for an unknown path, 405 for another method; neither is recorded', async () => {
      const sandbox = await start();
      const notFound = await fetch(`${sandbox.baseUrl}API/Waybill/Nope`, { method: 'POST', body: '{}' });
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toMatchObject({ ResponseCode: '404' });
      const wrongMethod = await fetch(sandbox.baseUrl + endpointPaths.quote);
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
      expect(await wrongMethod.json()).toMatchObject({ ResponseCode: '405' });
      expect(sandbox.received).toHaveLength(0);
    });
  });

  describe('success', () => {
    it('Quotation answers numbers computed by pricing.ts', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'quote', { ...QUOTE, codAmount: '1500.00', consigneeCountry: 'SG' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      // 100 + 40 + 150 + 30 = 320.00; VAT 38.40; total 358.40
      expect(await res.json()).toEqual({ DeliveryCharge: 320, VAT: 38.4, TotalCharge: 358.4 });
    });

    it('Booking creates a waybill, stores it and records the exact JSON', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'book', BOOKING);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ResponseCode: '200',
        ResponseDetail: 'Success',
        remarks: 'Waybill created',
        TrackingRefNo: 'SBX00000001',
        returnNum: 3,
        id: 1,
      });
      expect(sandbox.bookings.get('TN-1001')).toEqual(BOOKING);
      expect(sandbox.received).toEqual([
        {
          operation: 'book',
          path: `/sandbox/${endpointPaths.book}`,
          headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }),
          body: BOOKING,
        },
      ]);

      const second = await post(sandbox, 'book', {
        ...BOOKING,
        trackingNumber: 'TN-1002',
        childWaybills: [],
      });
      expect(await second.json()).toMatchObject({ TrackingRefNo: 'SBX00000002', returnNum: 1, id: 2 });
    });

    it('Update merges into the stored booking (handlingInstruction -> handlingInstructions)', async () => {
      const sandbox = await start();
      await post(sandbox, 'book', BOOKING);
      const res = await post(sandbox, 'update', UPDATE);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ResponseMessage: 'Waybill TN-1001 updated',
        ResponseDetail: 'Transaction successful',
      });
      const stored = sandbox.bookings.get('TN-1001');
      expect(stored).toEqual({
        ...BOOKING,
        consigneeAddress: '7 Osmeña Blvd',
        expectedDeliveryDate: '2025-03-13 12:00:00.000',
        paymentMethod: '',
        handlingInstructions: 'Keep dry',
      });
      expect(stored).not.toHaveProperty('handlingInstruction');
    });
  });

  describe('rejections', () => {
    async function expect400(sandbox: Sandbox, operation: Operation, body: unknown, field: string | RegExp) {
      const res = await post(sandbox, operation, body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { ResponseCode: string; ResponseDetail: string; remarks: string };
      expect(json.ResponseCode).toBe('400');
      expect(json.ResponseDetail).toBe('Invalid request');
      expect(json.remarks).toMatch(field);
      return json.remarks;
    }

    it('a missing key', async () => {
      const sandbox = await start();
      const { warehouseName: _, ...missing } = BOOKING;
      expect(await expect400(sandbox, 'book', missing, 'warehouseName')).toBe('warehouseName: missing');
      expect(sandbox.bookings.size).toBe(0);
      expect(sandbox.received[0]?.body).toEqual(missing);
    });

    it('an extra key (including a Booking-only key in Update)', async () => {
      const sandbox = await start();
      expect(await expect400(sandbox, 'quote', { ...QUOTE, consigneeName: 'x' }, 'consigneeName')).toBe(
        'unexpected key consigneeName',
      );
      await post(sandbox, 'book', BOOKING);
      await expect400(sandbox, 'update', { ...UPDATE, warehouseName: 'x' }, 'unexpected key warehouseName');
      await expect400(
        sandbox,
        'update',
        { ...updateFrom(BOOKING), handlingInstructions: 'x' },
        /handlingInstructions/,
      );
    });

    it('a number where a string belongs', async () => {
      const sandbox = await start();
      expect(await expect400(sandbox, 'book', { ...BOOKING, quantity: 2 }, 'quantity')).toBe(
        'quantity: expected a string, got number',
      );
      await expect400(sandbox, 'quote', { ...QUOTE, packageWeight: 1 }, /^packageWeight: expected a string/);
    });

    it('a bad date format', async () => {
      const sandbox = await start();
      expect(await expect400(sandbox, 'book', { ...BOOKING, pickupDate: '2025-03-10' }, 'pickupDate')).toBe(
        'pickupDate: expected YYYY-MM-DD HH:MM:SS.mmm',
      );
      await expect400(sandbox, 'book', { ...BOOKING, pickupDate: '2025-03-10T09:30:00.000Z' }, /pickupDate/);
      await expect400(
        sandbox,
        'quote',
        { ...QUOTE, expectedDeliveryDate: '12/03/2025' },
        /expectedDeliveryDate/,
      );
    });

    it('a bad amount', async () => {
      const sandbox = await start();
      expect(await expect400(sandbox, 'book', { ...BOOKING, codAmount: '1500' }, 'codAmount')).toMatch(
        /^codAmount: expected decimal text with two places/,
      );
      await expect400(sandbox, 'quote', { ...QUOTE, declaredValue: '1,500.00' }, /^declaredValue/);
      await expect400(sandbox, 'book', { ...BOOKING, quantity: '1.5' }, /^quantity/);
    });

    it('an empty trackingNumber and duplicate child trackingNumbers', async () => {
      const sandbox = await start();
      await expect400(
        sandbox,
        'book',
        { ...BOOKING, trackingNumber: '' },
        'trackingNumber: must not be empty',
      );
      const [first] = BOOKING.childWaybills;
      await expect400(
        sandbox,
        'book',
        { ...BOOKING, childWaybills: [first, first] },
        'childWaybills[1].trackingNumber: duplicate child trackingNumber TN-1001-1',
      );
      await expect400(
        sandbox,
        'book',
        { ...BOOKING, childWaybills: [{ ...first, height: -1 }] },
        'childWaybills[0].height: must be a number > 0',
      );
    });

    it('a body that is not JSON or not an object', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'book', '{"trackingNumber":', { raw: true });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        ResponseCode: '400',
        ResponseDetail: 'Invalid request',
        remarks: 'body is not valid JSON',
      });
      expect(sandbox.received[0]?.body).toBe('{"trackingNumber":');
      await expect400(sandbox, 'quote', [], /^body: expected a JSON object/);
    });

    it('a duplicate booking (waybill or child trackingNumber) with 409', async () => {
      const sandbox = await start();
      expect((await post(sandbox, 'book', BOOKING)).status).toBe(200);
      const again = await post(sandbox, 'book', BOOKING);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        ResponseCode: '409',
        ResponseDetail: 'Duplicate trackingNumber',
        remarks: 'trackingNumber TN-1001 already exists',
      });
      const reusedChild = await post(sandbox, 'book', { ...BOOKING, trackingNumber: 'TN-2000' });
      expect(reusedChild.status).toBe(409);
      expect(await reusedChild.json()).toMatchObject({ remarks: 'trackingNumber TN-1001-1 already exists' });
      const childAsWaybill = await post(sandbox, 'book', {
        ...BOOKING,
        trackingNumber: 'TN-1001-2',
        childWaybills: [],
      });
      expect(childAsWaybill.status).toBe(409);
      expect([...sandbox.bookings.keys()]).toEqual(['TN-1001']);
    });

    it('an update of an unknown trackingNumber with 404', async () => {
      const sandbox = await start();
      const res = await post(sandbox, 'update', UPDATE);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        ResponseCode: '404',
        ResponseDetail: 'Not found',
        remarks: 'trackingNumber TN-1001 is not booked',
      });
    });
  });

  describe('faults', () => {
    it('status 500: answered with 500, not processed', async () => {
      const sandbox = await start();
      sandbox.injectNext({ status: 500 });
      const res = await post(sandbox, 'book', BOOKING);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ ResponseCode: '500' });
      expect(sandbox.bookings.size).toBe(0);
      expect(sandbox.received).toHaveLength(1);
      expect((await post(sandbox, 'book', BOOKING)).status).toBe(200);
    });

    it('an HTML 502 body', async () => {
      const sandbox = await start();
      sandbox.injectNext({ status: 502, body: '<html><body>502 Bad Gateway</body></html>' });
      const res = await post(sandbox, 'quote', QUOTE);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toBe('<html><body>502 Bad Gateway</body></html>');
    });

    it('a non-JSON body with status 200', async () => {
      const sandbox = await start();
      sandbox.injectNext({ body: 'not json', contentType: 'application/json' });
      const res = await post(sandbox, 'book', BOOKING);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      await expect(res.json()).rejects.toThrow();
      expect(sandbox.bookings.size).toBe(0);
    });

    it('drop: fetch rejects, the request was received but not processed', async () => {
      const sandbox = await start();
      sandbox.injectNext({ drop: true });
      await expect(post(sandbox, 'book', BOOKING)).rejects.toThrow();
      expect(sandbox.received).toHaveLength(1);
      expect(sandbox.received[0]?.body).toEqual(BOOKING);
      expect(sandbox.bookings.size).toBe(0);
    });

    it('dropAfterProcessing: fetch rejects but the booking exists, so a retry is a duplicate', async () => {
      const sandbox = await start();
      sandbox.injectNext({ dropAfterProcessing: true });
      await expect(post(sandbox, 'book', BOOKING)).rejects.toThrow();
      expect(sandbox.bookings.has('TN-1001')).toBe(true);
      expect((await post(sandbox, 'book', BOOKING)).status).toBe(409);
    });

    it('latency: the request is answered and processed after the wait', async () => {
      const infos: SandboxRequestInfo[] = [];
      const sandbox = await start({ onRequest: (info) => infos.push(info) });
      sandbox.injectNext({ latencyMs: 20 });
      const res = await post(sandbox, 'book', BOOKING);
      expect(res.status).toBe(200);
      expect(sandbox.bookings.has('TN-1001')).toBe(true);
      expect(infos).toHaveLength(1);
      expect(infos[0]).toMatchObject({ operation: 'book', status: 200 });
      expect(infos[0]?.latencyMs).toBeGreaterThanOrEqual(15);
    });

    it('holdUntil: the request is answered only once the promise settles', async () => {
      const sandbox = await start();
      let release = () => {};
      sandbox.injectNext({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
      let answered = false;
      const held = post(sandbox, 'book', BOOKING).finally(() => {
        answered = true;
      });
      await until(() => sandbox.received.length === 1);
      expect((await post(sandbox, 'quote', QUOTE)).status).toBe(200);
      expect(answered).toBe(false);
      release();
      expect((await held).status).toBe(200);
      expect(sandbox.bookings.has('TN-1001')).toBe(true);
    });

    it('a slow request is overtaken by a later fast one', async () => {
      const sandbox = await start();
      sandbox.injectNext({ latencyMs: 60_000 });
      let slowSettled = false;
      const slow = post(sandbox, 'book', BOOKING).finally(() => {
        slowSettled = true;
      });
      slow.catch(() => {});
      await until(() => sandbox.received.length === 1);
      const fast = await post(sandbox, 'quote', QUOTE);
      expect(fast.status).toBe(200);
      expect(slowSettled).toBe(false);
      expect(sandbox.bookings.size).toBe(0);
      await sandbox.close(); // cancels the pending latency; the slow request never gets an answer
      await expect(slow).rejects.toThrow();
      expect(sandbox.bookings.size).toBe(0);
    });

    it('per-request faults are consumed in order and merged over per-server faults', async () => {
      const sandbox = await start({
        faults: { body: 'maintenance', contentType: 'text/plain', status: 503 },
      });
      sandbox.injectNext({ status: 500 }, {}, { body: '<html>bad gateway</html>', contentType: 'text/html' });
      const statuses: [number, string][] = [];
      for (let i = 0; i < 4; i++) {
        const res = await post(sandbox, 'quote', QUOTE);
        statuses.push([res.status, await res.text()]);
      }
      expect(statuses).toEqual([
        [500, 'maintenance'],
        [503, 'maintenance'],
        [503, '<html>bad gateway</html>'],
        [503, 'maintenance'],
      ]);
      sandbox.setFaults(undefined);
      expect((await post(sandbox, 'quote', QUOTE)).status).toBe(200);
      sandbox.setFaults({ status: 502 });
      expect((await post(sandbox, 'quote', QUOTE)).status).toBe(502);
      sandbox.injectNext({ drop: true }, { status: 500 });
      sandbox.setFaults(undefined);
      await expect(post(sandbox, 'quote', QUOTE)).rejects.toThrow();
      expect((await post(sandbox, 'quote', QUOTE)).status).toBe(500);
      expect((await post(sandbox, 'quote', QUOTE)).status).toBe(200);
    });

    it('close() during a pending latency does not hang, and is idempotent', async () => {
      const sandbox = await start({ faults: { latencyMs: 60_000 } });
      const pending = post(sandbox, 'quote', QUOTE);
      pending.catch(() => {});
      await until(() => sandbox.received.length === 1);
      await Promise.all([sandbox.close(), sandbox.close()]);
      await expect(pending).rejects.toThrow();
      await expect(post(sandbox, 'quote', QUOTE)).rejects.toThrow();
    });
  });
});
