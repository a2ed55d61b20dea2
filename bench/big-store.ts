/**
 * Issue 21's big store (100,000 bookings, 1,000,000 audit lines, 50,000 saved parties), written once per
 * backend straight into its tables in one transaction, then the export of a year, the type-ahead,
 * `/waybill find` and a turn of what needs attention measured on that same store.
 */
import { auditLineAt, auditTrackingNumber, insertAuditRows } from '../fakes/audit-rows.js';
import { insertBookings } from '../fakes/bookings.js';
import { writeRows } from '../fakes/bulk-insert.js';
import { insertParties } from '../fakes/parties.js';
import { type AttentionTurn, measureAttention } from './attention.js';
import { type Backend, benchDatabase } from './databases.js';
import { auditLinesOf2026, benchExport, type ExportReport } from './export.js';
import { type FindRow, measureFind } from './find.js';
import { type FloodRow, measureFindFlood } from './find-flood.js';
import { epochMs } from './lib.js';
import type { Context } from './phases.js';
import { log } from './processes.js';
import { measureTypeAhead, type TypeAheadRow } from './type-ahead.js';

export const BIG_STORE = { bookings: 100_000, auditRows: 1_000_000, parties: 50_000 };
/** Booking i is audit line i x 10, a booking line (every tenth line from the ninth is a quote). */
const AUDIT_LINES_A_BOOKING = 10;

/** The big store at `scale` (1: the sizes; less for a quicker run that keeps the proportions). */
export function bigStoreSize(scale: number) {
  const bookings = Math.max(1, Math.round(BIG_STORE.bookings * scale));
  return {
    bookings,
    auditRows: bookings * AUDIT_LINES_A_BOOKING,
    parties: Math.max(1, Math.round(BIG_STORE.parties * scale)),
  };
}

const kindOf = (backend: Backend) => (backend === 'SQLite' ? 'sqlite' : 'postgres');

/**
 * `queriesOnly` (`--find-only`): only the bookings written, and only `/waybill find` and the attention
 * turn measured (no audit lines, parties, export or type-ahead).
 */
export async function benchBigStore(
  ctx: Context,
  backend: Backend,
  scale: number,
  queriesOnly = false,
): Promise<{
  exported?: ExportReport;
  typeAhead: TypeAheadRow[];
  find: FindRow[];
  flood: FloodRow;
  attention: AttentionTurn;
}> {
  const size = bigStoreSize(scale);
  const database = await benchDatabase(backend, ctx.tmp, 'big-store');
  try {
    log(
      queriesOnly
        ? `big store (${backend}): writing ${size.bookings} bookings`
        : `big store (${backend}): writing ${size.auditRows} audit lines, ${size.bookings} bookings, ${size.parties} parties`,
    );
    const begun = epochMs();
    const lines = auditLinesOf2026(size.auditRows);
    await writeRows(database.target, async (writer) => {
      if (!queriesOnly) await insertAuditRows(writer, lines);
      await insertBookings(writer, {
        count: size.bookings,
        trackingNumber: (i) => auditTrackingNumber(i * AUDIT_LINES_A_BOOKING),
        bookedAt: (i) => auditLineAt(lines, i * AUDIT_LINES_A_BOOKING),
      });
      if (!queriesOnly) await insertParties(writer, size.parties);
    });
    const seedMs = Math.round(epochMs() - begun);
    log(`big store (${backend}): written in ${Math.round(seedMs / 100) / 10} s`);
    const exported = queriesOnly ? undefined : await benchExport(ctx, { backend, database, ...size, seedMs });
    const typeAhead = queriesOnly
      ? []
      : await measureTypeAhead(kindOf(backend), database.target, size.parties);
    const middle = Math.floor(size.bookings / 2);
    const find = await measureFind(kindOf(backend), database.target, size.bookings, {
      trackingNumber: auditTrackingNumber(middle * AUDIT_LINES_A_BOOKING),
      party: middle,
    });
    const flood = await measureFindFlood(
      kindOf(backend),
      database.target,
      size.bookings,
      auditTrackingNumber(middle * AUDIT_LINES_A_BOOKING),
    );
    log(
      `big store (${backend}): ${flood.finds} finds at once, max ack ${Math.round(flood.ackMaxMs)} ms, others' acks p99 ${Math.round(flood.othersP99Ms)} ms`,
    );
    const attention = await measureAttention(kindOf(backend), database.target, size.bookings, (i) =>
      auditTrackingNumber(i * AUDIT_LINES_A_BOOKING),
    );
    log(
      `big store (${backend}): a turn of what needs attention, p50 ${Math.round(attention.p50Ms)} ms; a reminders turn, p50 ${Math.round(attention.reminders.p50Ms)} ms`,
    );
    return { exported, typeAhead, find, flood, attention };
  } finally {
    await database.drop();
  }
}
