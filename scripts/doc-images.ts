/**
 * `npx tsx scripts/doc-images.ts`: renders the first page of a sample label and of a sample pickup
 * manifest to PNG for docs/labels.md, with the same code the bot prints with (MuPDF renders them),
 * and the same label's ZPL as the tests draw it; and the weekly report's chart.
 */
import { writeFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { sampleBooking, sampleParty } from '../fakes/label-bookings.js';
import { renderLabels } from '../src/labels/label.js';
import { buildManifest, lineOfBooking, lineOfRequest, renderManifest } from '../src/labels/manifest.js';
import { renderZpl } from '../src/labels/zpl.js';
import { renderChart } from '../src/render/chart.js';
import { defaultCatalog } from '../src/waybill/catalog.js';
import { toBookingWire } from '../src/waybill/wire.js';
import { readZpl, renderZplLabel } from '../test/labels/read-zpl.js';

function firstPageAsPng({ pdf }: { pdf: Uint8Array }, scale: number, file: string): void {
  const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0);
  writeFileSync(
    file,
    page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true).asPNG(),
  );
}

const label = sampleBooking('WB000042', {
  quantity: '3',
  consignee: sampleParty('Jos\u00e9 \u00d1. Dela Cruz', 'Cebu City', {
    street: 'Unit 4B, Casa Pe\u00f1afrancia, 88 Rizal Ave',
  }),
});
firstPageAsPng(
  await renderLabels([{ booking: label, trackingRefNo: 'TRK-77120' }], {
    pageSize: '4x6',
    catalog: defaultCatalog,
    currency: 'PHP',
    timeZone: 'Asia/Manila',
    live: true,
  }),
  2,
  'docs/images/label-4x6.png',
);

const bakery = { shipperCode: '', shipper: sampleParty('Zo\u00eb Ch\u00e2teau Bakery', 'Naga') };
const receivers = [
  'Ni\u00f1a Pe\u00f1afrancia',
  'Maria Santos',
  'Jos\u00e9 \u00d1. Dela Cruz',
  'Ana Cruz',
  'Ben Reyes',
  'Cora Diaz',
];
const booked = receivers.map((name, i) =>
  lineOfBooking(
    sampleBooking(`WB00010${i}`, {
      ...(i % 3 === 0 ? bakery : {}),
      consignee: sampleParty(name, i % 2 ? 'Makati' : 'Cebu City'),
      quantity: String(1 + (i % 3)),
      ...(i === 4 ? { paymentMethod: 'PREPAID', codAmount: '' } : { codAmount: `${1200 + 150 * i}` }),
    }),
    'COD',
  ),
);
const unknown = [lineOfRequest(toBookingWire(sampleBooking('WB000110'), 'Asia/Manila'), 'COD')];
firstPageAsPng(
  await renderManifest(buildManifest('2026-11-23', booked, unknown), {
    currency: 'PHP',
    live: true,
    madeAt: '2026-11-23 08:00 (Asia/Manila)',
  }),
  1.5,
  'docs/images/manifest.png',
);

// The ZPL label as a 203 dpi printer would print it, drawn by the tests' renderer (font 0 stood in for by DejaVu Sans Condensed Bold).
const [zplLabel] = readZpl(
  (
    await renderZpl([{ booking: label, trackingRefNo: 'TRK-77120' }], {
      dpi: 203,
      catalog: defaultCatalog,
      currency: 'PHP',
      timeZone: 'Asia/Manila',
      live: true,
    })
  ).zpl,
);
if (zplLabel) firstPageAsPng(await renderZplLabel(zplLabel, 203), 2, 'docs/images/label-zpl.png');

// The weekly report's chart (docs/usage.md), drawn from a sample week as the render worker draws it.
writeFileSync(
  'docs/images/weekly-report-chart.png',
  renderChart({
    days: ['11-23', '11-24', '11-25', '11-26', '11-27', '11-28', '11-29'].map((day, i) => ({
      date: `2026-${day}`,
      byOutcome: [18 + i * 3, 2 + (i % 3), 1 + (i % 2), 4 + (i % 4)],
    })),
    outcomes: ['Delivered', 'Failed attempt', 'Returned to sender', 'Other'],
    buckets: [
      { label: '0\u20137 days', cents: '4850000' },
      { label: '8\u201314 days', cents: '1275000' },
      { label: '15\u201330 days', cents: '390000' },
      { label: 'over 30 days', cents: '125000' },
    ],
    currency: 'PHP',
  }),
);
