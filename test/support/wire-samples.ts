/**
 * Valid wire bodies of the courier's interface (docs/courier-interface.md), typed against wire-types.ts.
 * Each function returns a fresh object; pass a trackingNumber to avoid the sandbox's duplicate check.
 */
import type {
  BookingRequestWire,
  ChildWaybillWire,
  QuotationRequestWire,
  UpdateRequestWire,
  WaybillCoreWire,
} from '../../src/waybill/wire-types.js';

let sequence = 0;

/** A tracking number unique within this test process. */
export function uniqueTrackingNumber(prefix = 'TST'): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${String(sequence).padStart(4, '0')}`;
}

function core(trackingNumber: string): WaybillCoreWire {
  return {
    ServiceType: 'Door to Door',
    trackingNumber,
    referenceNumber1: 'ORDER-1001',
    referenceNumber2: '',
    referenceNumber3: '',
    referenceNumber4: '',
    referenceNumber5: '',
    pickupDate: '2030-03-14 09:30:00.000',
    expectedDeliveryDate: '2030-03-15 17:00:00.000',
    paymentMethod: 'COD',
    codAmount: '1500.00',
    declaredValue: '1500.00',
    quantity: '2',
    itemDescription: 'Books and a lamp',
    merchantName: 'Example Books',
    packageType: 'Box',
    packageLength: '30',
    packageWidth: '20',
    packageHeight: '15',
    Packagevolume: '9000',
    PackageWeight: '2.5',
    shipperName: 'Example Books Warehouse',
    shipperAddress: '12 Dock Road',
    shipperCountry: 'PH',
    shipperAddress1: 'Metro Manila',
    shipperAddress2: 'Manila',
    shipperAddress3: 'Tondo',
    shipperAddress4: 'Barangay 101',
    shipperPostal: '1012',
    shipperContact: '+639170000001',
    shipperEmail: 'dispatch@example.com',
    shipperLongitude: '120.9667',
    shipperLatitude: '14.6167',
    consigneeName: 'Maria Santos',
    consigneeAddress: '45 Mabini Street',
    consigneeCountry: 'PH',
    consigneeAddress1: 'Metro Manila',
    consigneeAddress2: 'Quezon City',
    consigneeAddress3: 'Diliman',
    consigneeAddress4: 'Barangay UP Campus',
    consigneePostal: '1101',
    consigneeContact: '+639170000002',
    consigneeEmail: 'maria@example.com',
    consigneeLongitude: '121.0583',
    consigneeLatitude: '14.6549',
    returnName: 'Example Books Returns',
    returnAddress: '12 Dock Road',
    returnCountry: 'PH',
    returnAddress1: 'Metro Manila',
    returnAddress2: 'Manila',
    returnAddress3: 'Tondo',
    returnAddress4: 'Barangay 101',
    returnPostal: '1012',
    returnContact: '+639170000003',
    returnEmail: 'returns@example.com',
    returnLongitude: '120.9667',
    returnLatitude: '14.6167',
  };
}

function child(trackingNumber: string, overrides: Partial<ChildWaybillWire> = {}): ChildWaybillWire {
  return {
    trackingNumber,
    packageType: 'Box',
    itemDescription: 'Books',
    remarks: '',
    length: 30,
    width: 20,
    weight: 1.5,
    height: 10,
    uom: 'cm',
    quantity: 1,
    ...overrides,
  };
}

export function sampleBooking(trackingNumber: string = uniqueTrackingNumber()): BookingRequestWire {
  return {
    ...core(trackingNumber),
    OperatorContactNumber: '+639170000000',
    shipperCode: 'SHP-001',
    handlingInstructions: 'Fragile: lamp inside',
    warehouseName: 'Manila Main',
    childWaybills: [
      child(`${trackingNumber}-1`),
      child(`${trackingNumber}-2`, { itemDescription: 'Lamp', weight: 1, height: 5, remarks: 'fragile' }),
    ],
  };
}

export function sampleUpdate(trackingNumber: string = uniqueTrackingNumber()): UpdateRequestWire {
  return {
    ...core(trackingNumber),
    paymentMethod: '',
    handlingInstruction: 'Call before delivery',
  };
}

/** Quotation has no trackingNumber; the argument is accepted for symmetry and ignored. */
export function sampleQuotation(_trackingNumber?: string): QuotationRequestWire {
  return {
    ServiceType: 'Door to Door',
    pickupDate: '2030-03-14',
    expectedDeliveryDate: '2030-03-15',
    paymentMethod: 'COD',
    codAmount: '1500.00',
    declaredValue: '1500.00',
    quantity: '1',
    shipperCountry: 'PH',
    shipperAddress: '12 Dock Road',
    shipperAddress1: 'Metro Manila',
    shipperAddress2: 'Manila',
    shipperAddress3: 'Tondo',
    shipperAddress4: 'Barangay 101',
    shipperPostal: '1012',
    shipperLongitude: '120.9667',
    shipperLatitude: '14.6167',
    consigneeCountry: 'PH',
    consigneeAddress: '45 Mabini Street',
    consigneeAddress1: 'Metro Manila',
    consigneeAddress2: 'Quezon City',
    consigneeAddress3: 'Diliman',
    consigneeAddress4: 'Barangay UP Campus',
    consigneePostal: '1101',
    consigneeLongitude: '121.0583',
    consigneeLatitude: '14.6549',
    returnCountry: 'PH',
    returnAddress: '12 Dock Road',
    returnAddress1: 'Metro Manila',
    returnAddress2: 'Manila',
    returnAddress3: 'Tondo',
    returnAddress4: 'Barangay 101',
    returnLongitude: '120.9667',
    returnLatitude: '14.6167',
    merchantName: 'Example Books',
    packageType: 'Box',
    packageLength: '30',
    packageWidth: '20',
    packageHeight: '15',
    packageWeight: '2.5',
    Packagevolume: '9000',
  };
}
