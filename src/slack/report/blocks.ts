/** The weekly report as Block Kit (a handful of blocks, however busy the week) and its numbers as a CSV file. */
import type { KnownBlock } from '@slack/types';
import type { ChartInput } from '../../render/chart.js';
import { AGE_BUCKETS } from '../../waybill/cod-ageing.js';
import { toCsv } from '../../waybill/csv/write.js';
import { formatCents, parseCents } from '../../waybill/fields.js';
import { statusLabel } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { context, cut, formatMoney, header, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { bucketWords } from '../remittance/index.js';
import { OUTCOMES, type ReportData } from './data.js';

const outcomeLabel = (outcome: (typeof OUTCOMES)[number]) =>
  outcome === 'other' ? 'Other' : statusLabel(outcome);

/** A share of the week's bookings, one decimal, from whole numbers (no float sums). */
const rate = (count: number, of: number) =>
  of === 0 ? '0.0 %' : `${((count * 1000) / of / 10).toFixed(1)} %`;

export function reportMessage(
  data: ReportData,
  options: { currency: string; late?: string; title?: string },
): { text: string; blocks: KnownBlock[] } {
  const title = `${options.title ?? 'Weekly report'} \u00b7 ${data.from} to ${data.to}`;
  const outcomes = OUTCOMES.slice(0, 3)
    .map(
      (outcome, i) =>
        `${outcomeLabel(outcome)} ${data.outcomes[i] ?? 0} (${rate(data.outcomes[i] ?? 0, data.bookings)})`,
    )
    .join(' \u00b7 ');
  const ranked = (lines: { name: string; returns: number }[]) =>
    lines.map((line) => `${escapeMrkdwn(cut(line.name, 60))} (${line.returns})`).join(', ') || 'none';
  const lines = [
    `*${plural(data.bookings, 'booking')}*, ${plural(data.parcels, 'parcel')}; ${outcomes}`,
    `*Most returns by sender*: ${ranked(data.returnsBySender)}`,
    `*Most returns by city*: ${ranked(data.returnsByCity)}`,
    `*Courier charges quoted*: ${plural(data.quotes, 'quote')}, ${formatMoney(formatCents(data.quotedCents), options.currency)}`,
    `*COD booked*: ${formatMoney(formatCents(data.codBookedCents), options.currency)} \u00b7 *collected* (delivered): ${formatMoney(formatCents(data.codCollectedCents), options.currency)} \u00b7 *remitted*: ${formatMoney(formatCents(data.codRemittedCents), options.currency)} \u00b7 *fees*: ${formatMoney(formatCents(data.codFeeCents), options.currency)} \u00b7 *COD owed* (delivered, not yet remitted): ${formatMoney(data.codOutstanding.total, options.currency)} (${bucketWords(data.codOutstanding, options.currency).join(' \u00b7 ') || 'none'})`,
  ];
  const blocks: KnownBlock[] = [
    header(title),
    ...(options.late ? [context(options.late)] : []),
    section(lines.join('\n')),
  ];
  return { text: `${title}\n${lines.join('\n')}`, blocks };
}

const COLUMNS = ['section', 'name', 'count', 'amount'];

/** Every number of the report, a row each: bookings per day by outcome, rates' counts, returns, COD by bucket. */
export function reportCsv(data: ReportData): string {
  const rows: string[][] = [
    ['bookings', 'all', String(data.bookings), ''],
    ['parcels', 'all', String(data.parcels), ''],
    ...OUTCOMES.map((outcome, i) => ['outcome', outcome, String(data.outcomes[i] ?? 0), '']),
    ...data.days.flatMap((day) =>
      OUTCOMES.map((outcome, i) => [`day ${day.date}`, outcome, String(day.byOutcome[i] ?? 0), '']),
    ),
    ...data.returnsBySender.map((line) => ['returns by sender', line.name, String(line.returns), '']),
    ...data.returnsByCity.map((line) => ['returns by city', line.name, String(line.returns), '']),
    ['quotes', 'ok', String(data.quotes), formatCents(data.quotedCents)],
    ['cod booked', 'all', '', formatCents(data.codBookedCents)],
    ['cod collected', 'delivered', '', formatCents(data.codCollectedCents)],
    ['cod remitted', 'all', '', formatCents(data.codRemittedCents)],
    ['cod fees', 'all', '', formatCents(data.codFeeCents)],
    ...data.codOutstanding.buckets.map((bucket, i) => [
      'cod outstanding',
      AGE_BUCKETS[i]?.label ?? '',
      String(bucket.count),
      bucket.total,
    ]),
  ];
  return toCsv(COLUMNS, rows, ['count', 'amount']);
}

/** What the chart draws: the CSV's day and bucket rows, as plain data for the render worker. */
export function chartInput(data: ReportData, currency: string): ChartInput {
  return {
    days: data.days,
    outcomes: OUTCOMES.map(outcomeLabel),
    buckets: data.codOutstanding.buckets.map((bucket, i) => ({
      label: AGE_BUCKETS[i]?.label ?? '',
      cents: String(parseCents(bucket.total) ?? 0n),
    })),
    currency,
  };
}

/** The report's two files: every number as CSV, and the chart of them as PNG (drawn in the render worker). */
export async function reportFiles(
  deps: Pick<Core, 'render' | 'waybill'>,
  data: ReportData,
  name: string,
): Promise<{ filename: string; title: string; content: string | Uint8Array }[]> {
  const png = await deps.render.run('chart', chartInput(data, deps.waybill.currency));
  const range = `${data.from}-${data.to}`;
  return [
    {
      filename: `report-${range}.csv`,
      title: `${name} ${data.from} to ${data.to}`,
      content: reportCsv(data),
    },
    { filename: `report-${range}.png`, title: `${name} ${data.from} to ${data.to}: chart`, content: png },
  ];
}
