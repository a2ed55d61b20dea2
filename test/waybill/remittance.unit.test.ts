/**
 * Remittance files: headers from the settings, amounts as couriers write them (`PHP 1,500.00`, `₱1,500`;
 * another currency, split digits, over a booking's limit are problems), a problem per line; the COD fee rule
 * rounded in centavos, dated, a file's fee column, returns; reconciling every kind of line in decimal money;
 * the results file.
 */
// The remittance file read (headers, amounts in the courier's formats, problems per line) and reconciled in decimal money.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ageCod, bucketOf, daysBetween } from '../../src/waybill/cod-ageing.js';
import { type CodFeeRule, codFee, NO_FEE } from '../../src/waybill/cod-fee.js';
import {
  DEFAULT_REMITTANCE_COLUMNS,
  type RemittanceCsvOptions,
  readRemittanceCsv,
  readRemittedAmount,
} from '../../src/waybill/csv/read-remittance.js';
import { remittanceResultsCsv } from '../../src/waybill/csv/remittance-results.js';
import { type ExpectedCod, reconcile } from '../../src/waybill/remittance.js';

const options: RemittanceCsvOptions = {
  columns: DEFAULT_REMITTANCE_COLUMNS,
  maxLines: 5000,
  maxBytes: 2_000_000,
  currency: 'PHP',
};
const read = (text: string, more: Partial<RemittanceCsvOptions> = {}) =>
  readRemittanceCsv(new TextEncoder().encode(text), { ...options, ...more });

describe('remitted amounts', () => {
  it.each([
    ['1500', '1500.00'],
    ['1500.5', '1500.50'],
    ['1,500.00', '1500.00'],
    ['PHP 1,500.00', '1500.00'],
    ['php1500', '1500.00'],
    ['\u20b11,500', '1500.00'],
    ['\u20b1 1,234,567.89', '1234567.89'],
    ['P 250', '250.00'],
    ['  0.10 ', '0.10'],
    ['999,999,999.99', '999999999.99'],
  ])('%s is %s', (text, money) => {
    expect(readRemittedAmount(text, 'PHP')).toEqual({ amount: money });
  });

  it.each([
    '',
    'abc',
    '1.234',
    '-100',
    '1,50',
    '12,34,567',
    'PHP',
    '1500 PHP',
    '1 5 0 0',
    '1 500.00',
    '$10',
    'USDX 10',
  ])('%s is no amount', (text) => {
    expect(readRemittedAmount(text, 'PHP')).toEqual({ problem: 'is not an amount such as 1,500.00' });
  });

  it.each(['USD 1500', 'EUR 1,500.00', 'usd1500', 'Pp 5'])('%s is not in pesos', (text) => {
    expect(readRemittedAmount(text, 'PHP')).toEqual({ problem: 'is not in PHP' });
  });

  it('takes the configured currency, and the peso signs only for the peso', () => {
    expect(readRemittedAmount('usd 1,500.00', 'USD')).toEqual({ amount: '1500.00' });
    expect(readRemittedAmount('P 1500', 'USD')).toEqual({ problem: 'is not in USD' });
    expect(readRemittedAmount('\u20b11500', 'USD')).toEqual({ problem: 'is not in USD' });
  });

  it.each(['1000000000', '1,000,000,000.00', '9'.repeat(32)])(
    '%s is more than a booking may carry',
    (text) => {
      expect(readRemittedAmount(text, 'PHP')).toEqual({
        problem: 'is more than 999999999.99, the most a booking may carry',
      });
    },
  );
});

describe('reading a remittance file', () => {
  it('finds columns by header in any order, with a BOM and `;`, ignoring other columns; numbers as we write them', () => {
    const file = read(
      '\ufeffRemitted At;Note;Amount;Tracking Number;STATUS\r\n2026-11-20;x;"PHP 1.500,00";WB1;delivered\r\n;;;;\r\n2026-11-20;;\u20b1200; #wb2 ;\r\n',
    );
    expect(file.problems).toEqual([]);
    expect(file.lines).toEqual([
      {
        line: 2,
        trackingNumber: 'WB1',
        amountText: 'PHP 1.500,00',
        remittedAt: '2026-11-20',
        status: 'delivered',
        problem: 'amount "PHP 1.500,00" is not an amount such as 1,500.00',
      },
      {
        line: 4,
        trackingNumber: 'WB2',
        amountText: '\u20b1200',
        amount: '200.00',
        remittedAt: '2026-11-20',
        status: '',
      },
    ]);
  });

  it('takes the header names from the settings', () => {
    const columns = {
      trackingNumber: 'AWB',
      amount: 'COD Collected',
      remittedAt: 'Paid On',
      status: 'State',
      fee: 'Kept',
    };
    const file = read('awb,cod collected\nWB9,"1,000"\n', { columns });
    expect(file.lines).toMatchObject([
      { trackingNumber: 'WB9', amount: '1000.00', remittedAt: '', status: '' },
    ]);
  });

  it('names missing columns, an empty file, too many lines, a file that is not UTF-8 or not CSV', () => {
    expect(read('awb,amount\nWB1,1\n').problems).toEqual([
      { message: 'The first row must name the columns; "tracking_number" is missing' },
    ]);
    expect(read('').problems[0]?.message).toMatch(/"tracking_number" and "amount" are missing/);
    expect(read('tracking_number,amount\n').problems[0]?.message).toMatch(/only a header row/);
    expect(read('tracking_number,amount\nA,1\nB,2\n', { maxLines: 1 }).problems[0]?.message).toBe(
      'The file has 2 lines; at most 1 at once',
    );
    expect(readRemittanceCsv(new Uint8Array([0xff, 0xfe, 0x41]), options).problems[0]?.message).toMatch(
      /UTF-8/,
    );
    expect(read('tracking_number,amount\n"WB1,1\n').problems[0]?.message).toMatch(/cannot be read as CSV/);
    expect(read('tracking_number,amount\nA,1\n', { maxBytes: 5 }).problems[0]?.message).toMatch(/at most/);
  });

  it('makes a line without a tracking number or amount a problem of that line only', () => {
    const file = read(
      'tracking_number,amount\n,100\nWB2,\nWB3,12abc\nWB4,5\nWB5,USD 5\nWB6,1 5 0 0\nWB7,1e40\n',
    );
    expect(file.lines.map((l) => l.problem)).toEqual([
      'No tracking_number on the line',
      'No amount on the line',
      'amount "12abc" is not an amount such as 1,500.00',
      undefined,
      'amount "USD 5" is not in PHP',
      'amount "1 5 0 0" is not an amount such as 1,500.00',
      'amount "1e40" is not an amount such as 1,500.00',
    ]);
  });
});

describe('reconciling', () => {
  const bookings: Record<string, ExpectedCod> = {
    M: { cod: true, codAmount: '1500.00', fee: '0.00', returned: false, returnFee: '0.00' },
    S: { cod: true, codAmount: '1500.00', fee: '0.00', returned: false, returnFee: '0.00' },
    O: { cod: true, codAmount: '0.30', fee: '0.00', returned: false, returnFee: '0.00' },
    D: { cod: true, codAmount: '100.00', fee: '0.00', returned: false, returnFee: '0.00' },
    T: { cod: true, codAmount: '100.00', fee: '0.00', returned: false, returnFee: '0.00' },
    P: { cod: false, codAmount: '0.00', fee: '0.00', returned: false, returnFee: '0.00' },
  };
  const earlier: Record<string, bigint> = { D: 10000n, T: 6000n };
  const line = (n: number, trackingNumber: string, amountText: string) => {
    const amount = readRemittedAmount(amountText, 'PHP');
    return {
      line: n,
      trackingNumber,
      amountText,
      remittedAt: '',
      status: '',
      ...('problem' in amount ? { problem: 'bad amount' } : amount),
    };
  };
  const lines = [
    line(2, 'M', 'PHP 1,500.00'),
    line(3, 'S', '1,400'),
    line(4, 'O', '0.10'),
    line(5, 'O', '0.20'),
    line(6, 'O', '0.20'),
    line(7, 'D', '100'),
    line(8, 'T', '40'),
    line(9, 'X', '99'),
    line(10, 'P', '5'),
    line(11, 'M', 'oops'),
  ];
  const result = reconcile(
    lines,
    (tn) => bookings[tn],
    (tn) => earlier[tn] ?? 0n,
  );

  it('finds every kind of line, with exact differences in decimal money', () => {
    expect(result.lines.map((l) => [l.trackingNumber, l.outcome, l.expected, l.difference])).toEqual([
      ['M', 'matched', '1500.00', '0.00'],
      ['S', 'short', '1500.00', '-100.00'],
      ['O', 'short', '0.30', '-0.20'],
      // 0.10 + 0.20 is 0.30: paid in full, no float drift.
      ['O', 'matched', '0.20', '0.00'],
      ['O', 'already remitted', '0.00', '0.20'],
      ['D', 'already remitted', '0.00', '100.00'],
      ['T', 'matched', '40.00', '0.00'],
      ['X', 'not ours', undefined, undefined],
      ['P', 'not cod', undefined, undefined],
      ['M', 'problem', undefined, undefined],
    ]);
    expect(result.lines[6]?.message).toBe('Earlier files paid 60.00 of 100.00');
    expect(result.lines[5]?.message).toMatch(/double payment/);
  });

  it('totals what our bookings were due, what they were paid and the difference; not ours apart', () => {
    expect(result.totals).toEqual({
      counts: {
        problem: 1,
        'already remitted': 2,
        'not ours': 1,
        'not cod': 1,
        short: 2,
        over: 0,
        matched: 3,
      },
      gross: '3100.30',
      fee: '0.00',
      net: '3100.30',
      expected: '3040.50',
      remitted: '3045.50',
      difference: '5.00',
      // Each line's difference added: the short ones apart from the over ones (double payments, the prepaid line).
      short: '-100.20',
      over: '105.20',
      returnFees: '0.00',
      conflicts: 0,
      notOurs: '99.00',
    });
    // The file: a short line on our bookings is 500.00 short, whatever the not-ours line pays.
    const mixed = reconcile(
      [line(2, 'M', '1,500.00'), line(3, 'S', '1,000.00'), line(4, 'X', '100.00')],
      (tn) => bookings[tn],
      () => 0n,
    );
    expect(mixed.totals).toMatchObject({
      expected: '3000.00',
      remitted: '2500.00',
      difference: '-500.00',
      notOurs: '100.00',
    });
    const over = reconcile(
      [line(2, 'M', '1500.01')],
      (tn) => bookings[tn],
      () => 0n,
    );
    expect(over.lines[0]).toMatchObject({ outcome: 'over', difference: '0.01' });
  });

  it('writes the results file one row per line, formula-safe, as a spreadsheet reads it', () => {
    const csv = remittanceResultsCsv([
      ...result.lines,
      { ...line(12, '=HYPERLINK("x")', '1'), outcome: 'not ours', message: '' },
    ]);
    const rows = parse(csv.replace(/^\ufeff/, ''), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(lines.length + 1);
    expect(rows[1]).toMatchObject({
      line: '3',
      tracking_number: 'S',
      amount: '1400.00',
      difference: '-100.00',
      outcome: 'short',
    });
    expect(rows[9]).toMatchObject({ amount: 'oops', outcome: 'problem', message: 'bad amount' });
    expect(rows[10]?.tracking_number).toBe(`'=HYPERLINK("x")`);
  });
});

describe("the courier's COD fee", () => {
  const rule: CodFeeRule = { ...NO_FEE, percent: 27_500n, vatPercent: 120_000n };

  it.each([
    // 2.75 % of 1,500.00 is 41.25, VAT 12 % on it 4.95.
    ['1500.00', '46.20'],
    // 0.495 rounds half up to 0.50 (a float reads 0.49499…), VAT 0.06.
    ['18.00', '0.56'],
    // 33.9504 is 33.95, VAT 4.074 is 4.07.
    ['1234.56', '38.02'],
    ['0.00', '0.00'],
  ])('on %s is %s in whole centavos', (amount, fee) => {
    expect(codFee(rule, amount, '2026-11-20')).toBe(fee);
  });

  it('adds the fixed part, holds the fee within its bounds before VAT, and never takes more than the COD', () => {
    expect(codFee({ ...NO_FEE, percent: 10_000n, fixed: 1000n }, '1500.00', '2026-11-20')).toBe('25.00');
    expect(codFee({ ...rule, min: 3000n }, '100.00', '2026-11-20')).toBe('33.60');
    expect(codFee({ ...rule, max: 5000n }, '10000.00', '2026-11-20')).toBe('56.00');
    expect(codFee({ ...rule, min: 3000n }, '20.00', '2026-11-20')).toBe('20.00');
    expect(codFee(NO_FEE, '1500.00', '2026-11-20')).toBe('0.00');
  });

  it('applies to bookings made on or after its first day only', () => {
    const dated = { ...rule, from: '2026-11-16' };
    expect(codFee(dated, '1500.00', '2026-11-15')).toBe('0.00');
    expect(codFee(dated, '1500.00', '2026-11-16')).toBe('46.20');
  });

  it('reconciles a line against the net: the net is matched, the gross over by the fee', () => {
    const booking = { cod: true, codAmount: '1500.00', fee: '46.20', returned: false, returnFee: '0.00' };
    const paid = (amount: string) =>
      reconcile(
        [{ line: 2, trackingNumber: 'F', amount, amountText: amount, remittedAt: '', status: '' }],
        () => booking,
        () => 0n,
      );
    expect(paid('1453.80').lines[0]).toMatchObject({
      outcome: 'matched',
      gross: '1500.00',
      fee: '46.20',
      expected: '1453.80',
      difference: '0.00',
    });
    expect(paid('1500.00').lines[0]).toMatchObject({
      outcome: 'over',
      difference: '46.20',
      message: 'Over by the fee: the gross amount was paid',
    });
    expect(paid('1500.00').totals).toMatchObject({
      gross: '1500.00',
      fee: '46.20',
      net: '1453.80',
      expected: '1453.80',
    });
  });

  it("takes a fee column's fee for its line over the rule's, and makes an unreadable one a problem", () => {
    const file = read('tracking_number,amount,fee\nF,"1,460.00",40\nG,1500,\nH,1,about 5\n');
    expect(file.lines.map((l) => [l.statedFee, l.problem])).toEqual([
      ['40.00', undefined],
      [undefined, undefined],
      [undefined, 'fee "about 5" is not an amount such as 1,500.00'],
    ]);
    const booking = { cod: true, codAmount: '1500.00', fee: '46.20', returned: false, returnFee: '0.00' };
    const result = reconcile(
      file.lines,
      () => booking,
      () => 0n,
    );
    expect(result.lines.map((l) => [l.outcome, l.fee, l.net, l.difference])).toEqual([
      ['matched', '40.00', '1460.00', '0.00'],
      ['over', '46.20', '1453.80', '46.20'],
      ['problem', undefined, undefined, undefined],
    ]);
  });

  it('makes a returned booking owe nothing and carry the return fee, recorded or said by the line', () => {
    const booking = { cod: true, codAmount: '1500.00', fee: '46.20', returned: false, returnFee: '60.00' };
    const line = (amount: string, status: string) => ({
      line: 2,
      trackingNumber: 'R',
      amount,
      amountText: amount,
      remittedAt: '',
      status,
    });
    const result = reconcile(
      [line('0.00', 'Returned to sender'), line('10.00', 'RETURNED')],
      () => booking,
      () => 0n,
    );
    // The return fee apart from the COD fee: gross − fee = net holds on every line.
    expect(
      result.lines.map((l) => [l.outcome, l.gross, l.fee, l.net, l.returnFee, l.expected, l.difference]),
    ).toEqual([
      ['matched', '0.00', '0.00', '0.00', '60.00', '0.00', '0.00'],
      ['over', '0.00', '0.00', '0.00', '60.00', '0.00', '10.00'],
    ]);
    const recorded = reconcile(
      [line('0.00', 'delivered')],
      () => ({ ...booking, returned: true }),
      () => 0n,
    );
    expect(recorded.lines[0]).toMatchObject({ outcome: 'matched', returnFee: '60.00' });
    expect(recorded.totals).toMatchObject({ gross: '0.00', fee: '0.00', net: '0.00', returnFees: '60.00' });
  });
});

describe('COD ageing', () => {
  it.each([
    [-1, 0],
    [0, 0],
    [7, 0],
    [8, 1],
    [14, 1],
    [15, 2],
    [30, 2],
    [31, 3],
    [400, 3],
  ])('%i days is bucket %i', (days, bucket) => {
    expect(bucketOf(days)).toBe(bucket);
  });

  it('totals by bucket and by sender in decimal money, the most owed sender first', () => {
    const ageing = ageCod([
      { sender: 'B', outstanding: '0.10', days: 1 },
      { sender: 'A', outstanding: '0.20', days: 40 },
      { sender: 'B', outstanding: '0.20', days: 9 },
      { sender: 'C', outstanding: '0.30', days: 20 },
    ]);
    expect(ageing).toEqual({
      count: 4,
      total: '0.80',
      buckets: [
        { count: 1, total: '0.10' },
        { count: 1, total: '0.20' },
        { count: 1, total: '0.30' },
        { count: 1, total: '0.20' },
      ],
      bySender: [
        expect.objectContaining({ sender: 'B', total: '0.30', count: 2 }),
        expect.objectContaining({ sender: 'C', total: '0.30' }),
        expect.objectContaining({ sender: 'A', total: '0.20' }),
      ],
    });
    expect(ageing.bySender[0]?.buckets.map((b) => b.total)).toEqual(['0.10', '0.20', '0.00', '0.00']);
  });

  it('counts whole calendar days', () => {
    expect(daysBetween('2026-10-31', '2026-11-23')).toBe(23);
    expect(daysBetween('2026-11-23', '2026-11-23')).toBe(0);
  });
});

describe('the example in docs/remittance.md', () => {
  it('is what the bot reads and writes', () => {
    const doc = readFileSync(new URL('../../docs/remittance.md', import.meta.url), 'utf8');
    const example = doc.slice(doc.indexOf('## An example'));
    const [file = '', results = ''] = [...example.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
    const read = readRemittanceCsv(new TextEncoder().encode(file), options);
    // The rule of the example: COD_FEE_PERCENT=2.75, COD_FEE_VAT_PERCENT=12.
    const rule: CodFeeRule = { ...NO_FEE, percent: 27_500n, vatPercent: 120_000n };
    const cod = {
      cod: true,
      codAmount: '1500.00',
      fee: codFee(rule, '1500.00', '2026-11-18'),
      returned: false,
      returnFee: '0.00',
    };
    const bookings: Record<string, ExpectedCod> = {
      WB000001: cod,
      WB000002: cod,
      WB000003: cod,
      WB000004: { cod: false, codAmount: '0.00', fee: '0.00', returned: false, returnFee: '0.00' },
    };
    const result = reconcile(
      read.lines,
      (tn) => bookings[tn],
      () => 0n,
    );
    expect(
      remittanceResultsCsv(result.lines)
        .replace(/^\ufeff/, '')
        .replaceAll('\r\n', '\n'),
    ).toBe(results);
    expect(result.totals).toMatchObject({
      gross: '4500.00',
      fee: '138.60',
      net: '4361.40',
      expected: '4361.40',
      remitted: '5857.60',
      difference: '1496.20',
      short: '-53.80',
      over: '1550.00',
      notOurs: '10.00',
    });
    expect(example).toContain(
      '*Gross* PHP 4,500.00 \u2212 *Fee* PHP 138.60 = *Net* PHP 4,361.40; *Expected* PHP 4,361.40, *Remitted* PHP 5,857.60, *Difference* PHP 1,496.20; *Paid short* PHP -53.80, *Paid over* PHP 1,550.00; *Not ours* PHP 10.00',
    );
  });
});
