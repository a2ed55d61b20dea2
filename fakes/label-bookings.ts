// Bookings to print, as the Booking schema makes them (Latin names, COD or prepaid): for the label tests and the benchmark.
import type { PrintSettings } from '../src/labels/label.js';
import { defaultCatalog } from '../src/waybill/catalog.js';
import { type Booking, createWaybillSchemas, validate } from '../src/waybill/schemas.js';

// Labels print names in any script, places too (a city in Hebrew): the place list only warns of them.
const schemas = createWaybillSchemas(defaultCatalog, { places: 'warn' });

const party = (name: string, city: string, extra: Record<string, string> = {}) => ({
  name,
  phone: '0917 123 4567',
  email: '',
  street: '88 Rizal Ave',
  region: 'Cebu',
  city,
  district: 'Lahug',
  barangay: '',
  postal: '6000',
  country: 'PH',
  latitude: '',
  longitude: '',
  ...extra,
});

/** A valid booking; `changes` are typed values over the defaults (strings, as a form gives them). */
export function sampleBooking(trackingNumber: string, changes: Record<string, unknown> = {}): Booking {
  const result = validate(schemas.booking, {
    trackingNumber,
    operatorContactNumber: '+63 917 555 0100',
    serviceType: 'DOOR_TO_DOOR',
    pickupAt: '2026-11-23T01:30:00Z',
    expectedDeliveryAt: '2026-11-25T09:00:00Z',
    paymentMethod: 'COD',
    codAmount: '1500',
    declaredValue: '2000',
    shipperCode: 'ACME-MKT',
    shipper: party('Acme Trading Inc.', 'Makati', {
      region: 'Metro Manila',
      district: 'San Lorenzo',
      street: '12F Sample Tower, 100 Ayala Avenue',
      postal: '1223',
    }),
    consignee: party('Ni\u00f1a Pe\u00f1afrancia', 'Cebu City'),
    itemDescription: 'Kitchen scales',
    handlingInstructions: 'Fragile: this side up',
    package: { type: 'BOX', weight: '2.5' },
    quantity: '1',
    ...changes,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

/** 4x6 labels in pesos and Manila's time, with the test mark. */
export const samplePrintSettings: PrintSettings = {
  pageSize: '4x6',
  catalog: defaultCatalog,
  currency: 'PHP',
  timeZone: 'Asia/Manila',
  live: false,
};

export { party as sampleParty };

/** Parcel `trackingNumber` of a booking with child waybills: a box, `weight` kg. */
export function sampleChild(trackingNumber: string, weight = '1.5') {
  return {
    trackingNumber,
    packageType: 'BOX',
    itemDescription: `Part ${trackingNumber.slice(-1)}`,
    remarks: '',
    length: '30',
    width: '20',
    height: '5',
    weight,
    uom: 'CM',
    quantity: '',
  };
}

/** A booking whose names, addresses and details are as long as the rules allow, or nearly. */
export function overlongBooking(trackingNumber: string): Booking {
  const long = 'Jos\u00e9 \u00d1. Dela Cruz y Ma\u00f1alac '.repeat(6);
  return sampleBooking(trackingNumber, {
    consignee: party(long.slice(0, 100), 'Cebu City', {
      street: 'Unit 4B, Building 7, Compound '.repeat(6).slice(0, 200),
    }),
    shipper: party('Acme '.repeat(20).slice(0, 100), 'Makati', { street: 'Tower '.repeat(33).slice(0, 200) }),
    itemDescription: 'Scales '.repeat(70).slice(0, 500),
    handlingInstructions: 'Careful '.repeat(60).slice(0, 500),
  });
}
