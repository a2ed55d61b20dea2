/**
 * Bookings CSV files: the template, encodings, `,` or `;`, quoting, headers, every row's problems with row
 * and column (places that do not fit together included, a pickup before today), limits; the results and
 * export files, formula-safe.
 */
// Bookings CSV files: reading (encodings, delimiters, quoting, headers), every problem at once, and the files the bot writes.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { bookingColumns, templateCsv } from '../../src/waybill/csv/columns.js';
import { type ExportEntry, exportWriter } from '../../src/waybill/csv/export.js';
import {
  type BookingCsvOptions,
  bookingOfRow,
  type CsvProblem,
  readBookingCsv,
} from '../../src/waybill/csv/read-bookings.js';
import { resultsCsv } from '../../src/waybill/csv/results.js';
import { spreadsheetSafe, toCsv } from '../../src/waybill/csv/write.js';
import { exampleProfilesPath, loadSenderProfiles } from '../../src/waybill/profiles.js';
import { createWaybillSchemas } from '../../src/waybill/schemas.js';
import { toBookingWire } from '../../src/waybill/wire.js';

const options: BookingCsvOptions = {
  schema: createWaybillSchemas(defaultCatalog).booking,
  catalog: defaultCatalog,
  timeZone: 'Asia/Manila',
  // 2026-11-23 09:00 in Manila.
  now: new Date('2026-11-23T01:00:00Z'),
  defaults: {
    pickupAt: { date: '2026-11-23', time: '10:00' },
    expectedDeliveryAt: { date: '2026-11-24', time: '17:00' },
    serviceType: 'DOOR_TO_DOOR',
  },
  profiles: loadSenderProfiles(exampleProfilesPath),
  maxRows: 500,
  maxBytes: 2_000_000,
};

const header =
  'item_description,payment_method,cod_amount,package_type,package_weight,operator_contact_number,receiver_name,receiver_phone,receiver_street,receiver_city,receiver_country,sender_profile';
const good = (name: string) =>
  `Scales,COD,1500,BOX,4.5,+63 917 555 0100,${name},0917 123 4567,88 Rizal Ave,Cebu City,PH,pasig-warehouse`;

/** The export of a few entries, written in one piece. */
function exportCsv(entries: ExportEntry[], timeZone: string): string {
  const writer = exportWriter(timeZone);
  return writer.start + writer.lines(entries);
}

const bytes = (text: string) => new TextEncoder().encode(text);
/** A problem as located, without the receiver named on its row (checked on its own). */
const withoutReceiver = ({ receiver: _, ...located }: CsvProblem) => located;
const read = (text: string, more: Partial<BookingCsvOptions> = {}) =>
  readBookingCsv(bytes(text), { ...options, ...more });

describe('reading a bookings CSV', () => {
  it('reads places as the forms do: a barangay outside its city a problem on its column, with where it is', () => {
    const placed = `${header},receiver_region,receiver_barangay`;
    const row = (region: string, city: string, barangay: string) =>
      `Scales,COD,1500,BOX,4.5,+63 917 555 0100,Ana,0917 123 4567,88 Rizal Ave,${city},PH,pasig-warehouse,${region},${barangay}`;
    const csv = [
      placed,
      row('Cebu', 'Cebu City', 'Brgy. Lahug'),
      row('', 'Makati', 'Lahug'),
      row('NCR', 'Makaty', ''),
    ];
    const { ready, problems } = read(csv.join('\n'));
    expect(ready.map((r) => r.row)).toEqual([2]);
    expect(problems.map(withoutReceiver)).toEqual([
      {
        row: 3,
        column: 'receiver_barangay',
        message: expect.stringMatching(
          /^Receiver barangay "Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/,
        ),
      },
      {
        row: 4,
        column: 'receiver_city',
        message: expect.stringContaining(
          '"Makaty" is not a city or municipality in NCR; nearest: City of Makati (Metro Manila)',
        ),
      },
    ]);
  });

  it('reads the barangay under its old column name too, checked the same, the column named as the file has it', () => {
    const csv = [
      `${header},receiver_district,Receiver Neighbourhood`,
      `${good('Ana').replace('Cebu City', 'Makati')},Legazpi Village,Lahug`,
      `${good('Ben').replace('Cebu City', 'Makati')},Lahug,`,
    ].join('\n');
    const { ready, problems } = read(csv);
    // The district is free text: Lahug there is no barangay, and not checked.
    expect(ready.map((r) => [r.row, r.values.consignee])).toEqual([
      [3, expect.objectContaining({ district: 'Lahug' })],
    ]);
    expect(problems).toEqual([
      {
        row: 2,
        column: 'Receiver Neighbourhood',
        receiver: 'Ana',
        message: expect.stringMatching(
          /^Receiver barangay "Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/,
        ),
      },
    ]);
  });

  it('reads the template: every column known, its example row ready to book', () => {
    const template = templateCsv(defaultCatalog);
    const result = readBookingCsv(bytes(template), options);
    expect(result.problems).toEqual([]);
    expect(result.ready).toHaveLength(1);
    const headerRow = parse(template, { bom: true })[0];
    expect(headerRow).toEqual(bookingColumns(defaultCatalog).map((c) => c.header));
  });

  it('is the template docs/usage.md shows', () => {
    const usage = readFileSync(new URL('../../docs/usage.md', import.meta.url), 'utf8');
    const shown = /```\n(tracking_number,[^`]*)```/.exec(usage)?.[1];
    expect(shown).toBe(templateCsv(defaultCatalog).replace('\uFEFF', '').replaceAll('\r\n', '\n'));
  });

  it('books what the row says, dates in the waybill time zone, defaults where cells are empty', () => {
    const csv = `${header},pickup_date,pickup_time,delivery_date\n${good('Maria Santos')},2026-11-25,9:30,2026-11-26\n${good('Jo')},,,\n`;
    const { ready, problems } = read(csv);
    expect(problems).toEqual([]);
    expect(ready.map((r) => r.row)).toEqual([2, 3]);
    const first = bookingOfRow(options, ready[0]?.values ?? {}, 'WB000007');
    if (!first.ok) throw new Error(JSON.stringify(first.errors));
    const wire = toBookingWire(first.value, 'Asia/Manila');
    expect(wire).toMatchObject({
      trackingNumber: 'WB000007',
      consigneeName: 'Maria Santos',
      consigneeAddress2: 'City of Cebu',
      codAmount: '1500.00',
      pickupDate: '2026-11-25 09:30:00.000',
      expectedDeliveryDate: '2026-11-26 17:00:00.000',
      // From the profile.
      shipperName: 'Acme Pasig Warehouse',
    });
    const second = bookingOfRow(options, ready[1]?.values ?? {}, 'WB000008');
    expect(second.ok && toBookingWire(second.value, 'Asia/Manila').pickupDate).toBe(
      '2026-11-23 10:00:00.000',
    );
  });

  it('refuses a pickup before today in the waybill time zone, naming pickup_date; today is allowed', () => {
    const csv = `${header},pickup_date\n${good('Old')},1990-01-01\n${good('Yesterday')},2026-11-22\n${good('Today')},2026-11-23\n`;
    const { ready, problems } = read(csv);
    expect(problems).toEqual(
      [
        [2, 'Old'],
        [3, 'Yesterday'],
      ].map(([row, receiver]) => ({
        row,
        column: 'pickup_date',
        receiver,
        message: 'Pickup date must be today (2026-11-23) or later',
      })),
    );
    expect(ready.map((r) => r.row)).toEqual([4]);
    // Still the 22nd in UTC, already 00:30 on the 23rd in Manila: the 22nd is past there.
    const late = readBookingCsv(bytes(csv), { ...options, now: new Date('2026-11-22T16:30:00Z') });
    expect(late.ready.map((r) => r.row)).toEqual([4]);
    // 23:30 on the 22nd in Manila: the 22nd is still today.
    const early = readBookingCsv(bytes(csv), { ...options, now: new Date('2026-11-22T15:30:00Z') });
    expect(early.ready.map((r) => r.row)).toEqual([3, 4]);
  });

  it('reads UTF-8 with a BOM, `;` between cells, quoted cells holding ; " and line breaks', () => {
    const semicolons = `${header.replaceAll(',', ';')}\n${good('x').replaceAll(',', ';').replace('Scales', '"Scales; ""large""\nand small"').replace(';x;', ';"Niño, Ñora";')}\n`;
    const result = readBookingCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(semicolons)]), options);
    expect(result.problems).toEqual([]);
    expect(result.ready[0]?.values).toMatchObject({
      itemDescription: 'Scales; "large"\nand small',
      consignee: { name: 'Niño, Ñora' },
    });
  });

  it("refuses a phone that cannot be dialled by the booking form's own rule, and writes a good one as dialled", () => {
    const row = (phone: string, country = 'PH') =>
      `Scales,COD,1500,BOX,4.5,+63 917 555 0100,Ana,${phone},88 Rizal Ave,Cebu City,${country},pasig-warehouse`;
    const csv = [
      header,
      row('0918 555 020'),
      row('1234567'),
      row('00000000'),
      row('09171234567'),
      row('(212) 555-0199', 'US'),
    ].join('\n');
    const { ready, problems } = read(csv);
    const examples = ', e.g. 0917 123 4567 or (02) 8123 4567';
    expect(problems.map(withoutReceiver)).toEqual([
      {
        row: 2,
        column: 'receiver_phone',
        message: `Receiver phone is not a phone number that can be dialled in PH${examples}`,
      },
      {
        row: 3,
        column: 'receiver_phone',
        message: `Receiver phone has the wrong number of digits for a phone number in PH${examples}`,
      },
      {
        row: 4,
        column: 'receiver_phone',
        message: `Receiver phone is not a phone number that can be dialled in PH${examples}`,
      },
    ]);
    // What the courier gets: spaced as dialled, another country's number with its code.
    const sent = ready.map((r) => {
      const booking = bookingOfRow(options, r.values, `WB00000${r.row}`);
      return [r.row, booking.ok && toBookingWire(booking.value, 'Asia/Manila').consigneeContact];
    });
    expect(sent).toEqual([
      [5, '0917 123 4567'],
      [6, '+1 212 555 0199'],
    ]);
  });

  it('matches headers in any order and spelling, and skips blank rows', () => {
    const csv = `Receiver Name,RECEIVER-PHONE,${header.split(',').slice(0, 6).join(',')},receiver_street,receiver_city,receiver_country,sender_profile\nAna,0917 123 4567,Scales,COD,1500,BOX,4.5,+63 917 555 0100,1 Main St,Cebu,PH,pasig-warehouse\n,,,,,,,,,,,\n\n`;
    const result = read(csv);
    expect(result.problems).toEqual([]);
    expect(result.rowCount).toBe(1);
    expect(result.ready[0]?.values).toMatchObject({ consignee: { name: 'Ana', phone: '0917 123 4567' } });
  });

  it('reports every problem of every row at once, with its row and column as the file names it', () => {
    const csv = [
      `${header},Tracking_Number`,
      `${good('Ana')},AB-1`,
      `Scales,COD,,BOX,4.5,+63 917 555 0100,,0917 123 4567,1 Main St,Cebu,PH,pasig-warehouse,AB-2`,
      `${good('Ben')}, #ab-1`,
      `Scales,PREPAID,20,BOX,-3,+63 917 555 0100,Cy,12,1 Main St,Cebu,PH,nowhere,`,
      `${good('Di')},`,
    ].join('\r\n');
    const { ready, problems } = read(csv);
    expect(ready.map((r) => r.row)).toEqual([2, 6]);
    expect(problems.map(withoutReceiver)).toEqual([
      { row: 3, column: 'receiver_name', message: 'Receiver name is required' },
      {
        row: 3,
        column: 'cod_amount',
        message: 'COD amount must be more than 0 when the payment method is Cash on delivery',
      },
      { row: 4, column: 'Tracking_Number', message: 'Tracking number AB-1 is also on row 2' },
      {
        row: 5,
        column: 'sender_profile',
        message: 'Unknown sender profile "nowhere" (makati-office, pasig-warehouse, cebu-shop)',
      },
      { row: 5, column: 'sender_name', message: 'Sender name is required' },
      { row: 5, column: 'sender_phone', message: 'Sender phone is required' },
      { row: 5, column: 'sender_street', message: 'Sender address is required' },
      { row: 5, column: 'sender_city', message: 'Sender city is required' },
      { row: 5, column: 'sender_country', message: 'Sender country is required' },
      {
        row: 5,
        column: 'package_weight',
        message: expect.stringMatching(/^Package weight must be a number/),
      },
      {
        row: 5,
        column: 'cod_amount',
        message: 'COD amount must be empty unless the payment method is Cash on delivery',
      },
      {
        row: 5,
        column: 'receiver_phone',
        message: expect.stringMatching(/^Receiver phone has too few digits for a phone number in PH/),
      },
    ]);
    // Each refused row named by its receiver, where one was typed.
    expect(new Map(problems.map((p) => [p.row, p.receiver]))).toEqual(
      new Map([
        [3, undefined],
        [4, 'Ben'],
        [5, 'Cy'],
      ]),
    );
  });

  it('names unknown and repeated columns on row 1', () => {
    const result = read(`${header},recevier_city,Receiver_Name\n${good('Ana')},x,y\n`);
    expect(result.problems).toEqual([
      {
        row: 1,
        column: 'recevier_city',
        message: 'Unknown column "recevier_city"; the template lists the columns',
      },
      { row: 1, column: 'Receiver_Name', message: 'Column "Receiver_Name" appears twice' },
    ]);
  });

  it('refuses files it cannot read, in one line each', () => {
    const latin1 = new Uint8Array([...bytes(`${header}\n`), 0x4e, 0xf1, 0x0a]);
    expect(readBookingCsv(latin1, options).problems).toEqual([
      { message: 'The file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"' },
    ]);
    expect(read('').problems[0]?.message).toMatch(/^The file is empty/);
    expect(read(`${header}\n`).problems).toEqual([
      { message: 'The file has no bookings: only a header row' },
    ]);
    expect(read(`${header}\n${good('a')}\n"unclosed,\n`).problems[0]?.message).toMatch(
      /^Row 3 cannot be read as CSV/,
    );
    const three = `${header}\n${good('a')}\n${good('b')}\n${good('c')}\n`;
    expect(read(three, { maxRows: 2 })).toEqual({
      ready: [],
      problems: [{ message: 'The file has 3 bookings; at most 2 at once' }],
      rowCount: 3,
    });
    expect(read(three, { maxBytes: 400 }).problems).toEqual([
      { message: expect.stringMatching(/^The file is [\d.]+ kB; at most 0.4 kB at once$/) },
    ]);
    expect(read(three, { maxBytes: 2_000_000 }).problems).toEqual([]);
  });

  it('reports a row with more cells than the header has', () => {
    expect(read(`${header}\n${good('Ana')},extra\n`).problems.map(withoutReceiver)).toEqual([
      { row: 2, message: 'The row has 13 cells but the header names 12' },
    ]);
  });
});

describe('files the bot writes', () => {
  it('results: every row, in row order, with a BOM and CRLF, formula-safe', () => {
    const csv = resultsCsv([
      {
        row: 3,
        receiver: '',
        trackingNumber: '',
        courierReference: '',
        outcome: 'not valid',
        message: 'Receiver name is required',
      },
      {
        row: 2,
        receiver: '=cmd Maria',
        trackingNumber: 'WB000001',
        courierReference: 'REF-1',
        outcome: 'booked',
        message: '',
      },
    ]);
    expect(
      csv.startsWith('\uFEFFrow,receiver_name,tracking_number,courier_reference,outcome,message\r\n2,'),
    ).toBe(true);
    expect(parse(csv, { bom: true, columns: true })).toEqual([
      {
        row: '2',
        receiver_name: "'=cmd Maria",
        tracking_number: 'WB000001',
        courier_reference: 'REF-1',
        outcome: 'booked',
        message: '',
      },
      {
        row: '3',
        receiver_name: '',
        tracking_number: '',
        courier_reference: '',
        outcome: 'not valid',
        message: 'Receiver name is required',
      },
    ]);
  });

  it('never lets a text cell run as a spreadsheet formula; only plain numbers in number columns stay as they are', () => {
    for (const text of [
      '=HYPERLINK("http://x")',
      '@SUM(A1)',
      '-2+3+cmd|x',
      '-(1)-(2)',
      '+1',
      '-12.5',
      '\t=1',
      '\r=1',
    ]) {
      expect(spreadsheetSafe(text)).toBe(`'${text}`);
    }
    expect(spreadsheetSafe('+63 917 123 4567')).toBe("'+63 917 123 4567");
    expect(spreadsheetSafe('Maria')).toBe('Maria');
    expect(spreadsheetSafe('12.5')).toBe('12.5');
    expect(spreadsheetSafe('-12.5', true)).toBe('-12.5');
    for (const notANumber of ['-(1)-(2)', '-1-2', '+1', '-1e5', '- 1', '-1.', '=1']) {
      expect(spreadsheetSafe(notANumber, true)).toBe(`'${notANumber}`);
    }
  });

  it('export: every text cell that would be a formula, read field by field, is text; amounts, weights and counts stay numbers', () => {
    const hostile = ['-(1)-(2)', '+1+2', '=1+2', '@SUM(A1)', '\t-1', '\r+1', '-1'];
    const csv = exportCsv(
      hostile.map((text, i) => ({
        at: new Date('2026-11-23T01:05:00Z'),
        userId: 'U1',
        operation: 'book',
        outcome: 'ok',
        trackingNumber: text,
        request: {
          consigneeName: text,
          consigneeAddress2: text,
          shipperName: text,
          itemDescription: text,
          referenceNumber1: text,
          codAmount: i % 2 ? '-15.50' : '1500.00',
          declaredValue: '2000',
          quantity: 3,
          PackageWeight: 4.5,
        },
        response: { trackingRefNo: text },
        detail: text,
      })),
      'Asia/Manila',
    );
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(hostile.length);
    const textColumns = [
      'tracking_number',
      'courier_reference',
      'receiver_name',
      'receiver_city',
      'sender_name',
      'item_description',
      'reference1',
      'message',
    ];
    for (const [i, row] of rows.entries()) {
      for (const column of textColumns) expect(row[column], column).toBe(`'${hostile[i]}`);
      expect(row.cod_amount).toBe(i % 2 ? '-15.50' : '1500.00');
      expect(row.declared_value).toBe('2000');
      expect(row.quantity).toBe('3');
      expect(row.weight_kg).toBe('4.5');
    }
  });

  it('results file: a receiver named like a formula is text, the row number a number', () => {
    const rows = parse(
      resultsCsv([
        {
          row: 2,
          receiver: '-(1)-(2)',
          trackingNumber: 'WB000001',
          courierReference: '+1',
          outcome: 'failed',
          message: '=bad',
        },
      ]),
      { bom: true, columns: true },
    ) as Record<string, string>[];
    expect(rows).toEqual([
      {
        row: '2',
        receiver_name: "'-(1)-(2)",
        tracking_number: 'WB000001',
        courier_reference: "'+1",
        outcome: 'failed',
        message: "'=bad",
      },
    ]);
  });

  it('writes any text a CSV reader reads back cell for cell (commas, quotes, line breaks, accents)', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\u00f1', '=', '1', '-', "'"),
    });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 5 }), (rows) => {
        const parsed = parse(toCsv(['a', 'b', 'c'], rows), { bom: true, relax_column_count: true });
        expect(parsed).toEqual([
          ['a', 'b', 'c'],
          ...rows.map((row) => row.map((text) => spreadsheetSafe(text))),
        ]);
      }),
    );
  });

  it('reads a cell the bot marked as text without the mark', () => {
    const csv = `${header}\n${good('Maria Santos').replace('0917 123 4567', "'+63 917 123 4567")}\n`;
    const { ready, problems } = read(csv);
    expect(problems).toEqual([]);
    expect(ready[0]?.values).toMatchObject({ consignee: { phone: '+63 917 123 4567' } });
  });

  it('export: one line per audit entry, its time in the waybill time zone, fields from the request and answer', () => {
    const csv = exportCsv(
      [
        {
          at: new Date('2026-11-23T01:05:00Z'),
          userId: 'U1',
          operation: 'book',
          outcome: 'ok',
          trackingNumber: 'WB000001',
          request: {
            consigneeName: '=cmd',
            consigneeAddress2: 'Cebu City',
            consigneeAddress4: 'Lahug',
            codAmount: '1500.00',
            ServiceType: 'DOOR_TO_DOOR',
          },
          response: { trackingRefNo: 'REF-9' },
        },
        {
          at: new Date('2026-11-23T02:00:00Z'),
          userId: 'U2',
          operation: 'update',
          outcome: 'failed',
          detail: 'Refused',
        },
      ],
      'Asia/Manila',
    );
    const [first, second] = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(first).toMatchObject({
      at: '2026-11-23 09:05',
      operation: 'book',
      tracking_number: 'WB000001',
      courier_reference: 'REF-9',
      by: 'U1',
      receiver_name: "'=cmd",
      receiver_city: 'Cebu City',
      receiver_barangay: 'Lahug',
      cod_amount: '1500.00',
      service_type: 'DOOR_TO_DOOR',
    });
    expect(second).toMatchObject({
      at: '2026-11-23 10:00',
      operation: 'update',
      outcome: 'failed',
      message: 'Refused',
      tracking_number: '',
    });
  });
});
