/**
 * The pickup manifest: groups, exact totals (grams, cents), those to check apart; the CSV equal to the PDF
 * (every Code 128 decoded, the text layer); 1,000 bookings over many pages; names the font cannot draw marked
 * and listed, each inside its column.
 */
// The pickup manifest read as a machine reads it: its CSV parsed, its PDF's pages rendered, barcodes decoded and text extracted; the two agree.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { sampleBooking, sampleParty } from '../../fakes/label-bookings.js';
import {
  buildManifest,
  lineOfBooking,
  lineOfRequest,
  MANIFEST_COLUMNS,
  manifestCsv,
  renderManifest,
} from '../../src/labels/manifest.js';
import { UNPRINTABLE_MARK } from '../../src/labels/pdf.js';
import { toBookingWire } from '../../src/waybill/wire.js';
import { DECODING_MS, placedChars, readPdf } from './read-pdf.js';

const settings = { currency: 'PHP', live: true, madeAt: '2026-11-23 08:00 (Asia/Manila)' };
const bakery = { shipperCode: '', shipper: sampleParty('Zo\u00eb Ch\u00e2teau Bakery', 'Naga') };

function sampleDay() {
  const booked = [
    sampleBooking('WB000003', { quantity: '2', codAmount: '1500.50' }),
    sampleBooking('WB000001', {
      ...bakery,
      paymentMethod: 'PREPAID',
      codAmount: '',
      package: { type: 'BOX', weight: '0.1' },
    }),
    sampleBooking('WB000002', { codAmount: '999.99', package: { type: 'BOX', weight: '0.2' } }),
  ].map((booking) => lineOfBooking(booking, 'COD'));
  const unknown = [lineOfRequest(toBookingWire(sampleBooking('WB000009', bakery), 'Asia/Manila'), 'COD')];
  return buildManifest('2026-11-23', booked, unknown);
}

describe('pickup manifest', () => {
  it(
    'groups by shipper with exact totals; the CSV has the PDF lines and totals; unknown ones apart',
    async () => {
      const manifest = sampleDay();
      const rows = parse(manifestCsv(manifest), { bom: true, columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0] ?? {})).toEqual(MANIFEST_COLUMNS);
      expect(
        rows.map((r) => [
          r.section,
          r.shipper,
          r.tracking_number,
          r.bookings,
          r.parcels,
          r.weight_kg,
          r.cod_amount,
        ]),
      ).toEqual([
        ['booked', 'Acme Trading Inc. (ACME-MKT)', 'WB000002', '1', '1', '0.2', '999.99'],
        ['booked', 'Acme Trading Inc. (ACME-MKT)', 'WB000003', '1', '2', '2.5', '1500.50'],
        ['shipper total', 'Acme Trading Inc. (ACME-MKT)', '', '2', '3', '2.7', '2500.49'],
        ['booked', 'Zo\u00eb Ch\u00e2teau Bakery', 'WB000001', '1', '1', '0.1', '0.00'],
        ['shipper total', 'Zo\u00eb Ch\u00e2teau Bakery', '', '1', '1', '0.1', '0.00'],
        // 0.1 + 0.2 + 2.5 is 2.8 here, not 2.8000000000000003: weights add up in grams.
        ['total', '', '', '3', '4', '2.8', '2500.49'],
        ['check with the courier', 'Zo\u00eb Ch\u00e2teau Bakery', 'WB000009', '1', '1', '2.5', '1500.00'],
      ]);

      const { pdf, unprintable } = await renderManifest(manifest, settings);
      expect(unprintable).toEqual([]);
      const [page, ...more] = await readPdf(pdf);
      expect(more).toEqual([]);
      expect([page?.width, page?.height]).toEqual([595, 842]);
      // Every line's Code 128, top to bottom: the groups in order, then the one to check.
      expect(page?.barcodes).toEqual(
        ['WB000002', 'WB000003', 'WB000001', 'WB000009'].map((text) => ({ format: 'Code128', text })),
      );
      const text = page?.text ?? '';
      expect(text).toContain('Pickup manifest 2026-11-23');
      expect(text).toContain('Zo\u00eb Ch\u00e2teau Bakery');
      expect(text).toContain('Ni\u00f1a Pe\u00f1afrancia');
      expect(text).toContain('Total Acme Trading Inc. (ACME-MKT): 2 bookings');
      expect(text).toContain('2,500.49');
      expect(text).toMatch(/Total: 3 bookings\s+4\s+2\.8\s+2,500\.49/);
      expect(text.indexOf('Check with the courier before hand-over')).toBeGreaterThan(
        text.indexOf('Total: 3 bookings'),
      );
      for (const label of ['Released by', 'Received by, courier rider', 'Date and time'])
        expect(text).toContain(label);
      expect(text).not.toContain('SANDBOX');
    },
    DECODING_MS,
  );

  it(
    '1,000 bookings: many pages, each line once, the last page with the totals, and the CSV agreeing',
    async () => {
      // Two bookings validated, each under many tracking numbers: validating a thousand took half the test.
      const [plain, fromBakery] = [sampleBooking('WB000000'), sampleBooking('WB000000', bakery)];
      const booked = Array.from({ length: 1000 }, (_, i) =>
        lineOfBooking(
          { ...(i % 4 === 0 ? fromBakery : plain), trackingNumber: `WB${String(i + 1).padStart(6, '0')}` },
          'COD',
        ),
      );
      const manifest = buildManifest('2026-11-23', booked, []);
      const { pdf } = await renderManifest(manifest, { ...settings, live: false });
      const pages = await readPdf(pdf, (i) => i === 0);
      expect(pages.length).toBeGreaterThan(40);
      const all = pages.map((p) => p.text).join('\n');
      expect(all.match(/WB\d{6}/g)).toHaveLength(1000);
      expect(pages.at(-1)?.text).toMatch(/Total: 1000 bookings\s+1000\s+2500\s+1,500,000\.00/);
      expect(pages.every((p) => p.text.includes('SANDBOX / TEST'))).toBe(true);
      expect(pages[0]?.barcodes.length).toBeGreaterThan(15);
      const rows = parse(manifestCsv(manifest), { bom: true, columns: true }) as Record<string, string>[];
      expect(rows.filter((r) => r.section === 'booked')).toHaveLength(1000);
      expect(rows.find((r) => r.section === 'total')).toMatchObject({
        bookings: '1000',
        parcels: '1000',
        weight_kg: '2500',
        cod_amount: '1500000.00',
      });
    },
    DECODING_MS,
  );

  it('names the font cannot draw: marked and listed, each within its column and the page margins', async () => {
    const receiver = `Ana${'\u{1F46A}'.repeat(30)}`;
    const manifest = buildManifest(
      '2026-11-23',
      [
        lineOfBooking(
          sampleBooking('WB000004', {
            shipperCode: '',
            shipper: sampleParty('\u6771\u4eac \u0645\u0631\u062d\u0628\u0627 Bakery', 'Naga'),
            consignee: sampleParty(receiver, '\u05e9\u05dc\u05d5\u05dd'),
          }),
          'COD',
        ),
      ],
      [],
    );
    const { pdf, unprintable } = await renderManifest(manifest, settings);
    expect([...unprintable].sort()).toEqual(
      [
        '\u{1F46A}',
        '\u6771',
        '\u4eac',
        ...'\u0645\u0631\u062d\u0628\u0627',
        ...'\u05e9\u05dc\u05d5\u05dd',
      ].sort(),
    );
    const chars = placedChars(pdf, 0);
    const text = chars.map((c) => c.char).join('');
    expect(text).toContain(`Ana${UNPRINTABLE_MARK.repeat(30)}`);
    expect(text).toContain(`${UNPRINTABLE_MARK.repeat(2)} ${UNPRINTABLE_MARK.repeat(5)} Bakery`);
    expect(text).not.toMatch(/[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Han}\u{10000}-\u{10FFFF}]/u);
    // A4 with 36 pt margins; the receiver's column is x 184-314, the city's 320-392.
    for (const c of chars) {
      expect(c.x0, c.char).toBeGreaterThanOrEqual(36 - 0.05);
      expect(c.x1, c.char).toBeLessThanOrEqual(595 - 36 + 0.05);
    }
    const start = text.indexOf('Ana');
    const columns = [
      [start, start + 33, 184, 314],
      [start + 33, start + 37, 320, 392],
    ] as const;
    for (const [from, to, left, right] of columns) {
      for (const c of chars.slice(from, to)) {
        expect(c.x0, c.char).toBeGreaterThanOrEqual(left - 0.05);
        expect(c.x1, c.char).toBeLessThanOrEqual(right + 0.05);
      }
    }
  });
});
