// The audit trail: who asked for what and what came of it, newest first.
import { type Selectable, sql } from 'kysely';
import { type Context, checkedLimit, fromJson, present, type Scope, toJson } from './context.js';
import type { AuditTable } from './schema.js';
import type { Audit, AuditEntry } from './types.js';

/** Default for `audit.list` when no limit is given. */
export const DEFAULT_AUDIT_LIMIT = 100;

/** Default for `audit.between` when no limit is given: one page of an export. */
export const DEFAULT_AUDIT_PAGE = 1000;

function toAuditEntry(row: Selectable<AuditTable>): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    userId: row.user_id,
    operation: row.operation,
    outcome: row.outcome,
    ...present({
      trackingNumber: row.tracking_number,
      request: fromJson(row.request),
      response: fromJson(row.response),
      detail: row.detail,
    }),
  };
}

export function audit({ db }: Scope, context: Context): Audit {
  return {
    async record(entry) {
      const row = await db
        .insertInto('audit')
        .values({
          at: context.now(),
          user_id: entry.userId,
          operation: entry.operation,
          tracking_number: entry.trackingNumber ?? null,
          outcome: entry.outcome,
          request: toJson(entry.request),
          response: toJson(entry.response),
          detail: entry.detail ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAuditEntry(row);
    },
    async list(filter = {}) {
      const limit = checkedLimit(filter.limit ?? DEFAULT_AUDIT_LIMIT);
      let query = db.selectFrom('audit').selectAll();
      if (filter.trackingNumber !== undefined)
        query = query.where('tracking_number', '=', filter.trackingNumber);
      if (filter.operation !== undefined) query = query.where('operation', '=', filter.operation);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      // By id, not time: the order entries were written, even if a clock goes backwards.
      const rows = await query.orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toAuditEntry);
    },
    async between({ from, to, operations, after, channelIds, limit = DEFAULT_AUDIT_PAGE }) {
      // Keyset pages in the order of the audit_at (at, id) index: each page starts where the last
      // ended and stops after `limit` rows, where ordering by id alone sorted the whole range each time.
      let query = db.selectFrom('audit').selectAll().where('at', '<', to.getTime());
      query = after
        ? query.where((eb) => eb(eb.refTuple('at', 'id'), '>', eb.tuple(after.at.getTime(), after.id)))
        : query.where('at', '>=', from.getTime());
      if (operations !== undefined) {
        if (operations.length === 0) return [];
        // As an expression, so SQLite's planner walks audit_at rather than the operation index
        // (which would sort every matching row of the range for each page).
        query = query.where(sql<string>`${sql.ref('operation')} || ''`, 'in', operations);
      }
      if (channelIds !== undefined) {
        const kept = channelIds.length > 0 ? [...channelIds] : [''];
        query = query.where('tracking_number', 'in', (eb) =>
          eb.selectFrom('bookings').select('tracking_number').where('channel_id', 'in', kept),
        );
      }
      const rows = await query.orderBy('at').orderBy('id').limit(checkedLimit(limit)).execute();
      return rows.map(toAuditEntry);
    },
  };
}
