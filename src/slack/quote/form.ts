/** The quote form's fields, in sections, and which of them the Quotation schema requires. */
import type { Catalog } from '../../waybill/catalog.js';
import type { WaybillSchemas } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { quoteInputs } from '../kit/fields.js';
import { type FormField, perSettings, requiredPaths } from '../kit/forms.js';

export interface FormSection {
  title: string;
  note?: string;
  /** The party whose place the section holds: it starts with the address book's type-ahead. */
  party?: { path: string; label: string };
  fields: FormField[];
}

/** A section for each part of the booking the Quotation carries (booking-fields.ts), the shipment's dates on their own. */
export function quoteFormSections(catalog: Catalog): FormSection[] {
  const shipment = quoteInputs(catalog, 'shipment');
  return [
    { title: 'Service and payment', fields: shipment.filter((field) => field.kind !== 'date') },
    { title: 'Dates', fields: shipment.filter((field) => field.kind === 'date') },
    {
      title: 'From (sender)',
      party: { path: 'shipper', label: 'Saved sender' },
      fields: quoteInputs(catalog, 'sender'),
    },
    {
      title: 'To (receiver)',
      party: { path: 'consignee', label: 'Saved receiver' },
      fields: quoteInputs(catalog, 'receiver'),
    },
    { title: 'Package', fields: quoteInputs(catalog, 'package') },
    {
      title: 'Return to',
      note: 'Leave empty to return undelivered goods to the sender.',
      party: { path: 'returnTo', label: 'Saved return party' },
      fields: quoteInputs(catalog, 'return'),
    },
  ];
}

export function sectionFields(sections: readonly FormSection[]): FormField[] {
  return sections.flatMap((s) => s.fields);
}

/** The quote form as every /quote renders it: its sections, and which fields the Quotation schema requires. */
export const quoteFormSpec = perSettings((schema: WaybillSchemas['quote'], catalog: Catalog) => {
  const sections = quoteFormSections(catalog);
  return { sections, required: requiredPaths(schema, sectionFields(sections)) };
});

/**
 * The quote form's fields, for reading what a dispatcher typed: which ones are required is left to the
 * first form shown (it validates an empty form, about 10 ms at start-up otherwise).
 */
export const quoteFields = (core: Pick<Core, 'waybill'>) =>
  sectionFields(quoteFormSections(core.waybill.catalog));

/** The quote form of this core's catalog and schema. */
export const quoteSpec = (core: Pick<Core, 'waybill' | 'schemas'>) =>
  quoteFormSpec(core.schemas.quote, core.waybill.catalog);
