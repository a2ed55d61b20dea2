/**
 * ZPL labels read as a printer reads them (`test/labels/read-zpl.ts`: commands parsed, fields placed in dots,
 * a label drawn and ZXing decoding it): one label per parcel at 203 and 300 dpi, `^CI28`, the k-th parcel's
 * `^BC`, the booking's `^BQ`, names with Ñ and ë, every field inside the label and no text over a barcode,
 * overlong text wrapped and cut; characters font 0 cannot print marked and listed, ZPL's own `^` `~` `_` `\`
 * kept as text; 999 labels in file order.
 */
// ZPL labels read as a printer reads them: parsed into commands, each field placed in dots, a label rendered and its barcodes decoded by ZXing.
import { describe, expect, it } from 'vitest';
import {
  sampleChild as child,
  overlongBooking,
  sampleBooking,
  sampleParty,
} from '../../fakes/label-bookings.js';
import { type LabelBooking, TEST_MARK } from '../../src/labels/label.js';
import { type LabelDpi, renderZpl, ZPL_UNPRINTABLE_MARK, type ZplSettings } from '../../src/labels/zpl.js';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { DECODING_MS } from './read-pdf.js';
import { extentOf, parseZpl, readZpl, renderZplLabel, type ZplField, type ZplLabel } from './read-zpl.js';

const settings: ZplSettings = {
  dpi: 203,
  catalog: defaultCatalog,
  currency: 'PHP',
  timeZone: 'Asia/Manila',
  live: true,
};

const texts = (label: ZplLabel | undefined) =>
  (label?.fields ?? []).flatMap((f) => (f.kind === 'text' ? [f.lines.join('\n')] : []));
const ofKind = <K extends ZplField['kind']>(label: ZplLabel | undefined, kind: K) =>
  (label?.fields ?? []).filter((f): f is Extract<ZplField, { kind: K }> => f.kind === kind);

/** Every field inside the label, 10 pt in from its edges; no text over a barcode (the number under it aside). */
function expectLaidOut(label: ZplLabel, dpi: LabelDpi): void {
  const margin = Math.floor((10 * dpi) / 72);
  expect([label.width, label.length]).toEqual([4 * dpi, 6 * dpi].map((d) => Math.round(d * 1.0)));
  const barcodes = label.fields.filter((f) => f.kind === 'code128' || f.kind === 'qr').map(extentOf);
  for (const field of label.fields) {
    const box = extentOf(field);
    const name = field.kind === 'text' ? field.lines.join(' ') : field.kind;
    expect(box.x0, name).toBeGreaterThanOrEqual(margin);
    expect(box.y0, name).toBeGreaterThanOrEqual(margin);
    expect(box.x1, name).toBeLessThanOrEqual(label.width - margin + 1);
    expect(box.y1, name).toBeLessThanOrEqual(label.length - margin + 1);
    if (field.kind !== 'text') continue;
    expect(field.lines.length, name).toBeLessThanOrEqual(field.maxLines);
    for (const bar of barcodes) {
      const over = box.x1 > bar.x0 && box.x0 < bar.x1 && box.y1 > bar.y0 && box.y0 < bar.y1;
      expect(over, `${name} over a barcode`).toBe(false);
    }
  }
}

describe('ZPL labels', () => {
  it.each([203, 300] as const)(
    '%i dpi: one label per parcel, 4x6 in, UTF-8; ^BC is the k-th parcel, ^BQ the booking; names with \u00d1 and \u00eb as typed',
    async (dpi) => {
      const booking = sampleBooking('WB-1001', {
        childWaybills: [child('WB-1001-01'), child('WB-1001-02'), child('WB-1001-03')],
        consignee: sampleParty('Jos\u00e9 \u00d1. Dela Cruz', 'Cebu City', {
          name: 'Ni\u00f1a Pe\u00f1afrancia',
        }),
        shipper: sampleParty('Zo\u00eb Ch\u00e2teau', 'Naga'),
      });
      const { zpl, unprintable } = await renderZpl([{ booking, trackingRefNo: 'REF-9' }], {
        ...settings,
        dpi,
      });
      expect(unprintable).toEqual([]);
      const labels = readZpl(zpl);
      expect(labels).toHaveLength(3);
      labels.forEach((label, k) => {
        expect(label.encoding).toBe('28');
        expectLaidOut(label, dpi);
        expect(ofKind(label, 'code128').map((b) => [b.data, b.mode])).toEqual([[`WB-1001-0${k + 1}`, 'A']]);
        expect(ofKind(label, 'qr').map((b) => b.data)).toEqual(['MA,WB-1001']);
        const text = texts(label);
        expect(text).toContain(`${k + 1} of 3`);
        expect(text).toContain('Ni\u00f1a Pe\u00f1afrancia');
        expect(text.join('\n')).toContain('Zo\u00eb Ch\u00e2teau');
        expect(text).toContain('COD PHP 1,500.00');
        expect(text.join('\n')).toContain('Courier ref: REF-9');
        expect(text.join('\n')).toContain(`Part ${k + 1}`);
        expect(text.join('\n')).toContain('Pickup 2026-11-23 09:30');
        expect(text.join('\n')).not.toContain(TEST_MARK);
      });
    },
  );

  it(
    'rendered: the Code 128 and the QR code decode, every line fits its block; prepaid; the test mark outside live',
    async () => {
      const booking = sampleBooking('WB000124', {
        paymentMethod: 'PREPAID',
        codAmount: '',
        quantity: '2',
        consignee: sampleParty('Jos\u00e9 \u00d1. Dela Cruz', 'Naga'),
      });
      for (const dpi of [203, 300] as const) {
        const labels = readZpl((await renderZpl([{ booking }], { ...settings, dpi, live: false })).zpl);
        expect(labels).toHaveLength(2);
        const { page, tooWide } = await renderZplLabel(labels[1] as ZplLabel, dpi);
        expect(tooWide).toEqual([]);
        expect(page.barcodes).toEqual([
          { format: 'QRCode', text: 'WB000124' },
          { format: 'Code128', text: 'WB000124' },
        ]);
        expect(page.text).toContain('Jos\u00e9 \u00d1. Dela Cruz');
        expect(page.text).toContain('No COD / prepaid');
        expect(page.text).toContain('2 of 2');
        expect(page.text).toContain(TEST_MARK);
      }
    },
    DECODING_MS,
  );

  it(
    'overlong names, addresses and details shrink, wrap and end in an ellipsis inside their blocks, clear of both barcodes, which still read',
    async () => {
      const [label] = readZpl((await renderZpl([{ booking: overlongBooking('WB000125') }], settings)).zpl);
      if (!label) throw new Error('no label');
      expectLaidOut(label, 203);
      const text = texts(label).join('\n');
      expect(text).toContain('Jos\u00e9 \u00d1.');
      expect(text).toMatch(/Ca\w*\u2026/);
      const { page, tooWide } = await renderZplLabel(label, 203);
      expect(tooWide).toEqual([]);
      expect(page.barcodes).toEqual([
        { format: 'QRCode', text: 'WB000125' },
        { format: 'Code128', text: 'WB000125' },
      ]);
    },
    DECODING_MS,
  );

  it("characters font 0 cannot print are marked and listed once; ZPL's own ^ ~ _ and \\ in typed text stay text", async () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    const booking = sampleBooking('WB000126', {
      consignee: sampleParty(`Ana ${family}\u6771 ^XZ~JR_x\\&y`, '\u05e9\u05dc', {
        street: 'Rue de l\u2019\u0152uvre',
      }),
      // Decomposed: e and a combining diaeresis, composed to \u00eb as the printer's font has it.
      shipper: sampleParty('Zoe\u0308 Trading', 'Makati'),
    });
    const { zpl, unprintable } = await renderZpl([{ booking }], settings);
    expect([...unprintable].sort()).toEqual([family, '\u6771', '\u05e9', '\u05dc'].sort());
    const commands = parseZpl(zpl);
    expect(commands.filter((c) => c.name === '^XA' || c.name === '^XZ').map((c) => c.name)).toEqual([
      '^XA',
      '^XZ',
    ]);
    const [label] = readZpl(zpl);
    const text = texts(label).join('\n');
    expect(text).toContain(`Ana ${ZPL_UNPRINTABLE_MARK}${ZPL_UNPRINTABLE_MARK} ^XZ~JR_x\\&y`);
    expect(text).toContain('Rue de l\u2019\u0152uvre');
    expect(text).toContain('Zo\u00eb Trading');
  });

  it('999 labels in one file, in order: each parsed, the k-th Code 128 the k-th parcel', async () => {
    // One booking validated, under 333 tracking numbers: validating each took longer than the rendering.
    const booking = sampleBooking('WB000000', { quantity: '3' });
    const items: LabelBooking[] = Array.from({ length: 333 }, (_, i) => ({
      booking: { ...booking, trackingNumber: `WB${String(i).padStart(6, '0')}` },
    }));
    await renderZpl(items.slice(0, 1), settings);
    const started = performance.now();
    const { zpl } = await renderZpl(items, settings);
    // Measured at 0.2 to 0.5 s on a busy 2-core machine; the bound only catches a change of scale.
    expect(performance.now() - started).toBeLessThan(5_000);
    const labels = readZpl(zpl);
    expect(labels).toHaveLength(999);
    expect(labels.map((label) => ofKind(label, 'code128')[0]?.data)).toEqual(
      items.flatMap((item) => Array(3).fill(item.booking.trackingNumber)),
    );
  });
});
