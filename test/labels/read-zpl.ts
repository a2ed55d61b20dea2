// Reads ZPL as a printer would: the text parsed into commands, each label's fields laid out in dots, and a label rendered (via a PDF MuPDF rasterises) so ZXing can decode its barcodes.
import { createRequire } from 'node:module';
import bwip from 'bwip-js';
import PDFDocument from 'pdfkit';
import { type ReadPage, readPdf } from './read-pdf.js';

/** One ZPL command: `^FO` or `~JA`, and its parameters as written. */
export interface ZplCommand {
  name: string;
  params: string;
}

/** Every command of a ZPL text, in order. Line breaks between commands mean nothing to a printer. */
export function parseZpl(zpl: string): ZplCommand[] {
  const commands: ZplCommand[] = [];
  const text = zpl.replace(/[\r\n]/g, '');
  for (const match of text.matchAll(/([\^~][A-Z0-9@]{2})([^^~]*)/g)) {
    commands.push({ name: match[1] ?? '', params: match[2] ?? '' });
  }
  const rest = text.replace(/([\^~][A-Z0-9@]{2})([^^~]*)/g, '');
  if (rest !== '') throw new Error(`not ZPL: ${JSON.stringify(rest.slice(0, 40))}`);
  return commands;
}

export type ZplField =
  | {
      kind: 'text';
      x: number;
      y: number;
      width: number;
      maxLines: number;
      height: number;
      align: string;
      reverse: boolean;
      lines: string[];
    }
  | { kind: 'box'; x: number; y: number; width: number; height: number; thickness: number }
  | { kind: 'code128'; x: number; y: number; module: number; height: number; mode: string; data: string }
  | { kind: 'qr'; x: number; y: number; magnification: number; data: string };

/** One label (^XA to ^XZ): its settings and fields, in dots. */
export interface ZplLabel {
  /** ^CI: 28 is UTF-8. */
  encoding: string;
  width: number;
  length: number;
  fields: ZplField[];
}

/** Field data with ^FH's hex escapes decoded (as UTF-8 bytes, under ^CI28). */
function unhex(data: string, indicator: string | undefined): string {
  if (!indicator) return data;
  const bytes: number[] = [];
  const raw = Buffer.from(data, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === indicator.charCodeAt(0)) {
      bytes.push(Number.parseInt(raw.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else bytes.push(raw[i] ?? 0);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A field block's lines: `\&` breaks a line, `\\` is a backslash. */
function blockLines(data: string): string[] {
  return data.split(/(?<!\\)\\&/).map((line) => line.replaceAll('\\\\', '\\'));
}

/** The labels of a ZPL text, each field where the printer puts it. Unknown commands throw: the test should know them. */
export function readZpl(zpl: string): ZplLabel[] {
  const labels: ZplLabel[] = [];
  let label: ZplLabel | undefined;
  let field: Record<string, string[]> = {};
  let barcodeDefaults = ['2', '3', '10'];
  for (const { name, params } of parseZpl(zpl)) {
    const args = params.split(',');
    if (name === '^XA') {
      label = { encoding: '', width: 0, length: 0, fields: [] };
      continue;
    }
    if (!label) throw new Error(`${name} outside ^XA ... ^XZ`);
    const int = (i: number, list = args) => Number.parseInt(list[i] ?? '', 10);
    switch (name) {
      case '^CI':
        label.encoding = params;
        break;
      case '^PW':
        label.width = int(0);
        break;
      case '^LL':
        label.length = int(0);
        break;
      case '^LH':
        if (params !== '0,0') throw new Error('label home moved');
        break;
      case '^BY':
        barcodeDefaults = args;
        break;
      case '^FO':
      case '^A0':
      case '^FB':
      case '^GB':
      case '^BC':
      case '^BQ':
      case '^FR':
      case '^FH':
        field[name] = args;
        break;
      case '^FD':
        // Data keeps its commas.
        field[name] = [params];
        break;
      case '^FS': {
        const origin = field['^FO'] ?? ['0', '0'];
        const x = int(0, origin);
        const y = int(1, origin);
        const data = unhex(field['^FD']?.[0] ?? '', field['^FH'] ? field['^FH'][0] || '_' : undefined);
        if (field['^GB']) {
          const [w, h, t] = [0, 1, 2].map((i) => int(i, field['^GB']));
          label.fields.push({ kind: 'box', x, y, width: w ?? 0, height: h ?? 0, thickness: t ?? 1 });
        } else if (field['^BC']) {
          label.fields.push({
            kind: 'code128',
            x,
            y,
            module: int(0, barcodeDefaults),
            height: int(1, field['^BC']),
            mode: field['^BC'][5] ?? 'N',
            data,
          });
        } else if (field['^BQ']) {
          label.fields.push({ kind: 'qr', x, y, magnification: int(2, field['^BQ']), data });
        } else {
          const font = field['^A0'];
          const block = field['^FB'];
          if (!font || !block) throw new Error(`a text field without ^A0 and ^FB: ${data}`);
          label.fields.push({
            kind: 'text',
            x,
            y,
            height: int(1, font),
            width: int(0, block),
            maxLines: int(1, block),
            align: block[3] ?? 'L',
            reverse: Boolean(field['^FR']),
            lines: blockLines(data),
          });
        }
        field = {};
        break;
      }
      case '^XZ':
        labels.push(label);
        label = undefined;
        break;
      default:
        throw new Error(`unexpected command ${name}`);
    }
  }
  if (label) throw new Error('a label without ^XZ');
  return labels;
}

/** The area a field covers, in dots: for barcodes, as the printer encodes them (bwip-js here). */
export function extentOf(field: ZplField): { x0: number; y0: number; x1: number; y1: number } {
  const { x, y } = field;
  switch (field.kind) {
    case 'text':
      return { x0: x, y0: y, x1: x + field.width, y1: y + field.maxLines * field.height };
    case 'box':
      return { x0: x, y0: y, x1: x + field.width, y1: y + field.height };
    case 'code128': {
      const modules = code128Bars(field.data).reduce((sum, w) => sum + w, 0);
      return { x0: x, y0: y, x1: x + modules * field.module, y1: y + field.height };
    }
    case 'qr': {
      const size = qrMatrix(field.data).size * field.magnification;
      return { x0: x, y0: y, x1: x + size, y1: y + size };
    }
  }
}

/** ^BC's bars and spaces in modules, alternating, bar first. */
function code128Bars(data: string): number[] {
  const [symbol] = bwip.raw('code128', data, '');
  return (symbol as { sbs: number[] } | undefined)?.sbs ?? [];
}

/** ^BQ's data is "<level><mode>,<data>": the symbol at that level. */
function qrMatrix(data: string): { size: number; dark: (row: number, col: number) => boolean } {
  const [level, payload] = [data[0] ?? 'M', data.slice(data.indexOf(',') + 1)];
  const [symbol] = bwip.raw('qrcode', payload, `eclevel=${level}`);
  const { pixs, pixx } = symbol as unknown as { pixs: number[]; pixx: number };
  return { size: pixx, dark: (row, col) => Boolean(pixs[row * pixx + col]) };
}

const condensedBold = createRequire(import.meta.url).resolve(
  'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
);

/**
 * A label drawn as a printer would (font 0 stood in for by DejaVu Sans Condensed Bold, at the
 * field's height) into a PDF page of its size, then read back: its text, and its barcodes decoded.
 * `tooWide` lists the lines that would not fit their block's width, which a printer would wrap.
 */
export async function renderZplLabel(
  label: ZplLabel,
  dpi: number,
): Promise<{ page: ReadPage; pdf: Uint8Array; tooWide: string[] }> {
  const pt = (dots: number) => (dots * 72) / dpi;
  const doc = new PDFDocument({ size: [pt(label.width), pt(label.length)], margin: 0, font: condensedBold });
  const tooWide: string[] = [];
  for (const field of label.fields) {
    const { x, y } = field;
    if (field.kind === 'box') {
      if (field.thickness >= Math.min(field.width, field.height)) {
        doc.rect(pt(x), pt(y), pt(field.width), pt(field.height)).fill('black');
      } else {
        const half = pt(field.thickness) / 2;
        doc
          .rect(pt(x) + half, pt(y) + half, pt(field.width) - 2 * half, pt(field.height) - 2 * half)
          .lineWidth(pt(field.thickness))
          .stroke('black');
      }
    } else if (field.kind === 'text') {
      doc.fontSize(pt(field.height)).fillColor(field.reverse ? 'white' : 'black');
      field.lines.forEach((line, i) => {
        if (doc.widthOfString(line) > pt(field.width) + 0.01) tooWide.push(line);
        doc.text(line, pt(x), pt(y + i * field.height), {
          width: pt(field.width),
          align: ({ L: 'left', C: 'center', R: 'right' } as const)[field.align as 'L'] ?? 'left',
          lineBreak: false,
        });
      });
    } else if (field.kind === 'code128') {
      let left = x;
      code128Bars(field.data).forEach((w, i) => {
        if (i % 2 === 0) doc.rect(pt(left), pt(y), pt(w * field.module), pt(field.height));
        left += w * field.module;
      });
      doc.fill('black');
    } else {
      const matrix = qrMatrix(field.data);
      const cell = field.magnification;
      for (let row = 0; row < matrix.size; row++) {
        for (let col = 0; col < matrix.size; col++) {
          if (matrix.dark(row, col)) doc.rect(pt(x + col * cell), pt(y + row * cell), pt(cell), pt(cell));
        }
      }
      doc.fill('black');
    }
  }
  const chunks: Buffer[] = [];
  const pdf = await new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
  const [page] = await readPdf(pdf);
  if (!page) throw new Error('nothing rendered');
  return { page, pdf, tooWide };
}
