/**
 * The weekly report's chart as a PNG: bookings per day stacked by outcome, and COD outstanding by
 * ageing bucket. Drawn as a small SVG of our own (two bar charts need no charting library) and
 * rasterised by resvg (Rust, prebuilt per platform: no browser, nothing built at install).
 */
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';

export interface ChartInput {
  /** Each day's bookings by outcome, in `outcomes` order. */
  days: { date: string; byOutcome: number[] }[];
  outcomes: string[];
  /** COD outstanding per ageing bucket, in cents as decimal strings (never floats). */
  buckets: { label: string; cents: string }[];
  currency: string;
}

/** The picture's geometry and colours, shared with the tests that read the PNG back. */
export const CHART = {
  width: 900,
  height: 360,
  /** The bars' baseline and the tallest bar's height. */
  baseline: 300,
  plotHeight: 220,
  /** Left edge and step of the day bars, and of the bucket bars. */
  dayLeft: 40,
  dayStep: 56,
  bucketLeft: 520,
  bucketStep: 90,
  barWidth: 36,
  outcomeColours: ['#2e7d32', '#f9a825', '#c62828', '#90a4ae'],
  bucketColour: '#1565c0',
} as const;

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const label = (x: number, y: number, text: string, size = 12) =>
  `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="#222">${escapeXml(text)}</text>`;

/** Whole pixels of `value` out of `max` (bigint: exact whatever the amounts). */
const pixels = (value: bigint, max: bigint) =>
  max === 0n ? 0 : Number((value * BigInt(CHART.plotHeight)) / max);

export function chartSvg(input: ChartInput): string {
  const { baseline, barWidth } = CHART;
  const parts: string[] = [`<rect width="${CHART.width}" height="${CHART.height}" fill="#ffffff"/>`];
  parts.push(label(CHART.dayLeft, 24, 'Bookings per day, by outcome', 14));
  const most = BigInt(Math.max(0, ...input.days.map((day) => day.byOutcome.reduce((a, b) => a + b, 0))));
  input.days.forEach((day, i) => {
    const x = CHART.dayLeft + i * CHART.dayStep;
    let top = baseline;
    day.byOutcome.forEach((count, k) => {
      const height = pixels(BigInt(count), most);
      top -= height;
      if (height > 0) {
        parts.push(
          `<rect x="${x}" y="${top}" width="${barWidth}" height="${height}" fill="${CHART.outcomeColours[k % 4]}"/>`,
        );
      }
    });
    parts.push(label(x, baseline + 16, day.date.slice(5), 11));
  });
  input.outcomes.forEach((name, k) => {
    const x = CHART.dayLeft + k * 140;
    parts.push(
      `<rect x="${x}" y="${baseline + 28}" width="10" height="10" fill="${CHART.outcomeColours[k % 4]}"/>`,
    );
    parts.push(label(x + 14, baseline + 38, name, 11));
  });
  parts.push(label(CHART.bucketLeft, 24, `COD outstanding (${input.currency}) by days since delivery`, 14));
  const largest = input.buckets.reduce((max, b) => (BigInt(b.cents) > max ? BigInt(b.cents) : max), 0n);
  input.buckets.forEach((bucket, i) => {
    const x = CHART.bucketLeft + i * CHART.bucketStep;
    const height = pixels(BigInt(bucket.cents), largest);
    if (height > 0) {
      parts.push(
        `<rect x="${x}" y="${baseline - height}" width="${barWidth}" height="${height}" fill="${CHART.bucketColour}"/>`,
      );
    }
    parts.push(label(x, baseline + 16, bucket.label, 11));
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.width}" height="${CHART.height}">${parts.join('')}</svg>`;
}

// Resolved, not imported: the TTF stays in node_modules, outside the ASCII-only bundle.
let font: string | undefined;

/** The chart as PNG bytes. */
export function renderChart(input: ChartInput): Uint8Array {
  font ??= createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const svg = new Resvg(chartSvg(input), {
    font: { fontFiles: [font], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
  });
  return svg.render().asPng();
}
