/**
 * One row of a bulk booking file, booked once through the one booking path (bookOnce), and its
 * outcome kept for its run and for later runs of the same file.
 *
 * Rules:
 * - The row's tracking number is the one an earlier run gave it, the one typed (reserved for the
 *   row, or the row is not valid), or the next free one; the file's record keeps it for later runs.
 * - The attempt is keyed to the file and the row: a row another replica began (and died in), or
 *   another run booked, is reported from that attempt and never sent again.
 * - Once its attempt is begun, whatever fails, the row is never "refused": its outcome is unknown.
 * - Nothing starts once the worker is stopping; a database that does not answer before the call
 *   puts the row back in the queue (`again`), never loses it.
 */
import type { Logger } from 'pino';
import {
  type Attempt,
  type ImportRow,
  type ImportRun,
  type Store,
  type StoreTables,
  StoreUnavailableError,
} from '../store/index.js';
import { bookingOfRow, type CsvBooking } from '../waybill/csv/read-bookings.js';
import type { RowResult } from '../waybill/csv/results.js';
import { storeOutcome } from './attempts.js';
import { type BookingDeps, beginBooking, bookOnce, trackingNumberFor } from './book.js';

/** What booking a row uses besides a booking's: the booking schema a row is read with. */
export interface RowDeps extends BookingDeps {
  schemas: { booking: Parameters<typeof bookingOfRow>[0]['schema'] };
}

/** What a queued row carries, so any replica can book it without the file: the row as read, and its number from an earlier run. */
export interface QueuedBooking {
  row: CsvBooking;
  receiver: string;
  earlierNumber?: string;
}

/**
 * What became of a claimed row: its result, or not sent and back in the queue (the bot is
 * stopping, the courier asked to slow down, or the database did not answer before the call).
 */
export type RowDone =
  | RowResult
  | { again: 'stopping' | 'database' }
  /** The courier answered 429, and perhaps said for how long (Retry-After). */
  | { again: 'slow down'; retryAfterMs?: number };

/** How a worker books a row: whether it is stopping, and whom to tell while the database keeps a booked row waiting. */
export interface RowBooking {
  stopping: () => boolean;
  databaseAway: () => void;
}

/** The row's tracking number (trackingNumberFor), kept in the file's record for later runs. */
async function numberFor(
  deps: Pick<RowDeps, 'store' | 'bot'>,
  run: ImportRun,
  { row, earlierNumber }: QueuedBooking,
  holder: string,
): Promise<string | { taken: string }> {
  if (earlierNumber) return earlierNumber;
  const given = await trackingNumberFor(deps, holder, { typed: row.trackingNumber || undefined });
  if (typeof given !== 'string') return given;
  return (await deps.store.imports.addRow(run.fileHash, row.row, given)).trackingNumber;
}

function resultOf(row: number, receiver: string) {
  return (
    outcome: RowResult['outcome'],
    trackingNumber: string,
    message: string,
    reference = '',
  ): RowResult => ({
    row,
    receiver,
    trackingNumber,
    courierReference: reference,
    outcome,
    message,
  });
}

/** A row an earlier run settled: reported, never sent. */
export function settledResult(queued: QueuedBooking, before: ImportRow): RowResult {
  const result = resultOf(queued.row.row, queued.receiver);
  return before.state === 'booked'
    ? result(
        'already booked',
        before.trackingNumber,
        'Booked by an earlier run of this file',
        before.trackingRefNo,
      )
    : result(
        'unknown',
        before.trackingNumber,
        before.message ??
          'Outcome unknown in an earlier run of this file: not sent again. Check with the courier.',
      );
}

/**
 * One claimed row, once: it gets its number and goes through the booking path every booking takes
 * (attempt keyed to the file and row, the courier call, the booking, the audit entry), and the
 * import keeps its outcome. The attempt's claim makes it exact: a row another replica began (and
 * died in) is reported as outcome unknown, never sent again. Nothing starts once `stopping()`.
 */
export async function bookRow(
  deps: RowDeps,
  run: ImportRun,
  queued: QueuedBooking,
  { stopping, databaseAway }: RowBooking,
): Promise<RowDone> {
  const { row } = queued;
  const result = resultOf(row.row, queued.receiver);
  const holder = `import:${run.fileHash}:${row.row}`;
  let number: string | undefined = queued.earlierNumber;
  let begun = false;
  try {
    const given = await numberFor(deps, run, queued, holder);
    if (typeof given !== 'string') {
      return done(
        deps,
        run,
        result('not valid', given.taken, `Tracking number ${given.taken} is already used`),
      );
    }
    number = given;
    const checked = bookingOfRow(
      { schema: deps.schemas.booking, timeZone: deps.waybill.timeZone, now: deps.now() },
      row.values,
      number,
    );
    if (!checked.ok) {
      return done(deps, run, result('not valid', number, checked.errors.map((e) => e.message).join('; ')));
    }
    if (stopping()) return { again: 'stopping' };
    // Kept with the booking, as the form's are: a file has no box to confirm a call with.
    const who = { userId: run.userId, channelId: run.channelId };
    const begin = await beginBooking(deps, { holder, booking: checked.value, who, again: 'failed' });
    if (begin.state === 'answered')
      return kept(deps, run, earlierAttempt(run, begin.attempt, result, number));
    begun = true;
    const booked = (reference: string, message = '') => result('booked', number ?? '', message, reference);
    const sent = await bookOnce(deps, begin.begun, {
      postedNote: `Booked from ${run.fileName}.`,
      // The row is done with its booking, in the same transaction.
      alsoRecord: (tx, answer) => keepRow(tx, run, booked(answer.trackingRefNo)),
      waiting: async () => databaseAway(),
    });
    if (sent.state === 'failed' && sent.rateLimited) return { again: 'slow down', ...sent.rateLimited };
    if (sent.state === 'done') return booked(sent.answer.trackingRefNo);
    const outcome =
      sent.state === 'unrecorded'
        ? booked(
            sent.answer.trackingRefNo,
            'Booked, but the bot could not store it: its database did not answer',
          )
        : result(sent.state, number, sent.message);
    return kept(deps, run, outcome);
  } catch (err) {
    deps.logger.error({ err, row: row.row }, 'an imported row could not be booked');
    // Once its attempt is begun the courier may have it: whatever failed, it is never "refused".
    if (begun) {
      const unknown = result(
        'unknown',
        number ?? '',
        'Outcome unknown: the bot failed while booking it (see its log). Not sent again: check with the courier.',
      );
      return kept(deps, run, unknown);
    }
    if (stopping()) return { again: 'stopping' };
    // Nothing went to the courier: the row waits in the queue for the database, never "refused".
    if (err instanceof StoreUnavailableError) return { again: 'database' };
    return done(
      deps,
      run,
      result(
        'failed',
        number ?? row.trackingNumber,
        'Not sent: the bot could not prepare it (see its log); importing the file again tries it again',
      ),
    );
  }
}

/** The row's attempt was begun before, by this run on a replica that is gone, or by another run. */
function earlierAttempt(
  run: ImportRun,
  earlier: Attempt,
  result: ReturnType<typeof resultOf>,
  number: string,
): RowResult {
  const reference = (earlier.result as { trackingRefNo?: string } | undefined)?.trackingRefNo;
  if (earlier.state === 'succeeded' && reference) {
    return earlier.createdAt >= run.startedAt
      ? result('booked', number, '', reference)
      : result('already booked', number, 'Booked by another import of this file', reference);
  }
  if (earlier.state === 'in-flight' || earlier.state === 'unknown') {
    return result(
      'unknown',
      number,
      'Outcome unknown: the bot stopped while it was being sent to the courier. Not sent again: check with the courier.',
    );
  }
  return result('unknown', number, 'Being booked by another import of this file: not sent again');
}

/** The row's outcome: in the file's record, for later runs (booked, refused or unknown), and done in its run's queue. */
async function keepRow(tx: StoreTables, run: ImportRun, outcome: RowResult): Promise<void> {
  await tx.imports.setRow(run.fileHash, outcome.row, {
    state: outcome.courierReference ? 'booked' : outcome.outcome === 'failed' ? 'failed' : 'unknown',
    ...(outcome.courierReference ? { trackingRefNo: outcome.courierReference } : {}),
    ...(outcome.message ? { message: outcome.message } : {}),
  });
  await tx.imports.finishRow(run.id, outcome.row, outcome.outcome, outcome);
}

/**
 * The row done in its run's queue (`kept`: also in the file's record) on its own, outside a
 * booking's transaction: a database briefly away is waited for rather than the outcome lost.
 */
async function done(
  deps: { store: Store; logger: Logger },
  run: ImportRun,
  outcome: RowResult,
  record = false,
): Promise<RowResult> {
  await storeOutcome(deps, async (tx) => {
    if (record) await keepRow(tx, run, outcome);
    else await tx.imports.finishRow(run.id, outcome.row, outcome.outcome, outcome);
  }).catch((err: unknown) =>
    deps.logger.error({ err, row: outcome.row }, 'the outcome of an imported row could not be kept'),
  );
  return outcome;
}

const kept = (deps: { store: Store; logger: Logger }, run: ImportRun, outcome: RowResult) =>
  done(deps, run, outcome, true);
