/** Block Kit for the courier's status export: the file modal, its columns, and what came of each row. */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import {
  STATUS_COLUMN_KEYS,
  type StatusColumnKey,
  type StatusColumns,
} from '../../waybill/csv/read-statuses.js';
import { context, cut, plain, plural, section } from '../kit/blocks.js';
import { FILE_BLOCK } from '../kit/file-input.js';
import { VALUE_ACTION } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

const TITLE = 'Courier status file';

/** The value of "not in this file", for the optional columns: an option's value may not be empty. */
export const NO_COLUMN = '-';

export function statusFileModal(maxRows: number, metadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: ids.statusesFile,
    private_metadata: metadata,
    title: plain(TITLE),
    submit: plain('Read'),
    close: plain('Cancel'),
    blocks: [
      section(
        "The courier's status export from its portal, as CSV: each row's status is recorded on its booking, as if you recorded it. " +
          'The first time, you say which column is which; the bot remembers.',
      ),
      context(`At most ${maxRows} rows, UTF-8, cells separated by \`,\` or \`;\`.`),
      {
        type: 'input',
        block_id: FILE_BLOCK,
        label: plain('Status file (CSV)'),
        element: { type: 'file_input', action_id: VALUE_ACTION, filetypes: ['csv'], max_files: 1 },
      },
    ],
  };
}

const COLUMN_LABELS: Record<StatusColumnKey, string> = {
  trackingNumber: 'Tracking number',
  status: 'Status',
  at: 'Date and time',
  remarks: 'Reason or remarks',
};

/** Slack's most options in a static select. */
const MAX_OPTIONS = 100;

/** Which header is which: a select of the file's headers for each, pre-filled by the guess. */
export function statusColumnsModal(input: {
  fileName: string;
  headers: readonly string[];
  guess: Partial<StatusColumns>;
  metadata: string;
}): ModalView {
  const headerOptions: PlainTextOption[] = input.headers
    .map((header, index) => ({ header, index }))
    .filter(({ header }) => header !== '')
    .slice(0, MAX_OPTIONS - 1)
    .map(({ header, index }) => ({ text: plain(cut(header, 75)), value: String(index) }));
  const none: PlainTextOption = { text: plain('Not in this file'), value: NO_COLUMN };
  const blocks: KnownBlock[] = STATUS_COLUMN_KEYS.map((key) => {
    const optional = key === 'at' || key === 'remarks';
    const options = optional ? [none, ...headerOptions] : headerOptions;
    const guessed = input.guess[key];
    const initial = options.find(
      (option) =>
        guessed !== undefined &&
        input.headers[Number(option.value)] === guessed &&
        option.value !== NO_COLUMN,
    );
    return {
      type: 'input',
      block_id: key,
      label: plain(COLUMN_LABELS[key]),
      element: {
        type: 'static_select',
        action_id: VALUE_ACTION,
        options,
        ...(initial ? { initial_option: initial } : optional ? { initial_option: none } : {}),
      },
    };
  });
  return {
    type: 'modal',
    callback_id: ids.statusesFileColumns,
    title: plain(TITLE),
    submit: plain('Record'),
    close: plain('Cancel'),
    private_metadata: input.metadata,
    blocks: [
      section(
        `*${escapeMrkdwn(input.fileName)}*: which column holds what? The bot keeps your choice for files with these headers.`,
      ),
      ...blocks,
    ],
  };
}

/** A window with no buttons but Close: reading, or what came of it. */
export function statusFileView(blocks: KnownBlock[]): ModalView {
  return { type: 'modal', title: plain(TITLE), close: plain('Close'), blocks };
}

export const readingView = () => statusFileView([section(':hourglass_flowing_sand: Reading the file…')]);

export const notReadView = (reason: string) =>
  statusFileView([section(`:warning: ${escapeMrkdwn(reason)}`), context('Nothing was recorded.')]);

/** What came of the rows, by kind; each kind's rows listed (`Row 4 WB1: why`, already escaped). */
export interface FileOutcome {
  recorded: string[];
  already: string[];
  conflicts: string[];
  refused: string[];
  superseded: string[];
  unreadable: string[];
}

const KINDS: [keyof FileOutcome, string, string][] = [
  ['unreadable', ':warning:', 'unreadable'],
  ['conflicts', ':rotating_light:', 'in conflict, not recorded'],
  ['refused', ':no_entry_sign:', 'unknown or not yours to update'],
  ['superseded', ':twisted_rightwards_arrows:', 'superseded by a later row'],
  ['recorded', ':white_check_mark:', 'recorded'],
  ['already', ':heavy_equals_sign:', 'already so'],
];

/** Rows listed under each kind, and the characters they may fill: one section each, under Slack's 3000. */
const LISTED = 10;
const LISTED_CHARS = 2800;

/** The first rows that fit whole (a row is never cut: its escaping and links stay intact); the rest counted. */
function listedRows(lines: readonly string[]): string {
  const shown: string[] = [];
  let size = 0;
  for (const line of lines.slice(0, LISTED)) {
    if (size + line.length + 1 > LISTED_CHARS) break;
    shown.push(line);
    size += line.length + 1;
  }
  const rest = lines.length - shown.length;
  return [...shown, ...(rest > 0 ? [`…and ${plural(rest, shown.length ? 'more row' : 'row')}`] : [])].join(
    '\n',
  );
}

export function statusFileDoneView(fileName: string, outcome: FileOutcome): ModalView {
  const counts = KINDS.filter(([kind]) => outcome[kind].length > 0)
    .map(([kind, , words]) => `${outcome[kind].length} ${words}`)
    .join(', ');
  const blocks: KnownBlock[] = [section(`*${escapeMrkdwn(fileName)}* read: ${counts || 'no rows'}.`)];
  for (const [kind, emoji, words] of KINDS) {
    const lines = outcome[kind];
    if (lines.length > 0) blocks.push(section(`${emoji} *${words}*\n${listedRows(lines)}`));
  }
  return statusFileView(blocks);
}
