/**
 * Parcel labels in ZPL II for thermal printers: the PDF label's content and layout, 4x6 in at 203 or
 * 300 dpi, the barcodes drawn by the printer itself (^BC, ^BQ), text in UTF-8 (^CI28) in the
 * printer's scalable font 0, fitted by us into blocks the printer cannot overflow (^FB).
 * Our own builder: a label needs a dozen commands, and it shares the PDF label's content and rules.
 * Pure: plain data in, plain data out, so it can run in another thread.
 */
import { createRequire } from 'node:module';
import { labelOf } from '../waybill/catalog.js';
import { zonedDateAndTime } from '../waybill/dates.js';
import { graphemes } from '../waybill/graphemes.js';
import {
  addressText,
  codText,
  detailsText,
  type LabelBooking,
  type Parcel,
  type PrintSettings,
  parcelsOf,
  TEST_MARK,
} from './label.js';

/** A thermal printer's resolution: 8 or 12 dots a millimetre. */
export type LabelDpi = 203 | 300;

export type ZplSettings = Omit<PrintSettings, 'pageSize'> & { dpi: LabelDpi };

/** The labels of a file, and the characters font 0 cannot print (each once, as typed), printed as ZPL_UNPRINTABLE_MARK. */
export interface RenderedZpl {
  zpl: string;
  unprintable: string[];
}

/**
 * Printed for a character font 0 has no glyph for. Not U+FFFD as on the PDF: font 0 has none, so
 * the printer would print a blank.
 */
export const ZPL_UNPRINTABLE_MARK = '?';

/** 4x6 in, as the PDF label, in points: the layout below is the PDF's, in the same units. */
const PAGE = { width: 288, height: 432 };
const MARGIN = 10;

/**
 * What font 0 (CG Triumvirate) prints: Zebra's code page 1252, that is Latin-1 and the
 * Windows-1252 additions (the dashes, quotes, the euro, S and Z with caron, OE).
 */
const COVERAGE: ReadonlySet<string> = new Set(
  [
    ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
    ...new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 0x80 }, (_, i) => 0x80 + i)),
  ].filter((char) => char >= ' ' && !(char >= '\u007f' && char < '\u00a0')),
);

/** Line breaks and Latin-1's printable characters only (no combining mark can follow one). */
const LATIN_1 = /^[\n\u0020-\u007e\u00a0-\u00ff]*$/;

/** Advance widths of the characters font 0 prints, as a share of the font's height. */
type Metrics = ReadonlyMap<string, number>;

let metrics: Promise<Metrics> | undefined;

/**
 * Widths from DejaVu Sans Condensed Bold, which runs wider than font 0 (CG Triumvirate Bold
 * Condensed): a line we break may end early on the printer, never run past its block. Read once.
 */
export function zplMetrics(): Promise<Metrics> {
  metrics ??= import('fontkit').then((fontkit) => {
    const file = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');
    const font = fontkit.openSync(file) as import('fontkit').Font;
    const map = new Map<string, number>();
    for (const char of [...COVERAGE, ELLIPSIS]) {
      map.set(char, font.glyphForCodePoint(char.codePointAt(0) ?? 0).advanceWidth / font.unitsPerEm);
    }
    return map;
  });
  return metrics;
}

const ELLIPSIS = '\u2026';

/** One label file being written: its commands, and what it could not print. */
class Writer {
  readonly out: string[] = [];
  readonly unprintable = new Set<string>();
  constructor(
    readonly dpi: LabelDpi,
    private readonly metrics: Metrics,
  ) {}

  /** How wide `text` is at height `h`, in the unit of `h`. */
  widthOf(text: string, h: number): number {
    let sum = 0;
    for (const char of text) sum += this.metrics.get(char) ?? 1;
    return sum * h;
  }

  /** Points to dots. */
  dots(points: number): number {
    return Math.round((points * this.dpi) / 72);
  }

  /** Typed text as font 0 prints it: composed (NFC), anything it has no glyph for marked and noted. */
  printable(typed: string): string {
    const text = typed.normalize('NFC');
    // Most text is Latin-1, all of which font 0 prints: segmenting it into graphemes is the slow part.
    if (LATIN_1.test(text)) return text;
    let out = '';
    for (const segment of graphemes(text)) {
      if (segment === '\n' || COVERAGE.has(segment)) out += segment;
      else {
        out += ZPL_UNPRINTABLE_MARK;
        this.unprintable.add(segment);
      }
    }
    return out;
  }

  /** A rule or box (`thickness` its line; as thick as it is high, filled). */
  box(x: number, y: number, width: number, height: number, thickness: number): void {
    const t = Math.max(1, this.dots(thickness));
    this.out.push(
      `^FO${this.dots(x)},${this.dots(y)}^GB${Math.max(t, this.dots(width))},${Math.max(t, this.dots(height))},${t}^FS`,
    );
  }

  /**
   * Text fitted into a box: the largest height from `max` down to `min` points at which its wrapped
   * lines fit; at `min` the last line that fits ends in an ellipsis. The field block (^FB) holds
   * exactly those lines, so even a printer whose font runs wider than our estimate wraps and
   * overwrites inside the box, never below it. Returns the height used, in points.
   */
  text(
    typed: string,
    box: { x: number; y: number; width: number; height: number },
    {
      max,
      min = 6,
      align = 'L',
      reverse = false,
    }: { max: number; min?: number; align?: 'L' | 'C' | 'R'; reverse?: boolean },
  ): number {
    const text = this.printable(typed);
    const width = this.dots(box.width);
    let size = max;
    let lines: string[] = [];
    for (; ; size -= 0.5) {
      lines = this.wrap(text, width, this.dots(size));
      if (lines.length * size <= box.height || size - 0.5 < min) break;
    }
    const h = this.dots(size);
    const room = Math.max(1, Math.floor(box.height / size));
    if (lines.length > room) {
      lines = lines.slice(0, room);
      lines[room - 1] = this.ellipsised(lines[room - 1] ?? '', width, h);
    }
    this.out.push(
      `^FO${this.dots(box.x)},${this.dots(box.y)}^A0N,${h},${h}${reverse ? '^FR' : ''}^FB${width},${lines.length},0,${align},0^FH_^FD${lines.map(fieldData).join('\\&')}^FS`,
    );
    return lines.length * size;
  }

  /** Words to lines of at most `width` dots at height `h`; a word longer than a line is cut. */
  wrap(text: string, width: number, h: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ')) {
        const joined = line === '' ? word : `${line} ${word}`;
        if (this.widthOf(joined, h) <= width) {
          line = joined;
          continue;
        }
        if (line !== '') lines.push(line);
        line = word;
        while (this.widthOf(line, h) > width) {
          let cut = 1;
          while (this.widthOf(line.slice(0, cut + 1), h) <= width) cut++;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      lines.push(line);
    }
    return lines;
  }

  /** `line` with an ellipsis, shortened until both fit. */
  ellipsised(line: string, width: number, h: number): string {
    let kept = line;
    while (kept !== '' && this.widthOf(`${kept}\u2026`, h) > width) kept = kept.slice(0, -1);
    return `${kept.trimEnd()}\u2026`;
  }
}

/**
 * Field data as ^FH reads it: the characters ZPL would take for commands (^ ~), the hex indicator
 * (_) in hex; a backslash doubled, as a field block reads it.
 */
function fieldData(text: string): string {
  return text
    .replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('\\', '\\\\');
}

/** Smallest QR version holding `bytes` bytes at level M (byte mode: the printer's automatic mode is never larger). */
const QR_BYTES_M = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213];

function qrModules(data: string): number {
  const bytes = Buffer.byteLength(data);
  const version = QR_BYTES_M.findIndex((capacity) => capacity >= bytes) + 1 || QR_BYTES_M.length;
  return 17 + 4 * version;
}

/** Code 128 modules of `data` at most (code set B throughout): start, a symbol a character, check, stop. */
const code128Modules = (data: string) => 11 * (data.length + 2) + 13;

function label(w: Writer, item: LabelBooking, parcel: Parcel, settings: ZplSettings): void {
  const { width: W, height: H } = PAGE;
  const inner = W - 2 * MARGIN;
  const { booking } = item;
  w.out.push(`^XA^CI28^PW${w.dots(W)}^LL${w.dots(H)}^LH0,0`);
  let y = MARGIN;
  if (!settings.live) {
    w.box(MARGIN, y, inner, 20, 20);
    w.text(
      TEST_MARK,
      { x: MARGIN, y: y + 4, width: inner, height: 13 },
      { max: 11, align: 'C', reverse: true },
    );
    y += 24;
  }
  // Header: "k of N" on the right, service and pickup day beside it.
  const pickup = zonedDateAndTime(booking.pickupAt, settings.timeZone);
  const counter = `${parcel.index} of ${parcel.count}`;
  const counterWidth = Math.ceil(w.widthOf(counter, 15));
  w.text(
    counter,
    { x: W - MARGIN - counterWidth, y, width: counterWidth, height: 15 },
    { max: 15, align: 'R' },
  );
  w.text(
    `${labelOf(settings.catalog.serviceTypes, booking.serviceType)}  \u00b7  Pickup ${pickup.date} ${pickup.time}`,
    { x: MARGIN, y: y + 3, width: inner - counterWidth - 8, height: 12 },
    { max: 10, min: 6 },
  );
  y += 20;
  w.box(MARGIN, y, inner, 0, 0.75);
  y += 4;
  // Receiver, large: name, phone, address.
  const receiver = booking.consignee;
  w.text('TO', { x: MARGIN, y, width: 30, height: 8 }, { max: 7 });
  y += 9;
  y += w.text(receiver.name, { x: MARGIN, y, width: inner, height: 42 }, { max: 20, min: 9 }) + 2;
  y += w.text(receiver.phone, { x: MARGIN, y, width: inner, height: 16 }, { max: 14, min: 9 }) + 2;
  const toEnd = y + 56;
  w.text(addressText(receiver), { x: MARGIN, y, width: inner, height: toEnd - y }, { max: 12, min: 6.5 });
  y = toEnd + 2;
  w.box(MARGIN, y, inner, 0, 0.75);
  y += 3;
  // Sender, smaller.
  const sender = booking.shipper;
  w.text('FROM', { x: MARGIN, y, width: 40, height: 8 }, { max: 7 });
  y += 8;
  const from = `${sender.name}, ${sender.phone}\n${addressText(sender).replaceAll('\n', ', ')}`;
  y += w.text(from, { x: MARGIN, y, width: inner, height: 28 }, { max: 9, min: 6 });
  y = Math.max(y, toEnd + 40) + 2;
  w.box(MARGIN, y, inner, 0, 0.75);
  y += 4;
  // The bottom: the parcel's Code 128 and its number; above it COD and details left, the QR code right.
  const barcodeHeight = 54;
  const barcodeTop = H - MARGIN - barcodeHeight - 16;
  const qrSize = Math.min(78, barcodeTop - y - 16);
  const qrModule = Math.max(1, Math.min(10, Math.floor(w.dots(qrSize) / qrModules(booking.trackingNumber))));
  w.out.push(
    `^FO${w.dots(W - MARGIN - qrSize)},${w.dots(y)}^BQN,2,${qrModule}^FDMA,${booking.trackingNumber}^FS`,
  );
  w.text(
    `Booking ${booking.trackingNumber}`,
    { x: W - MARGIN - qrSize, y: y + qrSize + 2, width: qrSize, height: 9 },
    { max: 7, min: 5, align: 'C' },
  );
  const left = inner - qrSize - 8;
  w.box(MARGIN, y, left, 26, 1.5);
  w.text(
    codText(booking, settings),
    { x: MARGIN + 4, y: y + 5, width: left - 8, height: 18 },
    { max: 16, min: 8 },
  );
  const detailsTop = y + 30;
  w.text(
    detailsText(item, parcel, settings),
    { x: MARGIN, y: detailsTop, width: left, height: barcodeTop - 4 - detailsTop },
    { max: 9, min: 6 },
  );
  w.box(MARGIN, barcodeTop - 2, inner, 0, 0.75);
  // Centred between quiet zones of ten modules at least; bars of at most 3 points, as on the PDF.
  const room = w.dots(inner - 16);
  const module = Math.max(1, Math.min(w.dots(3), Math.floor(room / code128Modules(parcel.number))));
  const x = w.dots(MARGIN + 8) + Math.floor((room - module * code128Modules(parcel.number)) / 2);
  w.out.push(
    `^FO${x},${w.dots(barcodeTop + 2)}^BY${module},3^BCN,${w.dots(barcodeHeight - 4)},N,N,N,A^FD${parcel.number}^FS`,
  );
  w.text(
    parcel.number,
    { x: MARGIN, y: barcodeTop + barcodeHeight, width: inner, height: 13 },
    { max: 12, min: 7, align: 'C' },
  );
  w.out.push('^XZ');
}

/** One ZPL label per parcel of every booking, in the order given, and the characters font 0 could not print. */
export async function renderZpl(items: readonly LabelBooking[], settings: ZplSettings): Promise<RenderedZpl> {
  const w = new Writer(settings.dpi, await zplMetrics());
  for (const item of items) {
    for (const parcel of parcelsOf(item.booking)) label(w, item, parcel, settings);
  }
  return { zpl: `${w.out.join('\n')}\n`, unprintable: [...w.unprintable] };
}
