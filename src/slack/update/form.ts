/** The update form: the booking fields the Update body carries, and which the Update schema requires. */

import { toBookingInput } from '../../waybill/booking-input.js';
import type { Catalog } from '../../waybill/catalog.js';
import type { WaybillSchemas } from '../../waybill/schemas.js';
import { stepFields } from '../book/index.js';
import type { Core } from '../core.js';
import { type FormField, perSettings, requiredPaths } from '../kit/forms.js';

/** Booking fields the Update body does not carry: they cannot be changed through an update. */
const bookingOnlyPaths = new Set(['trackingNumber', 'operatorContactNumber', 'shipperCode', 'warehouseName']);

export interface FieldGroup {
  title: string;
  fields: FormField[];
}

/**
 * The update form: every field the Update body carries, in one modal. Its times are read in
 * WAYBILL_TIMEZONE (and say so), because they are pre-filled from the record and must mean the
 * same instant whoever opens the form.
 */
export function updateGroups(catalog: Catalog, timeZone: string): FieldGroup[] {
  const editable = (fields: FormField[]) =>
    fields
      .filter((field) => !bookingOnlyPaths.has(field.path))
      .map((field) => (field.kind === 'time' ? { ...field, label: `${field.label} (${timeZone})` } : field));
  const sender = stepFields('sender', catalog, 0);
  return [
    {
      title: 'Shipment',
      fields: editable([...stepFields('shipment', catalog, 0), ...stepFields('parcels', catalog, 0)]),
    },
    { title: 'Receiver', fields: editable(stepFields('receiver', catalog, 0)) },
    { title: 'Sender', fields: editable(sender.filter((f) => !f.path.startsWith('returnTo.'))) },
    { title: 'Return to', fields: editable(sender.filter((f) => f.path.startsWith('returnTo.'))) },
  ];
}

/** The update form as every update renders it: its groups, and which fields the Update schema requires. */
export const updateFormSpec = perSettings(
  (schema: WaybillSchemas['update'], catalog: Catalog, timeZone: string) => {
    const groups = updateGroups(catalog, timeZone);
    const required = requiredPaths(
      schema,
      groups.flatMap((g) => g.fields),
      (raw) =>
        toBookingInput(raw, { trackingNumber: 'KNOWN', timeZone, parcels: 0, pickerZone: 'configured' }),
    );
    return { groups, required };
  },
);

/** The update form of this core's catalog, time zone and schema. */
export const updateSpec = (core: Pick<Core, 'waybill' | 'schemas'>) =>
  updateFormSpec(core.schemas.update, core.waybill.catalog, core.waybill.timeZone);
