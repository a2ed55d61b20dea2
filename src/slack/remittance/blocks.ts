/** Block Kit for COD remittance: the file modal, its windows, the result card and the outstanding list. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { WaybillEnv } from '../../config.js';
import { AGE_BUCKETS, type AgeTotals, type CodAgeing } from '../../waybill/cod-ageing.js';
import type { OutstandingBooking } from '../../waybill/csv/remittance-results.js';
import {
  OUTCOME_ORDER,
  type ReconciledLine,
  type ReconcileTotals,
  type RemittanceOutcome,
} from '../../waybill/remittance.js';
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
          'You get a card with the totals and the problems, a results file, and the COD still outstanding.',
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
  const amount = line.amount ? formatMoney(line.amount, currency) : `"${escapeMrkdwn(line.amountText)}"`;
  const difference =
    line.difference && line.difference !== '0.00'
      ? `, difference ${formatMoney(line.difference, currency)}`
      : '';
  const fee =
    line.fee && line.fee !== '0.00' && line.gross
      ? ` \u00b7 COD ${formatMoney(line.gross, currency)}, fee ${formatMoney(line.fee, currency)}, net ${formatMoney(line.net ?? '0.00', currency)}`
      : '';
  const why = line.message ? ` (${escapeMrkdwn(line.message)})` : '';
  return `${emoji} line ${line.line} \`${escapeMrkdwn(line.trackingNumber || '-')}\` ${amount}: ${words}${difference}${fee}${why}`;
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
    .filter((l) => l.outcome !== 'matched')
    .sort((a, b) => rank(a.outcome) - rank(b.outcome) || a.line - b.line);
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
                `*Gross* ${formatMoney(totals.gross, currency)}   *Fee* ${formatMoney(totals.fee, currency)}   *Net* ${formatMoney(totals.net, currency)}`,
              ]),
          `*Expected* ${formatMoney(totals.expected, currency)}   *Remitted* ${formatMoney(totals.remitted, currency)}   *Difference* ${formatMoney(totals.difference, currency)}`,
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

/** COD bookings older than the setting with money still due: the first LISTED_LINES, the total, the rest in a file. */
export function outstandingMessage(input: {
  bookings: readonly OutstandingBooking[];
  total: string;
  days: number;
  currency: string;
}): { text: string; blocks: KnownBlock[] } {
  const { bookings, currency } = input;
  const head = `:hourglass: *COD still outstanding*: ${plural(bookings.length, 'booking')} older than ${plural(input.days, 'day')} that remittance files have not paid in full: ${formatMoney(input.total, currency)} in all.`;
  const listed = bookings.slice(0, LISTED_LINES);
  return {
    text: `COD still outstanding: ${plural(bookings.length, 'booking')}, ${formatMoney(input.total, currency)}`,
    blocks: [
      section(bookings.length === 0 ? ':white_check_mark: *COD still outstanding*: none.' : head),
      ...lineSections(
        listed.map(
          (b) =>
            `\u2022 \`${escapeMrkdwn(b.trackingNumber)}\` ${formatMoney(b.outstanding, currency)}${b.outstanding === b.codAmount ? '' : ` still due of ${formatMoney(b.codAmount, currency)}`} \u00b7 ${escapeMrkdwn(b.receiver)} \u00b7 booked ${b.bookedDate}`,
        ),
      ),
      ...(bookings.length > listed.length
        ? [context(`${bookings.length - listed.length} more in the file in the thread.`)]
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

/** `/waybill cod`: the COD the courier still owes, by days since delivery and by sender; the list is in the file. */
export function codAgeingMessage(
  ageing: CodAgeing,
  currency: string,
): { text: string; blocks: KnownBlock[] } {
  const head = `COD the courier still owes: ${plural(ageing.count, 'booking')}, ${formatMoney(ageing.total, currency)}`;
  if (ageing.count === 0)
    return { text: head, blocks: [section(':white_check_mark: *COD the courier still owes*: none.')] };
  const senders = ageing.bySender.slice(0, LISTED_SENDERS);
  return {
    text: head,
    blocks: [
      section(`:hourglass: *${head}*, by days since delivery (or pickup):`),
      section(
        ageing.buckets
          .map(
            (b, i) =>
              `\u2022 *${AGE_BUCKETS[i]?.label}*: ${plural(b.count, 'booking')}, ${formatMoney(b.total, currency)}`,
          )
          .join('\n'),
      ),
      section('*By sender*, most owed first:'),
      ...lineSections(
        senders.map(
          (s) =>
            `\u2022 *${escapeMrkdwn(cut(s.sender || '(no sender)', 75))}*: ${formatMoney(s.total, currency)} \u00b7 ${bucketWords(s, currency).join(' \u00b7 ')}`,
        ),
      ),
      context(
        `${ageing.bySender.length > senders.length ? `${ageing.bySender.length - senders.length} more senders in the file. ` : ''}Every booking, its sender, age and what is due is in the CSV file the bot sends you.`,
      ),
    ],
  };
}
