/** What a dispatcher types into the /book steps: plain values, for unit tests and the end-to-end flows alike. */

export const shipment = {
  paymentMethod: 'COD',
  codAmount: '1500',
  declaredValue: '2000',
  itemDescription: 'Kitchen scales',
  handlingInstructions: 'Fragile',
  'package.type': 'BOX',
  'package.weight': '4.5',
  'package.length': '40',
  'package.width': '30',
  'package.height': '20',
  operatorContactNumber: '+63 917 555 0100',
  reference1: 'PO-77',
};

export const receiver = {
  'consignee.name': 'Maria Santos',
  'consignee.phone': '0917 123 4567',
  'consignee.street': '88 Rizal Ave',
  'consignee.city': 'Cebu City',
  'consignee.country': 'ph',
  'consignee.postal': '6000',
};

export const parcel = (i: number, weight: string) => ({
  [`childWaybills.${i}.packageType`]: 'BOX',
  [`childWaybills.${i}.itemDescription`]: `Scale ${i + 1}`,
  [`childWaybills.${i}.length`]: '30',
  [`childWaybills.${i}.width`]: '20',
  [`childWaybills.${i}.height`]: '10',
  [`childWaybills.${i}.weight`]: weight,
});
