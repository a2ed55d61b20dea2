/** Golden wire JSON, written by hand from the interface, key for key. */
import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { wireRequestSchemas } from '../../src/waybill/sandbox/wire-schemas.js';
import { createWaybillSchemas, validate } from '../../src/waybill/schemas.js';
import { decimalText, toBookingWire, toQuotationWire, toUpdateWire } from '../../src/waybill/wire.js';

/**
 * Golden wire JSON: each expected body is written out by hand from the courier's interface (docs/courier-interface.md),
 * key for key, so a renamed, missing or extra key (or a number where a string belongs) fails here.
 */

const schemas = createWaybillSchemas(defaultCatalog);

function parsed<T>(result: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!result.ok) throw new Error(`invalid test input: ${JSON.stringify(result.errors)}`);
  return result.value;
}

const shipper = {
  name: 'Acme Trading',
  phone: '+63 2 8123 4567',
  email: 'dispatch@acme.example',
  street: '12 Jupiter St',
  region: 'Metro Manila',
  city: 'Makati',
  district: 'Salcedo Village',
  barangay: 'Bel-Air',
  postal: '1209',
  country: 'ph',
  latitude: '14.5606',
  longitude: '121.0245',
};

const consignee = {
  name: 'Maria Santos',
  phone: '0917 123 4567',
  email: '',
  street: '88 Rizal Ave',
  region: 'Cebu',
  city: 'Cebu City',
  district: 'Lahug',
  barangay: '',
  postal: '6000',
  country: 'PH',
  latitude: '',
  longitude: '',
};

const bookingInput = {
  trackingNumber: 'WB-1001',
  operatorContactNumber: '+63 917 555 0100',
  serviceType: 'DOOR_TO_DOOR',
  reference1: 'PO-77',
  reference2: '',
  reference3: null,
  pickupAt: '2026-11-23T01:30:00Z',
  expectedDeliveryAt: '2026-11-25T09:00:00.250Z',
  paymentMethod: 'COD',
  codAmount: '1500',
  declaredValue: '2,000.5',
  shipperCode: 'ACME01',
  shipper,
  consignee,
  returnTo: {},
  itemDescription: 'Kitchen scales',
  handlingInstructions: 'Fragile',
  merchantName: 'Acme Online',
  warehouseName: 'Pasig WH',
  package: { type: 'BOX', length: '30', width: '20', height: '10.5', weight: '2.5' },
  childWaybills: [
    {
      trackingNumber: 'WB-1001-01',
      packageType: 'BOX',
      itemDescription: 'Scale A',
      remarks: '',
      length: '30',
      width: '20',
      height: '5',
      weight: '1.25',
      uom: 'CM',
      quantity: '',
    },
    {
      trackingNumber: 'WB-1001-02',
      packageType: 'DOCUMENTS',
      itemDescription: 'Invoice',
      remarks: 'Tape to box',
      length: '30',
      width: '20',
      height: '5.5',
      weight: '1.25',
      uom: 'CM',
      quantity: '2',
    },
  ],
};

const expectedShipper = {
  shipperName: 'Acme Trading',
  shipperAddress: '12 Jupiter St',
  shipperCountry: 'PH',
  shipperAddress1: 'Metro Manila',
  shipperAddress2: 'City of Makati',
  shipperAddress3: 'Salcedo Village',
  shipperAddress4: 'Bel-Air',
  shipperPostal: '1209',
  shipperContact: '+63 2 8123 4567',
  shipperEmail: 'dispatch@acme.example',
  shipperLongitude: '121.0245',
  shipperLatitude: '14.5606',
};

const expectedConsignee = {
  consigneeName: 'Maria Santos',
  consigneeAddress: '88 Rizal Ave',
  consigneeCountry: 'PH',
  consigneeAddress1: 'Cebu',
  consigneeAddress2: 'City of Cebu',
  consigneeAddress3: 'Lahug',
  consigneeAddress4: '',
  consigneePostal: '6000',
  consigneeContact: '0917 123 4567',
  consigneeEmail: '',
  consigneeLongitude: '',
  consigneeLatitude: '',
};

/** The return party was left empty, so it is the sender. */
const expectedReturn = {
  returnName: 'Acme Trading',
  returnAddress: '12 Jupiter St',
  returnCountry: 'PH',
  returnAddress1: 'Metro Manila',
  returnAddress2: 'City of Makati',
  returnAddress3: 'Salcedo Village',
  returnAddress4: 'Bel-Air',
  returnPostal: '1209',
  returnContact: '+63 2 8123 4567',
  returnEmail: 'dispatch@acme.example',
  returnLongitude: '121.0245',
  returnLatitude: '14.5606',
};

const expectedWaybillCore = {
  ServiceType: 'DOOR_TO_DOOR',
  trackingNumber: 'WB-1001',
  referenceNumber1: 'PO-77',
  referenceNumber2: '',
  referenceNumber3: '',
  referenceNumber4: '',
  referenceNumber5: '',
  pickupDate: '2026-11-23 09:30:00.000',
  expectedDeliveryDate: '2026-11-25 17:00:00.250',
  paymentMethod: 'COD',
  codAmount: '1500.00',
  declaredValue: '2000.50',
  quantity: '2',
  ...expectedShipper,
  ...expectedConsignee,
  ...expectedReturn,
  itemDescription: 'Kitchen scales',
  merchantName: 'Acme Online',
  packageType: 'BOX',
  packageLength: '30',
  packageWidth: '20',
  packageHeight: '10.5',
  Packagevolume: '6300',
  PackageWeight: '2.5',
};

describe('Booking wire JSON', () => {
  const wire = toBookingWire(parsed(validate(schemas.booking, bookingInput)), 'Asia/Manila');

  it('is the interface body, key for key, with the Booking-only fields and childWaybills', () => {
    expect(wire).toStrictEqual({
      OperatorContactNumber: '+63 917 555 0100',
      ...expectedWaybillCore,
      shipperCode: 'ACME01',
      handlingInstructions: 'Fragile',
      warehouseName: 'Pasig WH',
      childWaybills: [
        {
          trackingNumber: 'WB-1001-01',
          packageType: 'BOX',
          itemDescription: 'Scale A',
          remarks: '',
          length: 30,
          width: 20,
          weight: 1.25,
          height: 5,
          uom: 'CM',
          quantity: 1,
        },
        {
          trackingNumber: 'WB-1001-02',
          packageType: 'DOCUMENTS',
          itemDescription: 'Invoice',
          remarks: 'Tape to box',
          length: 30,
          width: 20,
          weight: 1.25,
          height: 5.5,
          uom: 'CM',
          quantity: 2,
        },
      ],
    });
  });

  it('spells the quirky keys as the interface does', () => {
    expect(Object.keys(wire)).toEqual(
      expect.arrayContaining([
        'Packagevolume',
        'PackageWeight',
        'handlingInstructions',
        'OperatorContactNumber',
      ]),
    );
    expect(wire).not.toHaveProperty('packageWeight');
    expect(wire).not.toHaveProperty('handlingInstruction');
    expect(wire).not.toHaveProperty('PackageVolume');
  });

  it('sends every value as a string except the child measures and quantity', () => {
    const { childWaybills, ...rest } = wire;
    for (const [key, value] of Object.entries(rest)) expect(typeof value, key).toBe('string');
    for (const child of childWaybills) {
      for (const key of ['length', 'width', 'weight', 'height', 'quantity'] as const) {
        expect(typeof child[key], key).toBe('number');
      }
    }
  });

  it('is accepted by the sandbox, which checks the interface independently', () => {
    expect(wireRequestSchemas.book.safeParse(wire).success).toBe(true);
  });

  it('writes its keys in the order the courier has always had them, so the JSON is the same byte for byte', () => {
    expect(Object.keys(wire)).toEqual([
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
      'shipperAddress',
      'shipperCountry',
      'shipperAddress1',
      'shipperAddress2',
      'shipperAddress3',
      'shipperAddress4',
      'shipperLongitude',
      'shipperLatitude',
      'shipperPostal',
      'shipperName',
      'shipperContact',
      'shipperEmail',
      'consigneeAddress',
      'consigneeCountry',
      'consigneeAddress1',
      'consigneeAddress2',
      'consigneeAddress3',
      'consigneeAddress4',
      'consigneeLongitude',
      'consigneeLatitude',
      'consigneePostal',
      'consigneeName',
      'consigneeContact',
      'consigneeEmail',
      'returnAddress',
      'returnCountry',
      'returnAddress1',
      'returnAddress2',
      'returnAddress3',
      'returnAddress4',
      'returnLongitude',
      'returnLatitude',
      'returnPostal',
      'returnName',
      'returnContact',
      'returnEmail',
      'itemDescription',
      'handlingInstructions',
      'merchantName',
      'packageType',
      'packageLength',
      'packageWidth',
      'packageHeight',
      'Packagevolume',
      'PackageWeight',
      'warehouseName',
      'childWaybills',
    ]);
  });

  it('writes date-times in the configured zone, whatever zone the dispatcher was in', () => {
    const utc = toBookingWire(parsed(validate(schemas.booking, bookingInput)), 'UTC');
    expect(utc.pickupDate).toBe('2026-11-23 01:30:00.000');
    expect(utc.expectedDeliveryDate).toBe('2026-11-25 09:00:00.250');
  });

  it('defaults the parcel count to the number of child waybills, and a given volume wins', () => {
    const input = { ...bookingInput, quantity: '', package: { ...bookingInput.package, volume: '7000' } };
    const body = toBookingWire(parsed(validate(schemas.booking, input)), 'UTC');
    expect(body.quantity).toBe('2');
    expect(body.Packagevolume).toBe('7000');
  });
});

describe('Update wire JSON', () => {
  const { operatorContactNumber, shipperCode, warehouseName, childWaybills, ...updateInput } = bookingInput;
  const wire = toUpdateWire(
    parsed(validate(schemas.update, { ...updateInput, quantity: '2', paymentMethod: 'COD' })),
    'Asia/Manila',
  );

  it('is the Booking body without the Booking-only fields and with handlingInstruction (singular)', () => {
    expect(wire).toStrictEqual({ ...expectedWaybillCore, handlingInstruction: 'Fragile' });
  });

  it('is accepted by the sandbox', () => {
    expect(wireRequestSchemas.update.safeParse(wire).success).toBe(true);
  });

  it("writes its keys in the order the courier has always had them: the Booking body's, less its own", () => {
    const bookingOnly = ['OperatorContactNumber', 'shipperCode', 'warehouseName', 'childWaybills'];
    const booking = Object.keys(toBookingWire(parsed(validate(schemas.booking, bookingInput)), 'UTC'));
    expect(Object.keys(wire)).toEqual(
      booking
        .filter((key) => !bookingOnly.includes(key))
        .map((key) => (key === 'handlingInstructions' ? 'handlingInstruction' : key)),
    );
  });
});

describe('Quotation wire JSON', () => {
  const quoteInput = {
    serviceType: 'DOOR_TO_DOOR',
    paymentMethod: 'PREPAID',
    codAmount: '',
    declaredValue: '1200',
    quantity: '3',
    pickupDate: '2026-11-23',
    expectedDeliveryDate: '2026-11-25',
    shipper: { ...shipper, name: undefined, phone: undefined, email: undefined },
    consignee: { street: '1 Orchard Rd', city: 'Singapore', country: 'sg', postal: '238823' },
    returnTo: { street: '5 Depot Rd', city: 'Taguig', country: 'PH', latitude: '-14.5', longitude: '-121' },
    merchantName: '',
    package: { type: 'DOCUMENTS', weight: '0.5' },
  };
  const wire = toQuotationWire(parsed(validate(schemas.quote, quoteInput)));

  it('is the Quotation subset: no names, contacts, e-mails or returnPostal; dates only; packageWeight', () => {
    expect(wire).toStrictEqual({
      ServiceType: 'DOOR_TO_DOOR',
      pickupDate: '2026-11-23',
      expectedDeliveryDate: '2026-11-25',
      paymentMethod: 'PREPAID',
      codAmount: '0.00',
      declaredValue: '1200.00',
      quantity: '3',
      shipperCountry: 'PH',
      shipperAddress: '12 Jupiter St',
      shipperAddress1: 'Metro Manila',
      shipperAddress2: 'City of Makati',
      shipperAddress3: 'Salcedo Village',
      shipperAddress4: 'Bel-Air',
      shipperPostal: '1209',
      shipperLongitude: '121.0245',
      shipperLatitude: '14.5606',
      consigneeCountry: 'SG',
      consigneeAddress: '1 Orchard Rd',
      consigneeAddress1: '',
      consigneeAddress2: 'Singapore',
      consigneeAddress3: '',
      consigneeAddress4: '',
      consigneePostal: '238823',
      consigneeLongitude: '',
      consigneeLatitude: '',
      returnAddress: '5 Depot Rd',
      returnCountry: 'PH',
      returnAddress1: '',
      returnAddress2: 'City of Taguig',
      returnAddress3: '',
      returnAddress4: '',
      returnLongitude: '-121',
      returnLatitude: '-14.5',
      merchantName: '',
      packageType: 'DOCUMENTS',
      packageLength: '',
      packageWidth: '',
      packageHeight: '',
      packageWeight: '0.5',
      Packagevolume: '',
    });
  });

  it('is accepted by the sandbox', () => {
    expect(wireRequestSchemas.quote.safeParse(wire).success).toBe(true);
  });

  it('writes its keys in the order the courier has always had them', () => {
    expect(Object.keys(wire)).toEqual([
      'ServiceType',
      'pickupDate',
      'expectedDeliveryDate',
      'paymentMethod',
      'codAmount',
      'declaredValue',
      'quantity',
      'shipperAddress',
      'shipperCountry',
      'shipperAddress1',
      'shipperAddress2',
      'shipperAddress3',
      'shipperAddress4',
      'shipperLongitude',
      'shipperLatitude',
      'shipperPostal',
      'consigneeAddress',
      'consigneeCountry',
      'consigneeAddress1',
      'consigneeAddress2',
      'consigneeAddress3',
      'consigneeAddress4',
      'consigneeLongitude',
      'consigneeLatitude',
      'consigneePostal',
      'returnAddress',
      'returnCountry',
      'returnAddress1',
      'returnAddress2',
      'returnAddress3',
      'returnAddress4',
      'returnLongitude',
      'returnLatitude',
      'merchantName',
      'packageType',
      'packageLength',
      'packageWidth',
      'packageHeight',
      'packageWeight',
      'Packagevolume',
    ]);
  });

  it('returns to the sender when no return place is given (without a postal code)', () => {
    const body = toQuotationWire(parsed(validate(schemas.quote, { ...quoteInput, returnTo: undefined })));
    expect(body.returnAddress).toBe('12 Jupiter St');
    expect(body.returnLatitude).toBe('14.5606');
    expect(body).not.toHaveProperty('returnPostal');
  });
});

describe('decimal text', () => {
  it.each([
    [2.5, '2.5'],
    [10, '10'],
    [1e-7, '0.0000001'],
    [undefined, ''],
  ])('%s is written as %j', (value, text) => {
    expect(decimalText(value)).toBe(text);
  });
});
