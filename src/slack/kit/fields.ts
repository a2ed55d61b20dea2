/** Courier fields as form inputs, from the table of courier fields: places, contacts, the package and payment. */
import { type CourierField, courierFields, type PartyKey } from '../../waybill/booking-fields.js';
import type { Catalog } from '../../waybill/catalog.js';
import { PHONE_MAX_LENGTH, TRACKING_NUMBER_MAX_LENGTH } from '../../waybill/fields.js';
import type { FormField } from './forms.js';

/**
 * A courier field's inputs, as its kind and form hints say (booking-fields.ts): one, or a date's two
 * pickers. The catalogue gives a choice's options and a hint of it; a party's fields need none.
 */
function inputsOf(field: CourierField, path: string, catalog?: Catalog): FormField[] {
  const { label, placeholder, hint, multiline, level } = field.form;
  const input = {
    path,
    label,
    ...(placeholder === undefined ? {} : { placeholder }),
    ...(hint === undefined
      ? {}
      : { hint: typeof hint === 'function' ? (catalog ? hint(catalog) : '') : hint }),
  };
  const text = (maxLength: number): FormField[] => [
    { ...input, kind: multiline ? 'multiline' : 'text', maxLength },
  ];
  switch (field.kind) {
    case 'tracking':
      return text(TRACKING_NUMBER_MAX_LENGTH);
    case 'phone':
      return text(PHONE_MAX_LENGTH);
    case 'country':
      return text(2);
    case 'text':
      return text(field.max ?? 0);
    case 'place':
      return [{ ...input, kind: 'place', ...(level === undefined ? {} : { level }) }];
    case 'choice':
      return [{ ...input, kind: 'select', options: field.choices && catalog ? catalog[field.choices] : [] }];
    case 'money':
    case 'measure':
    case 'coordinate':
      return [{ ...input, kind: 'decimal' }];
    case 'count':
      return [{ ...input, kind: 'integer' }];
    case 'email':
      return [{ ...input, kind: 'email' }];
    case 'date':
      return [
        { ...input, path: `${path}.date`, label: label.replace(/ and time$/, ''), kind: 'date' },
        { ...input, path: `${path}.time`, label: label.replace(/ date and time$/, ' time'), kind: 'time' },
      ];
  }
}

/** The inputs of these courier fields, by path, in the order given. */
export function fieldInputs(catalog: Catalog, ...paths: string[]): FormField[] {
  return paths.flatMap((path) => {
    const field = courierFields.find((f) => f.path === path);
    if (!field) throw new Error(`No courier field ${path}`);
    return inputsOf(field, path, catalog);
  });
}

/**
 * A party's inputs: all its fields, or only those the Quotation carries of it; under `prefix` when it is
 * not the party's own (the address book's `party`).
 */
export function partyFields(
  party: PartyKey,
  { quote = false, prefix = party }: { quote?: boolean; prefix?: string } = {},
): FormField[] {
  return courierFields
    .filter((field) => field.party === party && (!quote || field.wire.quote !== undefined))
    .flatMap((field) => inputsOf(field, `${prefix}.${field.path.slice(party.length + 1)}`));
}

/** The package's inputs, in the table's order. */
export function packageFields(catalog: Catalog): FormField[] {
  const paths = courierFields.filter((field) => field.path.startsWith('package.')).map((field) => field.path);
  return fieldInputs(catalog, ...paths);
}

export function paymentFields(catalog: Catalog): FormField[] {
  return fieldInputs(catalog, 'serviceType', 'paymentMethod', 'codAmount', 'declaredValue', 'quantity');
}
