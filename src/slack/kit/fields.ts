/** Form fields several forms share: places, contacts, the package and payment. */
import type { Catalog } from '../../waybill/catalog.js';
import { labelOf } from '../../waybill/catalog.js';
import type { FormField } from './forms.js';

/** The form fields of a place; `who` is the schema prefix (`shipper`, `consignee`, `returnTo`). */
export function placeFields(who: string, { postal = true } = {}): FormField[] {
  return [
    {
      path: `${who}.street`,
      label: 'Address',
      kind: 'text',
      maxLength: 200,
      placeholder: 'Street and number',
    },
    {
      path: `${who}.region`,
      label: 'Province / region',
      kind: 'place',
      level: 'province',
      placeholder: 'Type to find a province',
    },
    {
      path: `${who}.city`,
      label: 'City',
      kind: 'place',
      level: 'city',
      placeholder: 'Type to find a city or municipality',
    },
    { path: `${who}.district`, label: 'District', kind: 'text', maxLength: 100 },
    {
      path: `${who}.barangay`,
      label: 'Barangay',
      kind: 'place',
      level: 'barangay',
      placeholder: 'Type to find a barangay',
    },
    ...(postal
      ? [{ path: `${who}.postal`, label: 'Postal code', kind: 'text' as const, maxLength: 20 }]
      : []),
    {
      path: `${who}.country`,
      label: 'Country',
      kind: 'text',
      maxLength: 2,
      placeholder: 'PH',
      hint: 'Two letters',
    },
    { path: `${who}.latitude`, label: 'Latitude', kind: 'decimal', placeholder: '14.5547' },
    { path: `${who}.longitude`, label: 'Longitude', kind: 'decimal', placeholder: '121.0244' },
  ];
}

export function contactFields(who: string): FormField[] {
  return [
    { path: `${who}.name`, label: 'Name', kind: 'text', maxLength: 100 },
    { path: `${who}.phone`, label: 'Phone', kind: 'text', maxLength: 30, placeholder: '+63 917 123 4567' },
    { path: `${who}.email`, label: 'E-mail', kind: 'email' },
  ];
}

export function packageFields(catalog: Catalog): FormField[] {
  return [
    { path: 'package.type', label: 'Package type', kind: 'select', options: catalog.packageTypes },
    { path: 'package.weight', label: 'Weight (kg)', kind: 'decimal' },
    { path: 'package.length', label: 'Length (cm)', kind: 'decimal' },
    { path: 'package.width', label: 'Width (cm)', kind: 'decimal' },
    { path: 'package.height', label: 'Height (cm)', kind: 'decimal' },
    {
      path: 'package.volume',
      label: 'Volume (cm³)',
      kind: 'decimal',
      hint: 'Leave empty to use length × width × height',
    },
  ];
}

export function paymentFields(catalog: Catalog): FormField[] {
  const cod = labelOf(catalog.paymentMethods, catalog.codPaymentMethod);
  return [
    { path: 'serviceType', label: 'Service type', kind: 'select', options: catalog.serviceTypes },
    { path: 'paymentMethod', label: 'Payment method', kind: 'select', options: catalog.paymentMethods },
    { path: 'codAmount', label: 'COD amount', kind: 'decimal', hint: `Only for ${cod}` },
    { path: 'declaredValue', label: 'Declared value', kind: 'decimal' },
    { path: 'quantity', label: 'Number of parcels', kind: 'integer' },
  ];
}
