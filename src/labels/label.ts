/** Parcel labels: one page per parcel of a booking, with its barcode, the booking's QR code and what the rider needs to read. */
import type { Catalog } from '../waybill/catalog.js';
import { labelOf } from '../waybill/catalog.js';
import { zonedDateAndTime } from '../waybill/dates.js';
import { formatMoney } from '../waybill/fields.js';
import type { Booking, Party } from '../waybill/schemas.js';
import {
  code128,
  finish,
  fitText,
  newDocument,
  PAGE_SIZES,
  type PageSizeName,
  type Pdf,
  pdfTools,
  qrCode,
  type RenderedPdf,
  setFont,
} from './pdf.js';

/** What every page is printed with, from the settings. */
export interface PrintSettings {
  pageSize: PageSizeName;
  catalog: Catalog;
  currency: string;
  timeZone: string;
  /** Outside `live` every page says it is not a real waybill. */
  live: boolean;
}

/** A booking to label, as stored: its courier reference when known. */
export interface LabelBooking {
  booking: Booking;
  trackingRefNo?: string;
}

/** One parcel: the number its barcode carries, and which of how many it is. */
export interface Parcel {
  number: string;
  index: number;
  count: number;
  /** A child waybill's own weight, unit, package type and description. */
  child?: Booking['childWaybills'][number];
}

/** Each child waybill its own page and number; without them, `quantity` pages of the booking's number. */
export function parcelsOf(booking: Booking): Parcel[] {
  const children = booking.childWaybills;
  if (children.length > 0) {
    return children.map((child, i) => ({
      number: child.trackingNumber,
      index: i + 1,
      count: children.length,
      child,
    }));
  }
  const count = Math.max(1, booking.quantity);
  return Array.from({ length: count }, (_, i) => ({ number: booking.trackingNumber, index: i + 1, count }));
}

/** The words of the test mark; the dash is written as an escape to keep the bundle ASCII. */
export const TEST_MARK = 'SANDBOX / TEST \u2013 not a real waybill';

/** "No COD / prepaid", or the amount to collect. */
export function codText(booking: Booking, settings: Pick<PrintSettings, 'catalog' | 'currency'>): string {
  return booking.paymentMethod === settings.catalog.codPaymentMethod
    ? `COD ${formatMoney(booking.codAmount, settings.currency)}`
    : 'No COD / prepaid';
}

/** Whether `street` already names `part`, as a whole word: a message's address line is kept whole as the street. */
function streetNames(street: string, part: string): boolean {
  const escaped = part.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(street);
}

/** Street to country, with the postal code, each part once: everything a rider needs to find the door. */
export function addressText(party: Party): string {
  const area = [party.barangay, party.district, party.city, party.region]
    .filter((part) => part && !streetNames(party.street, part))
    .join(', ');
  return [party.street, area, [party.postal, party.country].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join('\n');
}

const MARGIN = 10;

function rule(doc: Pdf, y: number, width: number): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(width - MARGIN, y)
    .lineWidth(0.75)
    .stroke('black');
}

/** Weight, package type, item, handling and the courier's reference: the PDF's details block and the ZPL's. */
export function detailsText(
  item: LabelBooking,
  parcel: Parcel,
  settings: Pick<PrintSettings, 'catalog'>,
): string {
  const { booking } = item;
  const { catalog } = settings;
  const pkg = booking.package;
  const weight = parcel.child
    ? `${parcel.child.weight} (${labelOf(catalog.units, parcel.child.uom)})`
    : `${pkg.weight} kg${booking.quantity > 1 ? ` (all ${booking.quantity})` : ''}`;
  const type = labelOf(catalog.packageTypes, parcel.child?.packageType ?? pkg.type);
  const description = [booking.itemDescription, parcel.child?.itemDescription].filter(Boolean).join(' / ');
  return [
    `Weight ${weight}  \u00b7  ${type}`,
    `Item: ${description}`,
    booking.handlingInstructions ? `Handling: ${booking.handlingInstructions}` : '',
    item.trackingRefNo ? `Courier ref: ${item.trackingRefNo}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

type Tools = Awaited<ReturnType<typeof pdfTools>>;

function drawPage(t: Tools, doc: Pdf, item: LabelBooking, parcel: Parcel, settings: PrintSettings): void {
  const { width: W, height: H } = PAGE_SIZES[settings.pageSize];
  const inner = W - 2 * MARGIN;
  const { booking } = item;
  doc.addPage({ size: [W, H], margin: 0 });
  let y = MARGIN;
  if (!settings.live) {
    doc.rect(MARGIN, y, inner, 20).fill('black');
    doc
      .fillColor('white')
      .font('bold')
      .fontSize(11)
      .text(TEST_MARK, MARGIN, y + 4, { width: inner, align: 'center', height: 14, lineBreak: false });
    y += 24;
  }
  // Header: service and pickup day on the left, "k of N" on the right.
  const pickup = zonedDateAndTime(booking.pickupAt, settings.timeZone);
  const counter = `${parcel.index} of ${parcel.count}`;
  setFont(doc, 'bold').fontSize(15);
  const counterWidth = doc.widthOfString(counter);
  doc.fillColor('black').text(counter, W - MARGIN - counterWidth, y, { lineBreak: false });
  fitText(
    doc,
    `${labelOf(settings.catalog.serviceTypes, booking.serviceType)}  \u00b7  Pickup ${pickup.date} ${pickup.time}`,
    { x: MARGIN, y: y + 3, width: inner - counterWidth - 8, height: 12 },
    { max: 9, min: 6 },
  );
  y += 20;
  rule(doc, y, W);
  y += 4;
  // Receiver, large.
  const receiver = booking.consignee;
  setFont(doc, 'regular').fontSize(7).fillColor('black').text('TO', MARGIN, y, { lineBreak: false });
  y += 9;
  // The name, then the phone: bold, each in a box of its own height.
  for (const [text, height, max] of [
    [receiver.name, 42, 18],
    [receiver.phone, 16, 13],
  ] as const) {
    y += fitText(doc, text, { x: MARGIN, y, width: inner, height }, { font: 'bold', max, min: 9 }) + 2;
  }
  const toEnd = y + 56;
  fitText(
    doc,
    addressText(receiver),
    { x: MARGIN, y, width: inner, height: toEnd - y },
    { max: 12, min: 6.5 },
  );
  y = toEnd + 2;
  rule(doc, y, W);
  y += 3;
  // Sender, smaller.
  const sender = booking.shipper;
  setFont(doc, 'regular').fontSize(6.5).text('FROM', MARGIN, y, { lineBreak: false });
  y += 8;
  const from = `${sender.name}, ${sender.phone}\n${addressText(sender).replaceAll('\n', ', ')}`;
  y += fitText(doc, from, { x: MARGIN, y, width: inner, height: 28 }, { max: 8, min: 5.5 });
  y = Math.max(y, toEnd + 40) + 2;
  rule(doc, y, W);
  y += 4;
  // The bottom: this parcel's Code 128 and its number in text.
  const barcodeHeight = 54;
  const barcodeTop = H - MARGIN - barcodeHeight - 16;
  // The middle: COD and details on the left, the booking's QR code on the right.
  const qrSize = Math.min(78, barcodeTop - y - 16);
  const left = inner - qrSize - 8;
  qrCode(t, doc, booking.trackingNumber, W - MARGIN - qrSize, y, qrSize);
  setFont(doc, 'regular')
    .fontSize(6.5)
    .fillColor('black')
    .text(`Booking ${booking.trackingNumber}`, W - MARGIN - qrSize, y + qrSize + 2, {
      width: qrSize,
      align: 'center',
      height: 9,
      lineBreak: false,
    });
  const cod = codText(booking, settings);
  doc.rect(MARGIN, y, left, 26).lineWidth(1.5).stroke('black');
  fitText(
    doc,
    cod,
    { x: MARGIN + 4, y: y + 5, width: left - 8, height: 18 },
    { font: 'bold', max: 15, min: 8 },
  );
  const detailsTop = y + 30;
  fitText(
    doc,
    detailsText(item, parcel, settings),
    { x: MARGIN, y: detailsTop, width: left, height: barcodeTop - 4 - detailsTop },
    { max: 8.5, min: 5.5 },
  );
  rule(doc, barcodeTop - 2, W);
  // Quiet zones of ten modules either side are left by the margins.
  code128(t, doc, parcel.number, {
    x: MARGIN + 8,
    y: barcodeTop + 2,
    width: inner - 16,
    height: barcodeHeight - 4,
  });
  fitText(
    doc,
    parcel.number,
    { x: MARGIN, y: barcodeTop + barcodeHeight, width: inner, height: 15 },
    { font: 'bold', max: 12, min: 7 },
  );
}

/** A PDF with one page per parcel of every booking, in the order given, and the characters it could not print. */
export async function renderLabels(
  items: readonly LabelBooking[],
  settings: PrintSettings,
): Promise<RenderedPdf> {
  const t = await pdfTools();
  const title =
    items.length === 1
      ? `Labels ${items[0]?.booking.trackingNumber ?? ''}`
      : `Labels, ${items.length} bookings`;
  const doc = newDocument(t, PAGE_SIZES[settings.pageSize], title);
  for (const item of items) {
    for (const parcel of parcelsOf(item.booking)) drawPage(t, doc, item, parcel, settings);
  }
  return finish(doc);
}
