/** The PDF tools labels and manifests share: pdfkit, bwip-js and the embedded font, loaded on first use; barcodes drawn as vectors; text fitted to a box. */
import { createRequire } from 'node:module';

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
  /** DejaVu Sans (regular and bold): Latin-1 and Latin Extended glyphs, so any name prints. */
  fonts: { regular: string; bold: string };
}

let tools: Promise<Tools> | undefined;

// Resolved, not imported: the TTF files stay in node_modules, outside the ASCII-only bundle.
let fontFiles: { regular: string; bold: string } | undefined;
function fonts(): { regular: string; bold: string } {
  const require = createRequire(import.meta.url);
  fontFiles ??= {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  };
  return fontFiles;
}

export type FontName = 'regular' | 'bold';

/**
 * Switches the font. The regular one is the document's default, known to pdfkit by its path:
 * registered under another name as well, pdfkit would parse the whole TTF again at every switch.
 */
export function setFont(doc: Pdf, font: FontName): Pdf {
  return doc.font(font === 'regular' ? fonts().regular : 'bold');
}

export function pdfTools(): Promise<Tools> {
  tools ??= Promise.all([import('pdfkit'), import('bwip-js')]).then(([pdfkit, bwip]) => ({
    PDFDocument: pdfkit.default,
    bwip: bwip.default,
    fonts: fonts(),
  }));
  return tools;
}

/** A new document whose pages are `size`, its fonts registered as `regular` and `bold`; no page yet. */
export function newDocument(t: Tools, size: PageSize, title: string): Pdf {
  const doc = new t.PDFDocument({
    autoFirstPage: false,
    // The built-in Helvetica is never loaded: its AFM metrics are not needed, and it has no Ñ for pdfkit.
    font: t.fonts.regular,
    size: [size.width, size.height],
    margin: 0,
    info: { Title: title, Producer: 'waybill-dispatch-bot', Creator: 'waybill-dispatch-bot' },
  });
  doc.registerFont('bold', t.fonts.bold);
  return doc;
}

/** The whole document as bytes. */
export function pdfBytes(doc: Pdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
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
  text: string,
  box: Box,
  { font = 'regular', max, min = 6 }: { font?: FontName; max: number; min?: number },
): number {
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
