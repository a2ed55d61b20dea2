// Bulk imports: each file once by its hash, and each row's tracking number and outcome.
import type { Selectable } from 'kysely';
import { type Context, present, type Scope } from './context.js';
import { ImportRowNotFoundError } from './errors.js';
import type { ImportRowsTable, ImportsTable } from './schema.js';
import type { ImportRecord, ImportRow, Imports } from './types.js';

function toImport(row: Selectable<ImportsTable>): ImportRecord {
  return {
    fileHash: row.file_hash,
    fileName: row.file_name,
    userId: row.user_id,
    channelId: row.channel_id,
    rowCount: row.row_count,
    createdAt: new Date(row.created_at),
  };
}

function toImportRow(row: Selectable<ImportRowsTable>): ImportRow {
  return {
    fileHash: row.file_hash,
    row: row.row,
    trackingNumber: row.tracking_number,
    state: row.state,
    updatedAt: new Date(row.updated_at),
    ...present({ trackingRefNo: row.tracking_ref_no, message: row.message }),
  };
}

export function imports({ db }: Scope, context: Context): Imports {
  const get = async (fileHash: string) => {
    const row = await db
      .selectFrom('imports')
      .selectAll()
      .where('file_hash', '=', fileHash)
      .executeTakeFirst();
    return row && toImport(row);
  };
  return {
    async record(input) {
      // Insert-if-absent: of replicas recording one file at once, the primary key picks the first.
      const inserted = await db
        .insertInto('imports')
        .values({
          file_hash: input.fileHash,
          file_name: input.fileName,
          user_id: input.userId,
          channel_id: input.channelId,
          row_count: input.rowCount,
          created_at: context.now(),
        })
        .onConflict((conflict) => conflict.column('file_hash').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { record: toImport(inserted), first: true };
      const existing = await get(input.fileHash);
      if (!existing) throw new Error(`import ${input.fileHash} vanished while being recorded`);
      return { record: existing, first: false };
    },
    get,
    async addRow(fileHash, row, trackingNumber) {
      await db
        .insertInto('import_rows')
        .values({
          file_hash: fileHash,
          row,
          tracking_number: trackingNumber,
          state: 'pending',
          tracking_ref_no: null,
          message: null,
          updated_at: context.now(),
        })
        .onConflict((conflict) => conflict.columns(['file_hash', 'row']).doNothing())
        .execute();
      const stored = await db
        .selectFrom('import_rows')
        .selectAll()
        .where('file_hash', '=', fileHash)
        .where('row', '=', row)
        .executeTakeFirstOrThrow();
      return toImportRow(stored);
    },
    async setRow(fileHash, row, outcome) {
      const result = await db
        .updateTable('import_rows')
        .set({
          state: outcome.state,
          tracking_ref_no: outcome.trackingRefNo ?? null,
          message: outcome.message ?? null,
          updated_at: context.now(),
        })
        .where('file_hash', '=', fileHash)
        .where('row', '=', row)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new ImportRowNotFoundError(fileHash, row);
    },
    async rows(fileHash) {
      const rows = await db
        .selectFrom('import_rows')
        .selectAll()
        .where('file_hash', '=', fileHash)
        .orderBy('row')
        .execute();
      return rows.map(toImportRow);
    },
  };
}
