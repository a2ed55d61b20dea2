// The audit trail: who asked for what and what came of it, newest first.
import type { Selectable } from 'kysely';
import { type Context, fromJson, present, type Scope, toJson } from './context.js';
import type { AuditTable } from './schema.js';
import type { Audit, AuditEntry } from './types.js';

/** Default for `audit.list` when no limit is given. */
export const DEFAULT_AUDIT_LIMIT = 100;

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
      const limit = filter.limit ?? DEFAULT_AUDIT_LIMIT;
      if (!Number.isInteger(limit) || limit < 0) {
        throw new RangeError(`limit must be a whole number ≥ 0, got ${limit}`);
      }
      let query = db.selectFrom('audit').selectAll();
      if (filter.trackingNumber !== undefined)
        query = query.where('tracking_number', '=', filter.trackingNumber);
      if (filter.operation !== undefined) query = query.where('operation', '=', filter.operation);
      // By id, not time: the order entries were written, even if a clock goes backwards.
      const rows = await query.orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toAuditEntry);
    },
  };
}
