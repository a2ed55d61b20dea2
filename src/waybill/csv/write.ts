/** Writing CSV files people open in a spreadsheet: UTF-8 with a BOM, CRLF, no cell read as a formula. */

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP's list). */
export const FORMULA_START = /^[=+\-@\t\r]/;
/** A number as the bot writes amounts, weights and counts: a spreadsheet reads it as that number. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula, so
 * text someone typed could make a dispatcher's spreadsheet fetch, run or just compute something
 * (`-(1)-(2)` shows -3). Every such text cell gets a leading apostrophe, which shows it as text;
 * only a plain number in a number column (an amount, a weight, a count) is left as it is.
 */
export function spreadsheetSafe(cell: string, isNumberColumn = false): string {
  if (!FORMULA_START.test(cell)) return cell;
  if (isNumberColumn && PLAIN_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/** RFC 4180: a cell holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvCell(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * Records as CSV text, each ended by CRLF as RFC 4180 has them, each cell made safe for a
 * spreadsheet first (`isNumber[i]`: column i's plain numbers stay numbers; the header is ours, left as it is).
 * One string built cell by cell: an export writes hundreds of thousands of lines.
 */
function csvRecords(rows: readonly (readonly string[])[], isNumber?: readonly boolean[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i += 1) {
      if (i > 0) text += ',';
      const cell = row[i] ?? '';
      text += csvCell(isNumber ? spreadsheetSafe(cell, isNumber[i]) : cell);
    }
    text += '\r\n';
  }
  return text;
}

/**
 * A file written piece by piece: `start` (the BOM, which makes Excel read it as UTF-8, and the
 * header), then `rows` for each batch. `numberColumns` names the columns whose plain numbers stay
 * numbers. Written here rather than with csv-stringify, which took 7 times as long a line: an
 * export of a year is hundreds of thousands of lines.
 */
export function csvWriter(header: readonly string[], numberColumns: readonly string[] = []) {
  const isNumber = header.map((name) => numberColumns.includes(name));
  return {
    start: `\uFEFF${csvRecords([header])}`,
    rows: (rows: readonly (readonly string[])[]): string => csvRecords(rows, isNumber),
  };
}

/** The whole file's text at once, for files that are small whatever happens (results, the template). */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numberColumns: readonly string[] = [],
): string {
  const writer = csvWriter(header, numberColumns);
  return writer.start + writer.rows(rows);
}
