/** Block Kit for bulk booking: the file modal, the check's summary (paged), progress, the card and its thread. */
import type { ActionsBlock, KnownBlock, ModalView, SectionBlock } from '@slack/types';
import type { OutcomeCounts } from '../../operations/bulk-queue.js';
import type { CsvProblem } from '../../waybill/csv/read-bookings.js';
import type { RowOutcome, RowResult } from '../../waybill/csv/results.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { bookingIds } from '../booking/index.js';
import {
  context,
  environmentNotice,
  environmentTag,
  header,
  outcomeModal,
  plain,
  plural,
  section,
} from '../kit/blocks.js';
import { fileAndDestinationBlocks } from '../kit/file-input.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { labelsIds } from '../labels/index.js';
import { ids } from './ids.js';
import { type FlaggedRow, flaggedLines } from './receivers.js';

/** Problems kept for the summary's pages; a file with more is mostly wrong, and the first ones say how. */
export const MAX_LISTED_PROBLEMS = 1000;
/** Problems shown on one page of the summary: four sections of ten lines stay far below 100 blocks and 3000 characters each. */
export const PROBLEMS_PER_PAGE = 40;
const LINES_PER_SECTION = 10;
/** Rows per thread message: one section each, under the 50 blocks a message may hold. */
export const ROWS_PER_MESSAGE = 45;

export interface Limits {
  maxRows: number;
  maxBytes: number;
}

function limitsLine({ maxRows, maxBytes }: Limits): string {
  return `At most ${maxRows} bookings and ${maxBytes / 1_000_000} MB per file, UTF-8, cells separated by \`,\` or \`;\`.`;
}

/** The first modal: the file, and where the results go. */
export function importModal(input: { env: WaybillEnv; channelId?: string; limits: Limits }): ModalView {
  return {
    type: 'modal',
    callback_id: ids.bulkImport,
    title: plain('Import bookings'),
    submit: plain('Check file'),
    close: plain('Cancel'),
    blocks: [
      ...environmentNotice(input.env),
      section(
        'Book many waybills at once from a CSV file: one booking per row, columns named as in the template. ' +
          'The bot checks every row first and shows you what it found; nothing is booked until you confirm.',
      ),
      {
        type: 'actions',
        elements: [{ type: 'button', action_id: ids.bulkTemplate, text: plain('Send me the template') }],
      },
      context(limitsLine(input.limits)),
      ...fileAndDestinationBlocks('CSV file', input.channelId),
    ],
  };
}

/** Every window of an import after the file modal: the same title, no submit, only Close. */
function importWindow(env: WaybillEnv, metadata: string, blocks: KnownBlock[]): ModalView {
  return outcomeModal({ callbackId: ids.bulkProgress, title: 'Import bookings', metadata, env, blocks });
}

/** While the file is downloaded and checked. */
export function checkingView(fileName: string, env: WaybillEnv, metadata: string): ModalView {
  return importWindow(env, metadata, [
    section(`:hourglass_flowing_sand: Checking *${escapeMrkdwn(fileName)}*…`),
  ]);
}

/** A file that could not be checked at all (too large, not downloadable, not CSV). */
export function notCheckedView(reason: string, env: WaybillEnv): ModalView {
  return importWindow(env, '', [
    section(`:warning: ${escapeMrkdwn(reason)}`),
    context('Nothing was booked.'),
  ]);
}

function problemLine(problem: CsvProblem): string {
  const where = [
    problem.row === undefined
      ? ''
      : `row ${problem.row}${problem.receiver ? ` (${escapeMrkdwn(problem.receiver)})` : ''}`,
    problem.column ? `\`${escapeMrkdwn(problem.column)}\`` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `• ${where ? `${where}: ` : ''}${escapeMrkdwn(problem.message)}`;
}

/** Lines grouped into sections, each under 3000 characters. */
function lineSections(lines: readonly string[]): SectionBlock[] {
  const sections: SectionBlock[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_SECTION) {
    sections.push(section(lines.slice(i, i + LINES_PER_SECTION).join('\n')));
  }
  return sections;
}

export interface SummaryInput {
  fileName: string;
  rowCount: number;
  /** Rows that will be sent when confirmed. */
  toBook: number;
  /** Rows an earlier run of the same file booked (or left of unknown outcome): never sent again. */
  earlier: { booked: number; unknown: number };
  /** The problems listed (the first MAX_LISTED_PROBLEMS of them). */
  problems: readonly CsvProblem[];
  /** How many there are in all. */
  problemCount: number;
  /** Rows with at least one problem. */
  rowsWithProblems: number;
  /** COD rows to flagged receivers (receivers.ts). */
  flagged?: readonly FlaggedRow[];
  flaggedCount?: number;
  page: number;
  env: WaybillEnv;
  metadata: string;
}

export function pageCount(problems: number): number {
  return Math.max(1, Math.ceil(problems / PROBLEMS_PER_PAGE));
}

/** What the check found: rows ready, rows an earlier run settled, and the problems, a page at a time. */
export function summaryView(input: SummaryInput): ModalView {
  const { toBook, earlier, problems, env } = input;
  const pages = pageCount(problems.length);
  const page = Math.min(Math.max(input.page, 0), pages - 1);
  const shown = problems.slice(page * PROBLEMS_PER_PAGE, (page + 1) * PROBLEMS_PER_PAGE);
  const lines = [
    `*${escapeMrkdwn(input.fileName)}*: ${plural(input.rowCount, 'booking')} in the file.`,
    `:white_check_mark: *${plural(toBook, 'row')} ready to book.*`,
  ];
  if (earlier.booked > 0) {
    lines.push(
      `:repeat: ${plural(earlier.booked, 'row')} booked by an earlier run of this file: not booked again.`,
    );
  }
  if (earlier.unknown > 0) {
    lines.push(
      `:question: ${plural(earlier.unknown, 'row')} of unknown outcome from an earlier run: never sent again; check them with the courier.`,
    );
  }
  lines.push(...flaggedLines(input.flagged ?? [], input.flaggedCount ?? 0));
  if (input.problemCount > 0) {
    lines.push(
      `:warning: *${plural(input.problemCount, 'problem')}*` +
        (input.rowsWithProblems > 0
          ? ` in ${plural(input.rowsWithProblems, 'row')}: those rows are not booked. `
          : ': ') +
        'Fix them in the file and import it again to book them.' +
        (input.problemCount > problems.length ? ` The first ${problems.length} are listed here.` : ''),
    );
  }
  const pager: ActionsBlock['elements'] = [];
  if (page > 0) {
    pager.push({
      type: 'button',
      action_id: ids.bulkPage,
      text: plain('← Previous'),
      value: String(page - 1),
    });
  }
  if (page < pages - 1) {
    pager.push({ type: 'button', action_id: ids.bulkPage, text: plain('Next →'), value: String(page + 1) });
  }
  const blocks: KnownBlock[] = [...environmentNotice(env), section(lines.join('\n'))];
  if (shown.length > 0) {
    blocks.push(header(pages > 1 ? `Problems, page ${page + 1} of ${pages}` : 'Problems'));
    blocks.push(...lineSections(shown.map(problemLine)));
  }
  if (pager.length > 0) blocks.push({ type: 'actions', elements: pager });
  blocks.push(
    context(
      toBook > 0
        ? 'Each row is booked on its own, with its own tracking number; a row the courier refuses does not stop the others. You get a summary card in the channel and a results file.'
        : 'Nothing here can be booked.',
    ),
  );
  return {
    type: 'modal',
    callback_id: ids.bulkConfirm,
    title: plain('Import bookings'),
    ...(toBook > 0 ? { submit: plain(`Book ${plural(toBook, 'row')}`.slice(0, 24)) } : {}),
    close: plain(toBook > 0 ? 'Cancel' : 'Close'),
    private_metadata: input.metadata,
    notify_on_close: false,
    blocks,
  };
}

function countsLine(counts: OutcomeCounts): string {
  const parts = [
    `:white_check_mark: ${counts.booked} booked`,
    counts['already booked'] > 0 ? `:repeat: ${counts['already booked']} booked earlier` : '',
    counts.failed > 0 ? `:x: ${counts.failed} refused` : '',
    counts.unknown > 0 ? `:question: ${counts.unknown} outcome unknown` : '',
    counts['not valid'] > 0 ? `:warning: ${counts['not valid']} not valid` : '',
  ];
  return parts.filter(Boolean).join('  ·  ');
}

/** While the rows are booked. */
export function progressView(input: {
  fileName: string;
  done: number;
  total: number;
  counts: OutcomeCounts;
  env: WaybillEnv;
  metadata: string;
  /** Replaces the usual "you may close this window" line (the replica booking it is stopping, say). */
  note?: string;
}): ModalView {
  const filled = input.total === 0 ? 10 : Math.round((input.done / input.total) * 10);
  const bar = `${'▓'.repeat(filled)}${'░'.repeat(10 - filled)}`;
  return importWindow(input.env, input.metadata, [
    section(
      `:hourglass_flowing_sand: Booking *${escapeMrkdwn(input.fileName)}*: ${input.done} of ${input.total}\n\`${bar}\``,
    ),
    context(countsLine(input.counts)),
    context(
      input.note ??
        'You may close this window: the booking goes on, and the summary is posted when it is done.',
    ),
  ]);
}

/** "Book N rows" on a file whose rows another run is booking: nothing is booked twice. */
export function alreadyRunningView(
  running: { userId: string; channelId: string; fileName: string },
  env: WaybillEnv,
): ModalView {
  return importWindow(env, '', [
    section(
      `:hourglass_flowing_sand: *${escapeMrkdwn(running.fileName)}* is being booked already, by <@${running.userId}>'s import of this same file: its summary comes to <#${running.channelId}> when every row is done.`,
    ),
    context(
      'Nothing was booked twice. Import the file again once that summary is posted to book what is left.',
    ),
  ]);
}

/** When every row has its outcome. */
export function finishedView(input: {
  fileName: string;
  counts: OutcomeCounts;
  postedNote: string;
  env: WaybillEnv;
  metadata: string;
}): ModalView {
  return importWindow(input.env, input.metadata, [
    section(`:checkered_flag: *${escapeMrkdwn(input.fileName)}* is done.\n${countsLine(input.counts)}`),
    context(input.postedNote),
  ]);
}

/** Print labels: every booked row's, in one file per label format (the labels feature answers it). */
function labelsButton(fileHash: string): ActionsBlock {
  return {
    type: 'actions',
    elements: [
      { type: 'button', action_id: labelsIds.labelsBulk, text: plain('Print labels'), value: fileHash },
    ],
  };
}

/** The one card in the channel; each row's outcome follows in its thread. */
export function summaryCard(input: {
  fileName: string;
  userId: string;
  counts: OutcomeCounts;
  env: WaybillEnv;
  /** The file's key: with it, and rows booked, the card offers their labels. */
  fileHash?: string;
}): { text: string; blocks: KnownBlock[] } {
  const name = escapeMrkdwn(input.fileName);
  const { counts, fileHash } = input;
  const printable = counts.booked + counts['already booked'] > 0 && fileHash !== undefined;
  return {
    text: `Bulk booking${environmentTag(input.env)} from ${name}: ${counts.booked} booked, ${counts.failed} refused, ${counts.unknown} unknown, ${counts['not valid']} not valid`,
    blocks: [
      section(`:inbox_tray: *Bulk booking*${environmentTag(input.env)} from *${name}* by <@${input.userId}>`),
      ...environmentNotice(input.env),
      section(countsLine(counts)),
      context('Each row’s outcome is in the thread, with the results file.'),
      ...(printable ? [labelsButton(fileHash)] : []),
    ],
  };
}

const outcomeEmoji: Record<RowOutcome, string> = {
  booked: ':white_check_mark:',
  'already booked': ':repeat:',
  failed: ':x:',
  unknown: ':question:',
  'not valid': ':warning:',
};

function rowBlock(result: RowResult): SectionBlock {
  const number = result.trackingNumber ? ` \`${escapeMrkdwn(result.trackingNumber)}\`` : '';
  const reference = result.courierReference ? ` (${escapeMrkdwn(result.courierReference)})` : '';
  const message = result.message ? `: ${escapeMrkdwn(result.message)}` : '';
  const receiver = result.receiver ? ` ${escapeMrkdwn(result.receiver)}` : '';
  // section() keeps it within a section's 3000 characters.
  const block = section(
    `${outcomeEmoji[result.outcome]} Row ${result.row}${number}${receiver}${reference}: ${result.outcome}${message}`,
  );
  const booked = result.outcome === 'booked' || result.outcome === 'already booked';
  return booked
    ? {
        ...block,
        accessory: {
          type: 'button',
          action_id: bookingIds.waybillUpdate,
          text: plain('Update'),
          value: result.trackingNumber,
        },
      }
    : block;
}

/** Each row's outcome for the card's thread, in messages of at most ROWS_PER_MESSAGE rows. */
export function rowMessages(results: readonly RowResult[]): { text: string; blocks: KnownBlock[] }[] {
  const sorted = [...results].sort((a, b) => a.row - b.row);
  const messages: { text: string; blocks: KnownBlock[] }[] = [];
  for (let i = 0; i < sorted.length; i += ROWS_PER_MESSAGE) {
    const part = sorted.slice(i, i + ROWS_PER_MESSAGE);
    messages.push({
      text: `Rows ${part[0]?.row}–${part.at(-1)?.row}`,
      blocks: part.map(rowBlock),
    });
  }
  return messages;
}
