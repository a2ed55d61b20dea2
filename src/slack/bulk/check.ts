/** Checking a chosen CSV file: download it, read every row, weigh it against earlier runs, and show the summary. */
import { createHash } from 'node:crypto';
import type { ImportRow } from '../../store/index.js';
import { bookingDefaults } from '../../waybill/booking-input.js';
import {
  type BookingCsv,
  type CsvBooking,
  type CsvProblem,
  readBookingCsv,
} from '../../waybill/csv/read-bookings.js';
import type { Core } from '../core.js';
import { downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError } from '../kit/files.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import type { SlackClient } from '../runtime/delivery.js';
import { MAX_LISTED_PROBLEMS, notCheckedView, summaryView } from './blocks.js';
import { FLAGGED_LISTED, type FlaggedRow, flaggedRows } from './receivers.js';

/** A checked file, between the summary and the confirmation (a draft of kind `bulk`). */
/**
 * What bulk booking uses of the core: its register hands the whole core on, and each working
 * function (and the worker) takes only the part of this it uses.
 */
export type BulkDeps = Pick<
  Core,
  | 'store'
  | 'courier'
  | 'logger'
  | 'now'
  | 'activity'
  | 'inFlight'
  | 'metrics'
  | 'schemas'
  | 'waybill'
  | 'bot'
  | 'profiles'
>;

export interface BulkDraft {
  fileId: string;
  fileName: string;
  /** SHA-256 of the bytes, hex: the import's identity. */
  fileHash: string;
  rowCount: number;
  toBook: number;
  earlier: { booked: number; unknown: number };
  /** The first MAX_LISTED_PROBLEMS problems. */
  problems: CsvProblem[];
  problemCount: number;
  rowsWithProblems: number;
  /** COD rows to receivers the risk rule flags: the first FLAGGED_LISTED, and how many in all. */
  flagged?: FlaggedRow[];
  flaggedCount?: number;
  page: number;
  /** Set when the booking of it started: one check is booked once. */
  startedAt?: string;
}

export const BULK_KIND = 'bulk';

export function fileHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file read with the bot's settings: the booking form's defaults and sender profiles, the limits. */
export function readBookings(
  deps: Pick<BulkDeps, 'now' | 'waybill' | 'schemas' | 'profiles' | 'bot'>,
  bytes: Uint8Array,
): BookingCsv {
  const { catalog, timeZone } = deps.waybill;
  return readBookingCsv(bytes, {
    schema: deps.schemas.booking,
    catalog,
    timeZone,
    now: deps.now(),
    defaults: bookingDefaults(deps.now(), timeZone, catalog),
    profiles: deps.profiles.read(),
    maxRows: deps.bot.bulk.maxRows,
    maxBytes: deps.bot.bulk.maxBytes,
  });
}

/**
 * What an earlier run of the same file settled for a row: booked, or of unknown outcome (never
 * sent again). A row left pending (a run stopped around it) is not settled here: its courier
 * attempt's claim says whether it may go.
 */
export function settledBefore(row: ImportRow | undefined): 'booked' | 'unknown' | undefined {
  return row?.state === 'booked' || row?.state === 'unknown' ? row.state : undefined;
}

/**
 * The rows of a fresh check that may be sent: not settled by an earlier run, and not under a typed
 * tracking number someone already booked (a problem on that row, found now rather than at the courier).
 */
async function weigh(deps: Pick<BulkDeps, 'store'>, csv: BookingCsv, hash: string) {
  const earlierRows = new Map((await deps.store.imports.rows(hash)).map((row) => [row.row, row]));
  const earlier = { booked: 0, unknown: 0 };
  const problems = [...csv.problems];
  const toBook: CsvBooking[] = [];
  for (const row of csv.ready) {
    const settled = settledBefore(earlierRows.get(row.row));
    if (settled) {
      earlier[settled] += 1;
    } else if (row.trackingNumber && (await deps.store.bookings.get(row.trackingNumber))) {
      problems.push({
        row: row.row,
        column: 'tracking_number',
        message: `Tracking number ${row.trackingNumber} is already booked`,
      });
    } else {
      toBook.push(row);
    }
  }
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return { earlier, problems, toBook };
}

/** After "Check file": the file downloaded and read, the summary (or why it could not be read) in the modal. */
export async function checkFile(
  deps: Pick<BulkDeps, 'store' | 'logger' | 'now' | 'schemas' | 'waybill' | 'bot' | 'profiles'>,
  client: SlackClient,
  input: { viewId: string; userId: string; channelId: string; fileId: string },
): Promise<void> {
  const { env } = deps.waybill;
  let file: { name: string; bytes: Uint8Array };
  try {
    file = await downloadChosenFile(deps, client, input.fileId, input.userId);
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    deps.logger.warn({ err, fileId: input.fileId }, 'a bulk booking file could not be read');
    await showInModal(client, input.viewId, notCheckedView(err.message, env));
    return;
  }
  const csv = readBookings(deps, file.bytes);
  const hash = fileHash(file.bytes);
  const { earlier, problems, toBook: rows } = await weigh(deps, csv, hash);
  const toBook = rows.length;
  const flagged = await flaggedRows(deps, rows);
  const draft = await deps.store.drafts.create<BulkDraft>({
    kind: BULK_KIND,
    userId: input.userId,
    channelId: input.channelId,
    data: {
      fileId: input.fileId,
      fileName: file.name,
      fileHash: hash,
      rowCount: csv.rowCount,
      toBook,
      earlier,
      problems: problems.slice(0, MAX_LISTED_PROBLEMS),
      problemCount: problems.length,
      rowsWithProblems: new Set(problems.flatMap((p) => (p.row !== undefined && p.row > 1 ? [p.row] : [])))
        .size,
      flagged: flagged.slice(0, FLAGGED_LISTED),
      flaggedCount: flagged.length,
      page: 0,
    },
  });
  deps.logger.info(
    { fileId: input.fileId, rows: csv.rowCount, toBook, problems: problems.length },
    'bulk booking file checked',
  );
  await showInModal(client, input.viewId, bulkSummary(deps, draft.id, draft.data));
}

export function bulkSummary(deps: Pick<BulkDeps, 'waybill'>, draftId: string, data: BulkDraft) {
  return summaryView({ ...data, env: deps.waybill.env, metadata: viewMetadata({ draftId }) });
}
