/** The columns of a bookings CSV file, from the table of courier fields: each header, the booking field it fills, and the template file. */

import type { Catalog } from '../catalog.js';
import { type CourierField, courierFields } from '../courier-fields.js';
import { toCsv } from './write.js';

/**
 * One CSV row is one booking. Each column fills one field of the Booking schema's input (its path,
 * e.g. `consignee.phone`); dates and times are separate columns read in WAYBILL_TIMEZONE, as the
 * form's pickers are. Parcels (child waybills) have no columns: a file books whole shipments, their
 * number in `quantity`. `sender_profile` names a sender profile that fills the sender, its codes and
 * the return party; any sender or return column given on the row wins over it.
 */
export interface BookingColumn {
  header: string;
  /** Where the cell goes in the booking input; `pickupAt.date` and `pickupAt.time` make one instant. */
  path: string;
  /** What to write, for the docs and the template's comment row. */
  about: string;
  example: string;
}

export const PROFILE_COLUMN = 'sender_profile';

const aboutChoices = (catalog: Catalog, list: NonNullable<CourierField['choices']>) =>
  catalog[list].map((choice) => choice.value).join(' | ');

/** A field's columns: one, or a date's and a time's (`pickupAt.date`, `pickupAt.time`). */
function columnsOf(field: CourierField, catalog: Catalog): BookingColumn[] {
  return field.csv.map(({ header, about, example, part }) => ({
    header,
    path: part ? `${field.path}.${part}` : field.path,
    about:
      typeof about === 'function'
        ? about(catalog)
        : (about ?? (field.choices ? aboutChoices(catalog, field.choices) : '')),
    example: (typeof example === 'function' ? example(catalog) : example) ?? '',
  }));
}

const profileColumn: BookingColumn = {
  header: PROFILE_COLUMN,
  path: PROFILE_COLUMN,
  about: 'id of a sender profile: fills the sender and return columns left empty',
  example: '',
};

/** Every column, in the template's order: the courier fields' (booking-fields.ts), the sender profile's before the sender's own. */
export function bookingColumns(catalog: Catalog): BookingColumn[] {
  return courierFields.flatMap((field) => [
    ...(field.path === 'shipperCode' ? [profileColumn] : []),
    ...columnsOf(field, catalog),
  ]);
}

/** The template: every column's header and one example booking. */
export function templateCsv(catalog: Catalog): string {
  const columns = bookingColumns(catalog);
  return toCsv(
    columns.map((column) => column.header),
    [columns.map((column) => column.example)],
  );
}

/** A header as typed (`Receiver Name`, `receiver-name`) in the template's spelling. */
export function normaliseHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Each earlier header (`receiver_neighbourhood`) by the one it is now read as. */
const renamed = new Map(
  courierFields.flatMap((field) =>
    field.csv.flatMap(({ header, old = [] }) => old.map((name) => [name, header])),
  ),
);

/** A bookings file's header by its current name: an earlier one (booking-fields.ts) is still read. */
export function currentHeader(header: string): string {
  const name = normaliseHeader(header);
  return renamed.get(name) ?? name;
}
