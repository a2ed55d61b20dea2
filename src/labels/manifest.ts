/** The pickup manifest (hand-over sheet): a day's bookings by shipper, with totals, as a PDF and a CSV file that agree line for line. */
import { toCsv } from '../waybill/csv/write.js';
import { formatCents, formatMoney, parseCents } from '../waybill/fields.js';
import type { Booking } from '../waybill/schemas.js';
import type { BookingRequestWire } from '../waybill/wire-types.js';
import { TEST_MARK } from './label.js';
import {
  code128,
  type FontName,
  finish,
  fitText,
  newDocument,
  type Pdf,
  pdfTools,
  type RenderedPdf,
  setFont,
} from './pdf.js';

/** One booking on the manifest. Weights in grams and amounts in cents: totals are exact. */
export interface ManifestLine {
  trackingNumber: string;
  /** The sender profile's shipper code and name, or the sender's name. */
  shipper: string;
  receiver: string;
  city: string;
  parcels: number;
  grams: number;
  codCents: bigint;
}

export interface ManifestTotals {
  bookings: number;
  parcels: number;
  grams: number;
  codCents: bigint;
}

export interface ManifestGroup {
  shipper: string;
  lines: ManifestLine[];
  totals: ManifestTotals;
}

export interface Manifest {
  /** The pickup day, YYYY-MM-DD in the waybill's time zone. */
  date: string;
  groups: ManifestGroup[];
  totals: ManifestTotals;
  /** Bookings the courier never answered for: listed apart, in no total. */
  unknown: ManifestLine[];
  /** Bookings of the day that are not handed over (cancelled, returned), and why: named, in no total, not to scan. */
  leftOut: LeftOut[];
}

export interface LeftOut {
  line: ManifestLine;
  why: string;
}

function shipperOf(name: string, code: string): string {
  return code ? `${name} (${code})` : name;
}

/** "2.5" kg as 2500 g, exactly; undefined when it is not a weight. */
function gramsOf(kilograms: string): number {
  const match = /^(\d+)(?:\.(\d{1,3}))?\d*$/.exec(kilograms.trim());
  if (!match) return 0;
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** "2.5" from 2500 g. */
export function kilograms(grams: number): string {
  const fraction = String(grams % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${Math.floor(grams / 1000)}${fraction ? `.${fraction}` : ''}`;
}

/** A stored booking's line; COD only when its payment method is cash on delivery. */
export function lineOfBooking(booking: Booking, codPaymentMethod: string): ManifestLine {
  return {
    trackingNumber: booking.trackingNumber,
    shipper: shipperOf(booking.shipper.name, booking.shipperCode),
    receiver: booking.consignee.name,
    city: booking.consignee.city,
    parcels: booking.childWaybills.length || Math.max(1, booking.quantity),
    grams: gramsOf(String(booking.package.weight)),
    codCents: booking.paymentMethod === codPaymentMethod ? (parseCents(booking.codAmount) ?? 0n) : 0n,
  };
}

/** The line of a booking known only by the request sent (its outcome unknown). */
export function lineOfRequest(request: BookingRequestWire, codPaymentMethod: string): ManifestLine {
  return {
    trackingNumber: request.trackingNumber,
    shipper: shipperOf(request.shipperName, request.shipperCode),
    receiver: request.consigneeName,
    city: request.consigneeAddress2,
    parcels: request.childWaybills.length || Math.max(1, Number(request.quantity) || 1),
    grams: gramsOf(request.PackageWeight),
    codCents: request.paymentMethod === codPaymentMethod ? (parseCents(request.codAmount) ?? 0n) : 0n,
  };
}

const noTotals = (): ManifestTotals => ({ bookings: 0, parcels: 0, grams: 0, codCents: 0n });

function add(totals: ManifestTotals, line: ManifestLine): void {
  totals.bookings += 1;
  totals.parcels += line.parcels;
  totals.grams += line.grams;
  totals.codCents += line.codCents;
}

/** Groups by shipper (by name), lines by tracking number, totals per group and overall. */
export function buildManifest(
  date: string,
  booked: readonly ManifestLine[],
  unknown: readonly ManifestLine[],
  leftOut: readonly LeftOut[] = [],
): Manifest {
  const byShipper = new Map<string, ManifestGroup>();
  const totals = noTotals();
  for (const line of booked) {
    let group = byShipper.get(line.shipper);
    if (!group) {
      group = { shipper: line.shipper, lines: [], totals: noTotals() };
      byShipper.set(line.shipper, group);
    }
    group.lines.push(line);
    add(group.totals, line);
    add(totals, line);
  }
  const byNumber = (a: ManifestLine, b: ManifestLine) => (a.trackingNumber < b.trackingNumber ? -1 : 1);
  const groups = [...byShipper.values()].sort((a, b) => a.shipper.localeCompare(b.shipper));
  for (const group of groups) group.lines.sort(byNumber);
  return {
    date,
    groups,
    totals,
    unknown: [...unknown].sort(byNumber),
    leftOut: [...leftOut].sort((a, b) => byNumber(a.line, b.line)),
  };
}

export const MANIFEST_COLUMNS = [
  'section',
  'shipper',
  'tracking_number',
  'receiver',
  'city',
  'bookings',
  'parcels',
  'weight_kg',
  'cod_amount',
  'why',
];

/** Every line and total of the PDF, in its order: lines, each group's total, the overall total, those to check, then those left out. */
export function manifestCsv(manifest: Manifest): string {
  const line = (section: string, l: ManifestLine, why = '') => [
    section,
    l.shipper,
    l.trackingNumber,
    l.receiver,
    l.city,
    '1',
    String(l.parcels),
    kilograms(l.grams),
    formatCents(l.codCents),
    why,
  ];
  const total = (section: string, shipper: string, t: ManifestTotals) => [
    section,
    shipper,
    '',
    '',
    '',
    String(t.bookings),
    String(t.parcels),
    kilograms(t.grams),
    formatCents(t.codCents),
    '',
  ];
  return toCsv(MANIFEST_COLUMNS, [
    ...manifest.groups.flatMap((group) => [
      ...group.lines.map((l) => line('booked', l)),
      total('shipper total', group.shipper, group.totals),
    ]),
    total('total', '', manifest.totals),
    ...manifest.unknown.map((l) => line('check with the courier', l)),
    ...manifest.leftOut.map((l) => line('left out', l.line, l.why)),
  ]);
}

export interface ManifestSettings {
  currency: string;
  live: boolean;
  /** Shown in the heading: when the sheet was made, in the waybill's time zone. */
  madeAt: string;
}

/** A4 portrait: an office printer's sheet. */
const PAGE = { width: 595, height: 842 };
const MARGIN = 36;
const ROW = 34;
/** Column left edges and widths: barcode, receiver, city, parcels, weight, COD. */
const COLUMNS = [
  { title: 'Tracking number', x: MARGIN, width: 140 },
  { title: 'Receiver', x: MARGIN + 148, width: 130 },
  { title: 'City', x: MARGIN + 284, width: 72 },
  { title: 'Parcels', x: MARGIN + 362, width: 34 },
  { title: 'Weight kg', x: MARGIN + 400, width: 46 },
  { title: 'COD', x: MARGIN + 450, width: 73 },
] as const;

type Tools = Awaited<ReturnType<typeof pdfTools>>;

/** Writes pages top to bottom, starting a new page (with its heading) when a block does not fit. */
class Sheet {
  private y = 0;
  private page = 0;

  constructor(
    private readonly t: Tools,
    readonly doc: Pdf,
    private readonly heading: string,
    private readonly settings: ManifestSettings,
  ) {}

  /** Room for `height` points (and `keep` more after them: a title stays with its first line), on a new page if need be; returns where to draw. */
  room(height: number, { columns = true, keep = 0 } = {}): number {
    if (this.page === 0 || this.y + height + keep > PAGE.height - MARGIN) this.newPage(columns);
    const at = this.y;
    this.y += height;
    return at;
  }

  private newPage(columns: boolean): void {
    const { doc } = this;
    this.page += 1;
    doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
    this.y = MARGIN;
    if (!this.settings.live) {
      doc.rect(MARGIN, this.y, PAGE.width - 2 * MARGIN, 22).fill('black');
      doc
        .fillColor('white')
        .font('bold')
        .fontSize(13)
        .text(TEST_MARK, MARGIN, this.y + 4, {
          width: PAGE.width - 2 * MARGIN,
          align: 'center',
          lineBreak: false,
        });
      this.y += 28;
    }
    doc.fillColor('black').font('bold').fontSize(14).text(this.heading, MARGIN, this.y, { lineBreak: false });
    setFont(doc, 'regular')
      .fontSize(8)
      .text(`Page ${this.page}  \u00b7  made ${this.settings.madeAt}`, MARGIN, this.y + 4, {
        width: PAGE.width - 2 * MARGIN,
        align: 'right',
        lineBreak: false,
      });
    this.y += 24;
    if (columns) this.columnTitles();
  }

  private columnTitles(): void {
    const { doc } = this;
    setFont(doc, 'bold').fontSize(7.5);
    // Numbers are right-aligned, and so are their titles.
    COLUMNS.forEach((column, i) => {
      const align = i >= 3 ? 'right' : 'left';
      doc.text(column.title, column.x, this.y, { width: column.width, align, lineBreak: false });
    });
    this.y += 11;
    doc
      .moveTo(MARGIN, this.y)
      .lineTo(PAGE.width - MARGIN, this.y)
      .lineWidth(0.75)
      .stroke('black');
    this.y += 4;
  }

  line(line: ManifestLine): void {
    const { doc } = this;
    const y = this.room(ROW);
    const [code, receiver, city, parcels, weight, cod] = COLUMNS;
    code128(this.t, doc, line.trackingNumber, { x: code.x, y, width: code.width, height: 20 }, 1.2);
    fitText(
      doc,
      line.trackingNumber,
      { x: code.x, y: y + 21, width: code.width, height: 10 },
      { max: 7.5, min: 5 },
    );
    fitText(
      doc,
      line.receiver,
      { x: receiver.x, y: y + 2, width: receiver.width, height: ROW - 6 },
      { max: 9, min: 6 },
    );
    fitText(doc, line.city, { x: city.x, y: y + 2, width: city.width, height: ROW - 6 }, { max: 9, min: 6 });
    this.number(String(line.parcels), parcels, y + 2);
    this.number(kilograms(line.grams), weight, y + 2);
    this.number(line.codCents > 0n ? formatMoney(formatCents(line.codCents), '').trim() : '-', cod, y + 2);
    doc
      .moveTo(MARGIN, y + ROW - 2)
      .lineTo(PAGE.width - MARGIN, y + ROW - 2)
      .lineWidth(0.25)
      .stroke('#888888');
  }

  number(text: string, column: { x: number; width: number }, y: number, font: FontName = 'regular'): void {
    setFont(this.doc, font)
      .fillColor('black')
      .fontSize(9)
      .text(text, column.x, y, { width: column.width, align: 'right', lineBreak: false });
  }

  /** A bold line of text across the page. */
  title(text: string, size = 11): void {
    const y = this.room(size + 9, { keep: ROW });
    fitText(
      this.doc,
      text,
      { x: MARGIN, y: y + 3, width: PAGE.width - 2 * MARGIN, height: size + 4 },
      { font: 'bold', max: size, min: 6 },
    );
  }

  totals(label: string, totals: ManifestTotals): void {
    const y = this.room(18);
    const [, receiver, , parcels, weight, cod] = COLUMNS;
    this.doc
      .moveTo(receiver.x, y + 1)
      .lineTo(PAGE.width - MARGIN, y + 1)
      .lineWidth(0.75)
      .stroke('black');
    fitText(
      this.doc,
      `${label}: ${totals.bookings} booking${totals.bookings === 1 ? '' : 's'}`,
      { x: receiver.x, y: y + 4, width: 220, height: 11 },
      { font: 'bold', max: 9, min: 6 },
    );
    this.number(String(totals.parcels), parcels, y + 4, 'bold');
    this.number(kilograms(totals.grams), weight, y + 4, 'bold');
    this.number(formatMoney(formatCents(totals.codCents), '').trim(), cod, y + 4, 'bold');
  }

  signatures(): void {
    const y = this.room(120, { columns: false });
    const { doc } = this;
    const width = (PAGE.width - 2 * MARGIN - 24) / 2;
    const fields = [
      ['Released by (name and signature)', MARGIN, y + 40],
      ['Received by, courier rider (name and signature)', MARGIN + width + 24, y + 40],
      ['Date and time', MARGIN, y + 90],
      ['Number of parcels handed over', MARGIN + width + 24, y + 90],
    ] as const;
    for (const [label, x, lineY] of fields) {
      doc
        .moveTo(x, lineY)
        .lineTo(x + width, lineY)
        .lineWidth(0.75)
        .stroke('black');
      setFont(doc, 'regular')
        .fillColor('black')
        .fontSize(8)
        .text(label, x, lineY + 3, { width, lineBreak: false });
    }
  }
}

/** The manifest as a PDF (lines grouped by shipper with their totals, the overall total, those to check, those left out and why, then lines to sign), and the characters it could not print. */
export async function renderManifest(manifest: Manifest, settings: ManifestSettings): Promise<RenderedPdf> {
  const t = await pdfTools();
  const heading = `Pickup manifest ${manifest.date}`;
  const doc = newDocument(t, PAGE, heading);
  const sheet = new Sheet(t, doc, heading, settings);
  const { currency } = settings;
  if (manifest.groups.length === 0) sheet.title('No bookings to hand over on this day.');
  for (const group of manifest.groups) {
    sheet.title(group.shipper);
    for (const line of group.lines) sheet.line(line);
    sheet.totals(`Total ${group.shipper}`, group.totals);
  }
  sheet.title(`All shippers, COD in ${currency}`);
  sheet.totals('Total', manifest.totals);
  if (manifest.unknown.length > 0) {
    sheet.title('Check with the courier before hand-over');
    fitText(
      doc,
      'The courier never answered whether these were booked: hand them over only once the courier confirms them.',
      { x: MARGIN, y: sheet.room(14), width: PAGE.width - 2 * MARGIN, height: 12 },
      { max: 8, min: 6 },
    );
    for (const line of manifest.unknown) sheet.line(line);
  }
  if (manifest.leftOut.length > 0) {
    sheet.title('Left out: not handed over');
    // No barcode: nothing here is to be scanned.
    for (const { line, why } of manifest.leftOut) {
      fitText(
        doc,
        `${line.trackingNumber}  ${line.receiver}, ${line.city}: ${why}`,
        { x: MARGIN, y: sheet.room(14), width: PAGE.width - 2 * MARGIN, height: 12 },
        { max: 9, min: 6 },
      );
    }
  }
  sheet.signatures();
  return finish(doc);
}
