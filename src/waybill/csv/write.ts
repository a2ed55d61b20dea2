/** Writing CSV files people open in a spreadsheet: UTF-8 with a BOM, CRLF, no cell read as a formula. */
import { stringify } from 'csv-stringify/sync';

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula,
 * so text someone typed could make a dispatcher's spreadsheet fetch or run something. Such a cell
 * gets a leading apostrophe, which shows it as text; plain numbers and phone numbers (`-12.5`,
 * `+63 917 123 4567`) stay as they are.
 */
export function spreadsheetSafe(cell: string): string {
  if (!/^[=+\-@\t\r]/.test(cell)) return cell;
  if (/^[+-][\d\s().-]*$/.test(cell)) return cell;
  return `'${cell}`;
}

/**
 * The file's text. The BOM makes Excel read it as UTF-8 (accents, ñ); CRLF line ends as RFC 4180
 * has them; csv-stringify quotes cells holding the delimiter, quotes or line breaks.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return stringify([header, ...rows.map((row) => row.map(spreadsheetSafe))], {
    bom: true,
    record_delimiter: 'windows',
  });
}
