/** Block Kit for COD remittance: the file modal, its windows, the result card and the outstanding list. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { CodSummary } from '../../operations/remittance.js';
import { AGE_BUCKETS, type AgeTotals } from '../../waybill/cod-ageing.js';
import type { OutstandingBooking } from '../../waybill/csv/remittance-results.js';
import {
  OUTCOME_ORDER,
  type ReconciledLine,
  type ReconcileTotals,
  type RemittanceOutcome,
} from '../../waybill/remittance.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import {
  context,
  cut,
  environmentNotice,
  formatMoney,
  outcomeModal,
  plain,
  plural,
  section,
} from '../kit/blocks.js';
import { fileAndDestinationBlocks } from '../kit/file-input.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

/** Lines listed on a card (the rest are in the results file): 4 sections of 10, far under 50 blocks. */
export const LISTED_LINES = 40;
const LINES_PER_SECTION = 10;

const TITLE = 'COD remittance';

const outcomeWords: Record<RemittanceOutcome, [emoji: string, words: string]> = {
  problem: [':warning:', 'unreadable'],
  'already remitted': [':rotating_light:', 'already remitted (paid twice)'],
  'not ours': [':grey_question:', 'not ours'],
  'not cod': [':heavy_minus_sign:', 'not COD (prepaid)'],
  short: [':small_red_triangle_down:', 'short'],
  over: [':small_red_triangle:', 'over'],
  matched: [':white_check_mark:', 'matched'],
};

/** Lines in sections of ten, each far under 3000 characters. */
function lineSections(lines: readonly string[]): KnownBlock[] {
  const sections: KnownBlock[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_SECTION) {
    sections.push(section(lines.slice(i, i + LINES_PER_SECTION).join('\n')));
  }
  return sections;
}

/** The file and where its results go. */
export function remittanceModal(input: { env: WaybillEnv; channelId?: string; maxLines: number }): ModalView {
  return {
    type: 'modal',
    callback_id: ids.remittanceImport,
    title: plain(TITLE),
    submit: plain('Reconcile'),
    close: plain('Cancel'),
    blocks: [
      ...environmentNotice(input.env),
      section(
        "The courier's remittance (settlement) file, as CSV: each line's tracking number and amount is matched against our COD bookings. " +
          'You get a card with the totals and the problems, a results file, and the COD overdue.',
      ),
      context(`At most ${input.maxLines} lines, UTF-8, cells separated by \`,\` or \`;\`.`),
      ...fileAndDestinationBlocks('Remittance file (CSV)', input.channelId),
    ],
  };
}

function remittanceWindow(env: WaybillEnv, blocks: KnownBlock[]): ModalView {
  return outcomeModal({ callbackId: ids.remittanceProgress, title: TITLE, metadata: '', env, blocks });
}

export function reconcilingView(env: WaybillEnv): ModalView {
  return remittanceWindow(env, [section(':hourglass_flowing_sand: Reconciling the file…')]);
}

/** A file that could not be read at all (nothing recorded), or the database gone midway. */
export function notReconciledView(reason: string, env: WaybillEnv, recorded = false): ModalView {
  return remittanceWindow(env, [
    section(`:warning: ${escapeMrkdwn(reason)}`),
    ...(recorded ? [] : [context('Nothing was recorded.')]),
  ]);
}

/** The same content was reconciled before: nothing changes. */
export function alreadyReconciledView(
  input: { fileName: string; earlierName: string; userId: string; date: string },
  env: WaybillEnv,
): ModalView {
  return remittanceWindow(env, [
    section(
      `:repeat: *${escapeMrkdwn(input.fileName)}* has the same content as *${escapeMrkdwn(input.earlierName)}*, reconciled on ${escapeMrkdwn(input.date)} by <@${input.userId}>. Nothing changed.`,
    ),
  ]);
}

export function reconciledView(
  input: { fileName: string; note: string; totals: ReconcileTotals },
  env: WaybillEnv,
) {
  return remittanceWindow(env, [
    section(`:white_check_mark: *${escapeMrkdwn(input.fileName)}* reconciled: ${countsLine(input.totals)}.`),
    context(input.note),
  ]);
}

function countsLine(totals: ReconcileTotals): string {
  return OUTCOME_ORDER.filter((o) => totals.counts[o] > 0)
    .map((o) => `${totals.counts[o]} ${outcomeWords[o][1]}`)
    .join(', ');
}

function lineText(line: ReconciledLine, currency: string): string {
  const [emoji, words] = outcomeWords[line.outcome];
  const mark = line.conflict ? ':rotating_light:' : emoji;
  const amount = line.amount ? formatMoney(line.amount, currency) : `"${escapeMrkdwn(line.amountText)}"`;
  const difference =
    line.difference && line.difference !== '0.00'
      ? `, difference ${formatMoney(line.difference, currency)}`
      : '';
  const fee =
    line.fee && line.fee !== '0.00' && line.gross
      ? ` \u00b7 COD ${formatMoney(line.gross, currency)}, fee ${formatMoney(line.fee, currency)}, net ${formatMoney(line.net ?? '0.00', currency)}`
      : line.returnFee && line.returnFee !== '0.00'
        ? ` \u00b7 return fee ${formatMoney(line.returnFee, currency)}`
        : '';
  const why = line.message ? ` (${escapeMrkdwn(line.message)})` : '';
  return `${mark} line ${line.line} \`${escapeMrkdwn(line.trackingNumber || '-')}\` ${amount}: ${words}${difference}${fee}${why}`;
}

/**
 * The card in the channel: counts and totals, then the lines to look at (problems first), at most
 * LISTED_LINES; every line is in the results file in its thread.
 */
export function remittanceCard(input: {
  fileName: string;
  userId: string;
  totals: ReconcileTotals;
  lines: readonly ReconciledLine[];
  currency: string;
  env: WaybillEnv;
}): { text: string; blocks: KnownBlock[] } {
  const { totals, currency } = input;
  const file = escapeMrkdwn(input.fileName);
  const rank = (o: RemittanceOutcome) => OUTCOME_ORDER.indexOf(o);
  const toShow = input.lines
    .filter((l) => l.outcome !== 'matched' || l.conflict)
    .sort(
      (a, b) =>
        Number(!a.conflict) - Number(!b.conflict) || rank(a.outcome) - rank(b.outcome) || a.line - b.line,
    );
  const listed = toShow.slice(0, LISTED_LINES);
  const all = input.lines.length;
  return {
    text: `COD remittance ${file}: ${countsLine(totals) || 'no lines'}`,
    blocks: [
      section(
        `:moneybag: *COD remittance* *${file}*, ${plural(all, 'line')}, reconciled by <@${input.userId}>`,
      ),
      ...environmentNotice(input.env),
      section(
        [
          ...(totals.fee === '0.00'
            ? []
            : [
                `*Gross* ${formatMoney(totals.gross, currency)} \u2212 *Fee* ${formatMoney(totals.fee, currency)} = *Net* ${formatMoney(totals.net, currency)}`,
              ]),
          ...(totals.returnFees === '0.00'
            ? []
            : [
                `*Return fees* ${formatMoney(totals.returnFees, currency)} (returned parcels: no COD collected)`,
              ]),
          `*Expected* ${formatMoney(totals.expected, currency)}   *Remitted* ${formatMoney(totals.remitted, currency)}   *Difference* ${formatMoney(totals.difference, currency)}`,
          ...(totals.short === '0.00' && totals.over === '0.00'
            ? []
            : [
                `*Paid short* ${formatMoney(totals.short, currency)}   *Paid over* ${formatMoney(totals.over, currency)} (each line's difference, neither netted against the other)`,
              ]),
          ...(totals.conflicts > 0
            ? [
                `:rotating_light: *${plural(totals.conflicts, 'line')} contradict${totals.conflicts === 1 ? 's' : ''} a status we recorded*`,
              ]
            : []),
          ...(totals.counts['not ours'] > 0
            ? [
                `*Not ours* ${formatMoney(totals.notOurs, currency)} (${plural(totals.counts['not ours'], 'line')} for tracking numbers we never booked), not in the totals`,
              ]
            : []),
          countsLine(totals),
        ].join('\n'),
      ),
      ...lineSections(listed.map((l) => lineText(l, currency))),
      context(
        (toShow.length > listed.length ? `${toShow.length - listed.length} more lines to look at. ` : '') +
          'Every line with its outcome is in the results file in the thread.',
      ),
    ],
  };
}

/** After a file: the ledger's figures, then the overdue bookings (the first LISTED_LINES; every one is in the file). */
export function overdueMessage(input: {
  cod: CodSummary;
  overdue: readonly OutstandingBooking[];
  currency: string;
}): { text: string; blocks: KnownBlock[] } {
  const { overdue, currency } = input;
  const listed = overdue.slice(0, LISTED_LINES);
  return {
    text: `COD overdue: ${countAndTotal(input.cod.overdue, currency)}`,
    blocks: [
      section(`:hourglass: ${codFigures(input.cod, currency)}`),
      ...lineSections(
        listed.map(
          (b) =>
            `\u2022 \`${escapeMrkdwn(b.trackingNumber)}\` ${formatMoney(b.outstanding, currency)}${b.outstanding === b.codAmount ? '' : ` still due of COD ${formatMoney(b.codAmount, currency)}`} \u00b7 ${escapeMrkdwn(b.receiver)} \u00b7 delivered ${b.since}, ${plural(b.days, 'day')} ago`,
        ),
      ),
      ...(overdue.length > listed.length
        ? [context(`${overdue.length - listed.length} more in the file in the thread.`)]
        : []),
    ],
  };
}

/** Senders listed in the ageing message (the rest are in the file): 2 sections of 10. */
export const LISTED_SENDERS = 20;

/** The buckets that hold something, as `0–7 days PHP 1,500.00 (1)`. */
export function bucketWords(totals: AgeTotals, currency: string): string[] {
  return totals.buckets.flatMap((b, i) =>
    b.count > 0 ? [`${AGE_BUCKETS[i]?.label} ${formatMoney(b.total, currency)} (${b.count})`] : [],
  );
}

/** How many, and how much. */
function countAndTotal(figure: { count: number; total: string }, currency: string): string {
  return figure.count === 0
    ? 'none'
    : `${plural(figure.count, 'booking')}, ${formatMoney(figure.total, currency)}`;
}

/** The ledger's three figures, each saying what it counts: the same words on the Home tab, the digest and `/waybill cod`. */
export function codFigures(cod: CodSummary, currency: string): string {
  const ages = bucketWords(cod.owed, currency);
  return [
    `*COD owed* (delivered or paid in part, not yet remitted): ${countAndTotal(cod.owed, currency)}${ages.length > 0 ? ` \u00b7 by days since delivery: ${ages.join(' \u00b7 ')}` : ''}`,
    `*Overdue* (owed, delivered more than ${plural(cod.overdue.days, 'day')} ago): ${countAndTotal(cod.overdue, currency)}`,
    `*In the pipeline* (not yet delivered): ${countAndTotal(cod.pipeline, currency)}`,
  ].join('\n');
}

/** `/waybill cod`: the ledger's figures, then what is owed by sender; the list is in the file. */
export function codAgeingMessage(cod: CodSummary, currency: string): { text: string; blocks: KnownBlock[] } {
  const owed = cod.owed;
  const text = `COD owed: ${countAndTotal(owed, currency)}; in the pipeline: ${countAndTotal(cod.pipeline, currency)}`;
  const senders = owed.bySender.slice(0, LISTED_SENDERS);
  return {
    text,
    blocks: [
      section(codFigures(cod, currency)),
      ...(owed.count === 0
        ? []
        : [
            section('*Owed by sender*, most first:'),
            ...lineSections(
              senders.map(
                (s) =>
                  `\u2022 *${escapeMrkdwn(cut(s.sender || '(no sender)', 75))}*: ${formatMoney(s.total, currency)} \u00b7 ${bucketWords(s, currency).join(' \u00b7 ')}`,
              ),
            ),
            context(
              `${owed.bySender.length > senders.length ? `${owed.bySender.length - senders.length} more senders in the file. ` : ''}Every booking owed, its sender, age and what is due is in the CSV file the bot sends you.`,
            ),
          ]),
    ],
  };
}
