// Bookings to print, as the Booking schema makes them (Latin names, COD or prepaid): for the label tests and the benchmark.
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
  neighbourhood: '',
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

export { party as sampleParty };
