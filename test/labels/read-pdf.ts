// Reads a PDF as a machine would: pages rendered by MuPDF (WebAssembly), barcodes decoded by ZXing (WebAssembly), the text layer extracted.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as mupdf from 'mupdf';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

// The decoder's WebAssembly from node_modules, never from a CDN: the tests run offline.
prepareZXingModule({
  overrides: {
    wasmBinary: readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'))
      .buffer,
  },
  fireImmediately: true,
});

export interface ReadPage {
  /** In points. */
  width: number;
  height: number;
  text: string;
  /** Every barcode found, top to bottom. */
  barcodes: { format: string; text: string }[];
}

/** Rendering pages at 203 dpi and decoding them takes seconds on a busy machine: a test that does gets this long. */
export const DECODING_MS = 60_000;

/** A thermal label printer's resolution. */
const DPI = 203;

/** Each page's size and text; barcodes only on the pages asked for (decoding takes time). */
export async function readPdf(
  bytes: Uint8Array,
  decode: (index: number) => boolean = () => true,
): Promise<ReadPage[]> {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  const pages: ReadPage[] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    // Rendering holds the event loop for a while: let the sockets of a bot in this process keep up between pages.
    await new Promise((resolve) => setImmediate(resolve));
    const page = doc.loadPage(i);
    const [x0, y0, x1, y1] = page.getBounds();
    const text = page.toStructuredText('preserve-whitespace').asText();
    let barcodes: ReadPage['barcodes'] = [];
    if (decode(i)) {
      const pixmap = page.toPixmap(
        mupdf.Matrix.scale(DPI / 72, DPI / 72),
        mupdf.ColorSpace.DeviceRGB,
        false,
        true,
      );
      const width = pixmap.getWidth();
      const height = pixmap.getHeight();
      const rgb = pixmap.getPixels();
      // Byte by byte: a view of each pixel (subarray) cost more than rendering and decoding together.
      const rgba = new Uint8ClampedArray(width * height * 4).fill(255);
      for (let from = 0, to = 0; from < rgb.length; from += 3, to += 4) {
        rgba[to] = rgb[from] as number;
        rgba[to + 1] = rgb[from + 1] as number;
        rgba[to + 2] = rgb[from + 2] as number;
      }
      const found = await readBarcodes(
        { data: rgba, width, height, colorSpace: 'SRGB' },
        { formats: ['Code128', 'QRCode'], maxNumberOfSymbols: 255 },
      );
      barcodes = found
        .filter((b) => b.isValid)
        .sort((a, b) => a.position.topLeft.y - b.position.topLeft.y)
        .map((b) => ({ format: b.format, text: b.text }));
      pixmap.destroy();
    }
    pages.push({ width: x1 - x0, height: y1 - y0, text, barcodes });
    page.destroy();
  }
  doc.destroy();
  return pages;
}

/** A character of a page's text layer and the box its glyph takes, in points from the top left. */
export interface PlacedChar {
  char: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Every character of page `index`'s text layer, where MuPDF places its glyph. */
export function placedChars(bytes: Uint8Array, index: number): PlacedChar[] {
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  const page = doc.loadPage(index);
  const chars: PlacedChar[] = [];
  page.toStructuredText('preserve-whitespace').walk({
    onChar(char, _origin, _font, _size, quad) {
      const xs = [quad[0], quad[2], quad[4], quad[6]];
      const ys = [quad[1], quad[3], quad[5], quad[7]];
      chars.push({
        char,
        x0: Math.min(...xs),
        y0: Math.min(...ys),
        x1: Math.max(...xs),
        y1: Math.max(...ys),
      });
    },
  });
  page.destroy();
  doc.destroy();
  return chars;
}
