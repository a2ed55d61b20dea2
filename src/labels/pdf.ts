/** The PDF tools labels and manifests share: pdfkit, bwip-js and the embedded font, loaded on first use; barcodes drawn as vectors; text fitted to a box, with what the font cannot draw marked. */
import { createRequire } from 'node:module';
import type { Font } from 'fontkit';
import { graphemes } from '../waybill/graphemes.js';

type PdfKit = typeof import('pdfkit');
export type Pdf = PDFKit.PDFDocument;

/** A page size in points (1/72 in), portrait. */
export interface PageSize {
  width: number;
  height: number;
}

/** 4x6 in thermal labels, or A6 (a quarter of A4). */
export const PAGE_SIZES = {
  '4x6': { width: 288, height: 432 },
  A6: { width: 298, height: 420 },
} as const satisfies Record<string, PageSize>;

export type PageSizeName = keyof typeof PAGE_SIZES;

/** Loaded once, when the first label or manifest is made: none of it is needed to start the bot. */
interface Tools {
  PDFDocument: PdfKit;
  bwip: typeof import('bwip-js');
  /**
   * DejaVu Sans (regular and bold): Latin-1 and Latin Extended glyphs, so any Latin name prints. Parsed
   * once and given to every document: parsing both TTF files was most of the time a one-label PDF took.
   */
  fonts: Record<FontName, Font>;
  /** The code points both fonts have a glyph for. */
  coverage: ReadonlySet<number>;
}

let tools: Promise<Tools> | undefined;

export type FontName = 'regular' | 'bold';

/** Switches the font: each document has both registered under these names. */
export function setFont(doc: Pdf, font: FontName): Pdf {
  return doc.font(font);
}

export function pdfTools(): Promise<Tools> {
  tools ??= Promise.all([import('pdfkit'), import('bwip-js'), import('fontkit')]).then(
    ([pdfkit, bwip, fontkit]) => {
      // Resolved, not imported: the TTF files stay in node_modules, outside the ASCII-only bundle.
      const require = createRequire(import.meta.url);
      const open = (file: string): Font => {
        const font = fontkit.openSync(file);
        if (!('layout' in font)) throw new Error(`${file} holds several fonts, not one`);
        return font;
      };
      const fonts = {
        regular: open(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
        bold: open(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
      };
      return {
        PDFDocument: pdfkit.default,
        bwip: bwip.default,
        fonts,
        coverage: coverage(Object.values(fonts)),
      };
    },
  );
  return tools;
}

/** The code points every one of `fonts` maps to a glyph: text in either weight is then drawn alike. */
function coverage(fonts: Font[]): Set<number> {
  const [first, ...rest] = fonts.map((font) => new Set(font.characterSet));
  return new Set([...(first ?? [])].filter((code) => rest.every((set) => set.has(code))));
}

/** Drawn in place of each character the label cannot print (U+FFFD, the replacement character). */
export const UNPRINTABLE_MARK = '\ufffd';

/**
 * Scripts written right to left. pdfkit lays text out left to right without the bidirectional
 * algorithm, so such words would come out in the wrong order: they are marked instead.
 */
const RIGHT_TO_LEFT =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;

/** Line breaks and tabs: pdfkit handles them, no glyph needed. */
const LAYOUT = new Set([0x09, 0x0a, 0x0d]);

/**
 * Whether a character (a grapheme: an emoji sequence, a letter and its accents) prints as written:
 * every code point has a glyph in both fonts, none is right to left, and all are in Unicode's first
 * plane (pdfkit cuts an overlong word between UTF-16 units, which would split a surrogate pair).
 */
function printsAsWritten(grapheme: string, covered: ReadonlySet<number>): boolean {
  if (RIGHT_TO_LEFT.test(grapheme)) return false;
  for (const char of grapheme) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xffff || !(covered.has(code) || LAYOUT.has(code))) return false;
  }
  return true;
}

/** What each document could not print, in order of first appearance. */
const unprintableOf = new WeakMap<Pdf, { covered: ReadonlySet<number>; found: Set<string> }>();

/**
 * `text` as it is drawn: each character the label cannot print (see printsAsWritten) replaced by
 * UNPRINTABLE_MARK and noted for the document's result. Every piece of typed text goes through here
 * before it is measured or drawn, so what is measured is what is drawn.
 */
export function printable(doc: Pdf, text: string): string {
  const state = unprintableOf.get(doc);
  if (!state) throw new Error('printable(): a document newDocument did not make');
  let out = '';
  for (const segment of graphemes(text)) {
    if (printsAsWritten(segment, state.covered)) out += segment;
    else {
      out += UNPRINTABLE_MARK;
      state.found.add(segment);
    }
  }
  return out;
}

/** A parsed font as pdfkit takes it (PDFFontFactory.open uses any object with `layout`); its types name only files and bytes. */
const parsed = (font: Font) => font as unknown as PDFKit.Mixins.PDFFontSource;

/** A new document whose pages are `size`, its fonts registered as `regular` and `bold`; no page yet. */
export function newDocument(t: Tools, size: PageSize, title: string): Pdf {
  const doc = new t.PDFDocument({
    autoFirstPage: false,
    // No default font: pdfkit would load its built-in Helvetica, whose metrics are not needed (and which
    // has no Ñ for pdfkit); the regular font is set below.
    font: '',
    size: [size.width, size.height],
    margin: 0,
    info: { Title: title, Producer: 'waybill-dispatch-bot', Creator: 'waybill-dispatch-bot' },
  });
  for (const name of ['regular', 'bold'] as const) doc.registerFont(name, parsed(t.fonts[name]));
  setFont(doc, 'regular');
  unprintableOf.set(doc, { covered: t.coverage, found: new Set() });
  return doc;
}

/**
 * A finished PDF: its bytes, and the characters it could not print (each once, as typed), drawn as
 * UNPRINTABLE_MARK. Plain data, so it crosses to another thread as it is.
 */
export interface RenderedPdf {
  pdf: Uint8Array;
  unprintable: string[];
}

/** The whole document as bytes, with what it could not print. */
export function finish(doc: Pdf): Promise<RenderedPdf> {
  const chunks: Buffer[] = [];
  const unprintable = [...(unprintableOf.get(doc)?.found ?? [])];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve({ pdf: Buffer.concat(chunks), unprintable }));
    doc.on('error', reject);
    doc.end();
  });
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A Code 128 barcode of `value` inside `box`, centred, as filled rectangles: sharp at any printer's
 * resolution. Its narrowest bar is at most `maxModule` points wide, and never wider than lets it fit.
 */
export function code128(t: Tools, doc: Pdf, value: string, box: Box, maxModule = 3): void {
  const [symbol] = t.bwip.raw('code128', value, '');
  const widths = (symbol as { sbs: number[] } | undefined)?.sbs ?? [];
  const modules = widths.reduce((sum, w) => sum + w, 0);
  const module = Math.min(maxModule, box.width / modules);
  let x = box.x + (box.width - modules * module) / 2;
  widths.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(x, box.y, w * module, box.height);
    x += w * module;
  });
  doc.fillColor('black').fill();
}

/** A QR code of `value`, `size` points square, its top left at (x, y). */
export function qrCode(t: Tools, doc: Pdf, value: string, x: number, y: number, size: number): void {
  const [symbol] = t.bwip.raw('qrcode', value, 'eclevel=M');
  const { pixs, pixx, pixy } = symbol as unknown as { pixs: number[]; pixx: number; pixy: number };
  const cell = size / Math.max(pixx, pixy);
  for (let row = 0; row < pixy; row++) {
    for (let col = 0; col < pixx; col++) {
      if (pixs[row * pixx + col]) doc.rect(x + col * cell, y + row * cell, cell, cell);
    }
  }
  doc.fillColor('black').fill();
}

/**
 * Writes `text` into `box` at the largest size from `max` down to `min` at which it fits,
 * wrapped; at `min` what still does not fit is cut with an ellipsis. Never draws outside the box.
 * Returns the height used.
 */
export function fitText(
  doc: Pdf,
  typed: string,
  box: Box,
  { font = 'regular', max, min = 6 }: { font?: FontName; max: number; min?: number },
): number {
  const text = printable(doc, typed);
  setFont(doc, font);
  const options = { width: box.width, lineGap: 0 };
  let size = max;
  for (; size > min; size -= 0.5) {
    doc.fontSize(size);
    if (doc.heightOfString(text, options) <= box.height) break;
  }
  doc.fontSize(size);
  const used = Math.min(box.height, doc.heightOfString(text, options));
  doc.fillColor('black').text(text, box.x, box.y, { ...options, height: box.height, ellipsis: true });
  return used;
}
