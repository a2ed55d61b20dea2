/** Courier fields as form inputs, from the table of courier fields: places, contacts, the package and payment. */
import type { Part, PartyKey } from '../../waybill/booking-fields.js';
import type { Catalog } from '../../waybill/catalog.js';
import { type CourierField, courierFields, dayLabel } from '../../waybill/courier-fields.js';
import { PHONE_MAX_LENGTH, TRACKING_NUMBER_MAX_LENGTH } from '../../waybill/fields.js';
import type { FormField } from './forms.js';

/**
 * A courier field's inputs, as its kind and form hints say (booking-fields.ts): one, or a date's two
 * pickers (a quotation's date is a day, at its path there). The catalogue gives a choice's options
 * and a hint of it; a party's fields need none.
 */
export function inputsOf(
  field: CourierField,
  { catalog, path = field.path, quote = false }: { catalog?: Catalog; path?: string; quote?: boolean } = {},
): FormField[] {
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
      if (quote) return [{ ...input, path: field.quotePath ?? path, label: dayLabel(label), kind: 'date' }];
      return [
        { ...input, path: `${path}.date`, label: dayLabel(label), kind: 'date' },
        { ...input, path: `${path}.time`, label: label.replace(/ date and time$/, ' time'), kind: 'time' },
      ];
  }
}

/** The booking form's inputs of the courier fields of these parts, in the table's order, but those shown with the parcels. */
export function partInputs(catalog: Catalog, ...parts: Part[]): FormField[] {
  return courierFields
    .filter((field) => parts.includes(field.part) && field.form.withParcels === undefined)
    .flatMap((field) => inputsOf(field, { catalog }));
}

/** The quote form's inputs of a part: the fields the Quotation carries, in the table's order. */
export function quoteInputs(catalog: Catalog, part: Part): FormField[] {
  return courierFields
    .filter((field) => field.wire.quote !== undefined && (field.quotePart ?? field.part) === part)
    .flatMap((field) => inputsOf(field, { catalog, quote: true }));
}

/** A party's inputs under `prefix`, where they are not the party's own (the address book's `party`). */
export function partyInputs(party: PartyKey, prefix: string): FormField[] {
  return courierFields
    .filter((field) => field.party === party)
    .flatMap((field) => inputsOf(field, { path: `${prefix}.${field.path.slice(party.length + 1)}` }));
}
