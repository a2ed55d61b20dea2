// Bulk imports: each file once by its hash, and each row's tracking number and outcome.
import type { Selectable } from 'kysely';
import { type Context, fromJson, present, type Scope, toJson } from './context.js';
import { ImportRowNotFoundError } from './errors.js';
import { leaseGone } from './leases.js';
import type { ImportQueueTable, ImportRowsTable, ImportRunsTable, ImportsTable } from './schema.js';
import type { ImportRecord, ImportRow, ImportRun, Imports } from './types.js';

const queueId = (runId: string, row: number) => `${runId}:${row}`;

/** Rows inserted per statement when a run starts: well under SQLite's limit of bound values. */
const INSERT_CHUNK = 500;

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

function toRun(row: Selectable<ImportRunsTable>): ImportRun {
  return {
    id: row.id,
    fileHash: row.file_hash,
    fileName: row.file_name,
    userId: row.user_id,
    channelId: row.channel_id,
    viewId: row.view_id,
    state: row.state,
    toBook: row.to_book,
    startedAt: new Date(row.started_at),
  };
}

export function imports({ db, atomically, lock, kind }: Scope, context: Context): Imports {
  const get = async (fileHash: string) => {
    const row = await db
      .selectFrom('imports')
      .selectAll()
      .where('file_hash', '=', fileHash)
      .executeTakeFirst();
    return row && toImport(row);
  };
  /** This replica's claimed rows back in the queue: the one of `id`, or all of them. */
  const releaseMine = async (id?: string) => {
    const released = await db
      .updateTable('import_queue')
      .set({ state: 'queued', claimed_by: null })
      .where('state', '=', 'claimed')
      .where('claimed_by', '=', context.replicaId)
      .$if(id !== undefined, (q) => q.where('id', '=', id ?? ''))
      .executeTakeFirst();
    return Number(released.numUpdatedRows);
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
    startRun: (run, rows) =>
      atomically(async (tx) => {
        // Two runs of one file starting at once queue here; the unique index backs it.
        await lock(tx, `import:${run.fileHash}`);
        const running = await tx
          .selectFrom('import_runs')
          .selectAll()
          .where('file_hash', '=', run.fileHash)
          .where('state', '<>', 'done')
          .executeTakeFirst();
        if (running) return { started: false, running: toRun(running) };
        const at = context.now();
        await tx
          .insertInto('import_runs')
          .values({
            id: run.id,
            file_hash: run.fileHash,
            file_name: run.fileName,
            user_id: run.userId,
            channel_id: run.channelId,
            view_id: run.viewId,
            state: 'running',
            to_book: run.toBook,
            reporter: null,
            started_at: at,
            finished_at: null,
          })
          .execute();
        const values = rows.map(
          (row): ImportQueueTable => ({
            id: queueId(run.id, row.row),
            run_id: run.id,
            row: row.row,
            queued_at: at,
            claimed_by: null,
            ...('booking' in row
              ? { state: 'queued', booking: toJson(row.booking), outcome: null, result: null }
              : { state: 'done', booking: null, outcome: row.outcome, result: toJson(row.result) }),
          }),
        );
        for (let i = 0; i < values.length; i += INSERT_CHUNK) {
          await tx
            .insertInto('import_queue')
            .values(values.slice(i, i + INSERT_CHUNK))
            .execute();
        }
        return { started: true };
      }),
    async run(id) {
      const row = await db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRun(row);
    },
    async runningOf(fileHash) {
      const row = await db
        .selectFrom('import_runs')
        .selectAll()
        .where('file_hash', '=', fileHash)
        .where('state', '<>', 'done')
        .executeTakeFirst();
      return row && toRun(row);
    },
    async claimRow() {
      const next = db
        .selectFrom('import_queue')
        .select('id')
        .where('state', '=', 'queued')
        .orderBy('queued_at')
        .orderBy('run_id')
        .orderBy('row')
        .limit(1)
        // Replicas claiming at once each skip the row another is taking, rather than wait for it.
        .$if(kind === 'postgres', (q) => q.forUpdate().skipLocked());
      const claimed = await db
        .updateTable('import_queue')
        .set({ state: 'claimed', claimed_by: context.replicaId })
        .where('id', '=', next)
        .where('state', '=', 'queued')
        .returning(['run_id', 'row', 'booking'])
        .executeTakeFirst();
      return claimed && { runId: claimed.run_id, row: claimed.row, booking: fromJson(claimed.booking) };
    },
    async finishRow(runId, row, outcome, result) {
      const updated = await db
        .updateTable('import_queue')
        .set({ state: 'done', outcome, result: toJson(result) })
        .where('id', '=', queueId(runId, row))
        .where('state', '=', 'claimed')
        .where('claimed_by', '=', context.replicaId)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },
    async releaseRow(runId, row) {
      await releaseMine(queueId(runId, row));
    },
    async requeueAbandoned() {
      const at = context.now();
      // One UPDATE: with replicas doing this at once, each row is requeued once.
      const updated = await db
        .updateTable('import_queue')
        .set({ state: 'queued', claimed_by: null })
        .where('state', '=', 'claimed')
        .where(leaseGone('import_queue.claimed_by', at))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows);
    },
    async releaseClaimed() {
      return releaseMine();
    },
    async anyRunning() {
      const row = await db
        .selectFrom('import_runs')
        .select('id')
        .where('state', '<>', 'done')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async runCounts(runId) {
      const rows = await db
        .selectFrom('import_queue')
        .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
        .where('run_id', '=', runId)
        .groupBy('outcome')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.outcome ?? '', Number(row.n)]));
    },
    async takeReports() {
      const at = context.now();
      const rows = await db
        .updateTable('import_runs')
        .set({ state: 'reporting', reporter: context.replicaId })
        .where((eb) =>
          eb.or([
            eb.and([
              eb('state', '=', 'running'),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('import_queue')
                    .select('import_queue.row')
                    .whereRef('import_queue.run_id', '=', 'import_runs.id')
                    .where('import_queue.state', '<>', 'done'),
                ),
              ),
            ]),
            // A reporter that died before it was done: its summary is posted again.
            eb.and([eb('state', '=', 'reporting'), leaseGone('import_runs.reporter', at)]),
          ]),
        )
        .returningAll()
        .execute();
      return rows.map(toRun);
    },
    async runResults<R>(runId: string) {
      const rows = await db
        .selectFrom('import_queue')
        .select('result')
        .where('run_id', '=', runId)
        .where('state', '=', 'done')
        .orderBy('row')
        .execute();
      return rows.flatMap((row) => {
        const result = fromJson<R>(row.result);
        return result === undefined ? [] : [result];
      });
    },
    async closeRun(runId, at) {
      await db
        .updateTable('import_runs')
        .set({
          state: 'done',
          finished_at: context.now(),
          ...(at ? { summary_channel_id: at.channelId, summary_ts: at.ts } : {}),
        })
        .where('id', '=', runId)
        .execute();
    },
    async threadOf(trackingNumber) {
      const found = await db
        .selectFrom('import_rows')
        .innerJoin('import_runs', 'import_runs.file_hash', 'import_rows.file_hash')
        .select(['import_runs.summary_channel_id as channelId', 'import_runs.summary_ts as ts'])
        .where('import_rows.tracking_number', '=', trackingNumber)
        .where('import_rows.state', '=', 'booked')
        .where('import_runs.summary_ts', 'is not', null)
        .orderBy('import_runs.finished_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return found?.channelId && found.ts ? { channelId: found.channelId, ts: found.ts } : undefined;
    },
  };
}
