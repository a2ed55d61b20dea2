// COD remittance files, each once by its hash with its reconciled lines; a booking's remittances; bookings no file paid.
import type { Selectable } from 'kysely';
import { toBooking } from './bookings.js';
import { type Context, checkedLimit, present, type Scope } from './context.js';
import type { RemittanceFilesTable, RemittanceLinesTable } from './schema.js';
import type {
  BookingRecord,
  BookingRemittance,
  RemittanceFileRecord,
  RemittanceLineRecord,
  Remittances,
} from './types.js';

/** Default for `unremitted` when no limit is given. */
const DEFAULT_UNREMITTED_LIMIT = 500;
/** Values per statement: both backends take far more, and a 5,000-line file stays a few statements. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) result.push(items.slice(i, i + CHUNK));
  return result;
}

function toFile(row: Selectable<RemittanceFilesTable>): RemittanceFileRecord {
  return {
    fileHash: row.file_hash,
    fileName: row.file_name,
    userId: row.user_id,
    channelId: row.channel_id,
    lineCount: row.line_count,
    createdAt: new Date(row.created_at),
  };
}

function toLine(row: Selectable<RemittanceLinesTable>): RemittanceLineRecord {
  return {
    fileHash: row.file_hash,
    line: row.line,
    trackingNumber: row.tracking_number,
    outcome: row.outcome,
    ...present({ amount: row.amount, difference: row.difference, remittedAt: row.remitted_at }),
  };
}

export function remittances({ db, atomically }: Scope, context: Context): Remittances {
  const get = async (fileHash: string) => {
    const row = await db
      .selectFrom('remittance_files')
      .selectAll()
      .where('file_hash', '=', fileHash)
      .executeTakeFirst();
    return row && toFile(row);
  };
  return {
    record: (file, lines) =>
      atomically(async (tx) => {
        // Insert-if-absent: of replicas recording one file at once, the primary key picks the first.
        const inserted = await tx
          .insertInto('remittance_files')
          .values({
            file_hash: file.fileHash,
            file_name: file.fileName,
            user_id: file.userId,
            channel_id: file.channelId,
            line_count: file.lineCount,
            created_at: context.now(),
          })
          .onConflict((conflict) => conflict.column('file_hash').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!inserted) {
          const existing = await tx
            .selectFrom('remittance_files')
            .selectAll()
            .where('file_hash', '=', file.fileHash)
            .executeTakeFirstOrThrow();
          return { record: toFile(existing), first: false };
        }
        for (const part of chunks(lines)) {
          await tx
            .insertInto('remittance_lines')
            .values(
              part.map((line) => ({
                file_hash: file.fileHash,
                line: line.line,
                tracking_number: line.trackingNumber,
                amount: line.amount ?? null,
                outcome: line.outcome,
                difference: line.difference ?? null,
                remitted_at: line.remittedAt ?? null,
              })),
            )
            .execute();
        }
        return { record: toFile(inserted), first: true };
      }),
    get,
    async lines(fileHash) {
      const rows = await db
        .selectFrom('remittance_lines')
        .selectAll()
        .where('file_hash', '=', fileHash)
        .orderBy('line')
        .execute();
      return rows.map(toLine);
    },
    async ofBookings(trackingNumbers) {
      const found: BookingRemittance[] = [];
      for (const part of chunks([...new Set(trackingNumbers)])) {
        const rows = await db
          .selectFrom('remittance_lines as l')
          .innerJoin('remittance_files as f', 'f.file_hash', 'l.file_hash')
          .selectAll('l')
          .select(['f.file_name', 'f.created_at'])
          .where('l.tracking_number', 'in', part)
          .execute();
        for (const row of rows) {
          found.push({ ...toLine(row), fileName: row.file_name, recordedAt: new Date(row.created_at) });
        }
      }
      return found.sort(
        (a, b) =>
          a.recordedAt.getTime() - b.recordedAt.getTime() ||
          a.fileHash.localeCompare(b.fileHash) ||
          a.line - b.line,
      );
    },
    async bookingsNamed<T>(trackingNumbers: readonly string[]) {
      const found: BookingRecord<T>[] = [];
      for (const part of chunks([...new Set(trackingNumbers)])) {
        const rows = await db
          .selectFrom('bookings')
          .selectAll()
          .where('tracking_number', 'in', part)
          .execute();
        found.push(...rows.map((row) => toBooking<T>(row)));
      }
      return found;
    },
    async unremitted({ bookedBefore, paying, afterTrackingNumber, limit = DEFAULT_UNREMITTED_LIMIT }) {
      let query = db
        .selectFrom('bookings as b')
        .selectAll('b')
        .where('b.booked_at', '<', bookedBefore.getTime())
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('remittance_lines as l')
                .select('l.line')
                .whereRef('l.tracking_number', '=', 'b.tracking_number')
                .where('l.outcome', 'in', paying.length > 0 ? [...paying] : ['']),
            ),
          ),
        );
      if (afterTrackingNumber !== undefined)
        query = query.where('b.tracking_number', '>', afterTrackingNumber);
      const rows = await query.orderBy('b.tracking_number').limit(checkedLimit(limit)).execute();
      return rows.map((row) => toBooking(row));
    },
  };
}
