/**
 * Labels read as a machine reads them (MuPDF renders, ZXing decodes): one page per parcel, each Code 128 and
 * the QR code, 4x6 and A6, COD or prepaid, the test mark, each address part once, names with Ñ, overlong text kept clear of the
 * barcode; emoji, CJK, Hebrew and Arabic marked and listed, every glyph inside the margin and off the
 * barcode.
 */
// Parcel labels read as a machine reads them: pages rendered by MuPDF, barcodes decoded by ZXing, the text layer extracted.
import * as mupdf from 'mupdf';
import { describe, expect, it } from 'vitest';
import {
  sampleChild as child,
  overlongBooking,
  sampleBooking,
  sampleParty,
} from '../../fakes/label-bookings.js';
import {
  addressText,
  type PrintSettings,
  parcelsOf,
  renderLabels,
  TEST_MARK,
} from '../../src/labels/label.js';
import { UNPRINTABLE_MARK } from '../../src/labels/pdf.js';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { DECODING_MS, placedChars, readPdf } from './read-pdf.js';

const settings: PrintSettings = {
  pageSize: '4x6',
  catalog: defaultCatalog,
  currency: 'PHP',
  timeZone: 'Asia/Manila',
  live: true,
};

describe('parcel labels', () => {
  it('name each address part once: a message read whole into the street is not repeated after it', () => {
    const receiver = sampleBooking('WB000123', {
      consignee: {
        ...sampleParty('Ana Cruz', 'Quezon City'),
        street: '101 Aurora Blvd Brgy. Socorro',
        barangay: 'Socorro',
        district: '',
        region: 'Metro Manila',
        postal: '1109',
      },
    }).consignee;
    expect(addressText(receiver)).toBe('101 Aurora Blvd Brgy. Socorro\nQuezon City, Metro Manila\n1109 PH');
    // A part that only begins a street word is still written.
    expect(addressText({ ...receiver, street: '9 Socorrito St' })).toBe(
      '9 Socorrito St\nSocorro, Quezon City, Metro Manila\n1109 PH',
    );
  });

  it(
    'one 4x6 page per parcel of the quantity: the Code 128 reads the booking number, the QR too, "k of N"',
    async () => {
      const booking = sampleBooking('WB000123', { quantity: '3' });
      const { pdf, unprintable } = await renderLabels([{ booking, trackingRefNo: 'REF-9' }], settings);
      expect(unprintable).toEqual([]);
      const pages = await readPdf(pdf);
      expect(pages).toHaveLength(3);
      pages.forEach((page, k) => {
        expect([page.width, page.height]).toEqual([288, 432]);
        expect(page.barcodes).toEqual([
          { format: 'QRCode', text: 'WB000123' },
          { format: 'Code128', text: 'WB000123' },
        ]);
        expect(page.text).toContain(`${k + 1} of 3`);
        expect(page.text).toContain('Ni\u00f1a Pe\u00f1afrancia');
        expect(page.text).toContain('COD PHP 1,500.00');
        expect(page.text).toContain('Courier ref: REF-9');
        expect(page.text).toContain('Handling: Fragile: this side up');
        expect(page.text).toContain('Pickup 2026-11-23 09:30');
        expect(page.text).toContain('6000 PH');
        expect(page.text).not.toContain(TEST_MARK);
      });
    },
    DECODING_MS,
  );

  it(
    "child waybills: page k's Code 128 reads the k-th parcel's number, the QR the booking's",
    async () => {
      const booking = sampleBooking('WB-1001', {
        childWaybills: [child('WB-1001-01', '1.25'), child('WB-1001-02', '0.5'), child('WB-1001-03', '2')],
      });
      expect(parcelsOf(booking).map((p) => p.number)).toEqual(['WB-1001-01', 'WB-1001-02', 'WB-1001-03']);
      const pages = await readPdf((await renderLabels([{ booking }], settings)).pdf);
      expect(pages.map((p) => p.barcodes)).toEqual(
        ['WB-1001-01', 'WB-1001-02', 'WB-1001-03'].map((number) => [
          { format: 'QRCode', text: 'WB-1001' },
          { format: 'Code128', text: number },
        ]),
      );
      expect(pages.map((p) => /(\d) of 3/.exec(p.text)?.[1])).toEqual(['1', '2', '3']);
      expect(pages[1]?.text).toContain('Part 2');
    },
    DECODING_MS,
  );

  it('A6 by the setting; prepaid says so; outside live every page carries the test mark', async () => {
    const booking = sampleBooking('WB000124', {
      paymentMethod: 'PREPAID',
      codAmount: '',
      consignee: sampleParty('Jos\u00e9 \u00d1. Dela Cruz', 'Naga', { name: 'Zo\u00eb Ch\u00e2teau' }),
    });
    const { pdf, unprintable } = await renderLabels([{ booking }], {
      ...settings,
      pageSize: 'A6',
      live: false,
    });
    expect(unprintable).toEqual([]);
    const pages = await readPdf(pdf);
    expect(pages).toHaveLength(1);
    const [page] = pages;
    expect([page?.width, page?.height]).toEqual([298, 420]);
    expect(page?.text).toContain('No COD / prepaid');
    expect(page?.text).not.toContain('COD PHP');
    expect(page?.text).toContain('Zo\u00eb Ch\u00e2teau');
    expect(page?.text).toContain(TEST_MARK);
    expect(page?.barcodes.map((b) => b.text)).toEqual(['WB000124', 'WB000124']);
  });

  it('overlong names and addresses shrink and wrap inside the page, clear of the barcode, which still reads', async () => {
    const booking = overlongBooking('WB000125');
    const { pdf: bytes } = await renderLabels([{ booking }], settings);
    const [page] = await readPdf(bytes);
    expect(page?.barcodes).toEqual([
      { format: 'QRCode', text: 'WB000125' },
      { format: 'Code128', text: 'WB000125' },
    ]);
    // Every line of text lies on the page, and none but the number under it reaches the barcode.
    const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    const json = JSON.parse(doc.loadPage(0).toStructuredText('preserve-whitespace').asJSON()) as {
      blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[];
    };
    const lines = json.blocks.flatMap((b) => b.lines ?? []);
    const barcodeTop = 432 - 10 - 54 - 16;
    for (const line of lines) {
      expect(line.bbox.x, line.text).toBeGreaterThanOrEqual(0);
      expect(line.bbox.x + line.bbox.w, line.text).toBeLessThanOrEqual(288.5);
      expect(line.bbox.y + line.bbox.h, line.text).toBeLessThanOrEqual(432);
      if (line.text.trim() !== 'WB000125')
        expect(line.bbox.y + line.bbox.h, line.text).toBeLessThanOrEqual(barcodeTop);
    }
    expect(lines.some((line) => line.text.includes('Jos\u00e9 \u00d1.'))).toBe(true);
  });

  it(
    'characters the font cannot draw (emoji, CJK) and right-to-left ones: marked, listed, every glyph inside the margin and off the barcode',
    async () => {
      const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
      const booking = sampleBooking('WB000126', {
        consignee: sampleParty(`Ana${'\u{1F46A}'.repeat(30)}`, '\u05e9\u05dc\u05d5\u05dd', {
          street: `${family} \u6771\u4eac Tower`,
        }),
        shipper: sampleParty('\u0645\u0631\u062d\u0628\u0627 Trading', 'Makati'),
      });
      const { pdf, unprintable } = await renderLabels([{ booking }], settings);
      // Each once, as typed: the emoji sequence whole, every letter of the Hebrew and Arabic words.
      expect(unprintable).toHaveLength(new Set(unprintable).size);
      expect([...unprintable].sort()).toEqual(
        [
          '\u{1F46A}',
          family,
          '\u6771',
          '\u4eac',
          ...'\u05e9\u05dc\u05d5\u05dd',
          ...'\u0645\u0631\u062d\u0628\u0627',
        ].sort(),
      );
      const [page] = await readPdf(pdf);
      expect(page?.barcodes).toEqual([
        { format: 'QRCode', text: 'WB000126' },
        { format: 'Code128', text: 'WB000126' },
      ]);
      const text = page?.text.replaceAll('\n', '') ?? '';
      expect(text).toContain(`Ana${UNPRINTABLE_MARK.repeat(30)}`);
      expect(text).toContain(`${UNPRINTABLE_MARK} ${UNPRINTABLE_MARK.repeat(2)} Tower`);
      expect(text).toContain(`${UNPRINTABLE_MARK.repeat(5)} Trading`);
      expect(text).not.toMatch(/[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Han}\u{10000}-\u{10FFFF}]/u);
      // The margin is 10 pt on every side; the Code 128 takes x 18-270, y 354-404.
      const chars = placedChars(pdf, 0);
      expect(chars.length).toBeGreaterThan(100);
      for (const c of chars) {
        expect(c.x0, c.char).toBeGreaterThanOrEqual(10 - 0.01);
        expect(c.x1, c.char).toBeLessThanOrEqual(278 + 0.01);
        expect(c.y0, c.char).toBeGreaterThanOrEqual(10 - 0.01);
        expect(c.y1, c.char).toBeLessThanOrEqual(422 + 0.01);
        const overBarcode = c.x1 > 18 && c.x0 < 270 && c.y1 > 354 && c.y0 < 404;
        expect(overBarcode, c.char).toBe(false);
      }
    },
    DECODING_MS,
  );
});
