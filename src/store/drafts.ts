// Drafts of forms in progress: one row per open modal, expiring after a period of disuse.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { type Context, checkedLimit, type Scope, toJson } from './context.js';
import { DraftNotFoundError } from './errors.js';
import type { DraftsTable } from './schema.js';
import type { Draft, Drafts } from './types.js';

export const DEFAULT_DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Default for `listOpen` when no limit is given. */
const DEFAULT_OPEN_DRAFTS = 20;

/** Random, URL-safe (base64url), 22 characters: 128 bits. */
function newDraftId(): string {
  return randomBytes(16).toString('base64url');
}

function toDraft<T>(row: Selectable<DraftsTable>): Draft<T> {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.user_id,
    channelId: row.channel_id,
    data: JSON.parse(row.data) as T,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
  };
}

export function drafts({ db }: Scope, context: Context): Drafts {
  const newRow = (id: string, input: Parameters<Drafts['create']>[0]) => {
    const at = context.now();
    return {
      id,
      kind: input.kind,
      user_id: input.userId,
      channel_id: input.channelId,
      data: toJson(input.data) ?? 'null',
      version: 1,
      created_at: at,
      updated_at: at,
      expires_at: at + context.draftTtlMs,
    };
  };
  const live = (id: string) =>
    db
      .selectFrom('drafts')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', context.now())
      .executeTakeFirst();
  return {
    async create(input) {
      const row = newRow(newDraftId(), input);
      await db.insertInto('drafts').values(row).execute();
      return toDraft(row);
    },
    async createOnce(id, input) {
      // The first insert wins across replicas; a later one leaves that draft as it is.
      const inserted = await db
        .insertInto('drafts')
        .values(newRow(id, input))
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { draft: toDraft(inserted), created: true };
      const kept = await live(id);
      return kept && { draft: toDraft(kept), created: false };
    },
    async get(id) {
      const row = await live(id);
      return row && toDraft(row);
    },
    async save(id, data) {
      const at = context.now();
      // An expired draft is never revived, even if the purge has not removed it yet.
      const row = await db
        .updateTable('drafts')
        .set((eb) => ({
          data: toJson(data) ?? 'null',
          version: eb('version', '+', 1),
          updated_at: at,
          expires_at: at + context.draftTtlMs,
        }))
        .where('id', '=', id)
        .where('expires_at', '>', at)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new DraftNotFoundError(id);
      return toDraft(row);
    },
    async listOpen({ userId, kind, limit = DEFAULT_OPEN_DRAFTS }) {
      const rows = await db
        .selectFrom('drafts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('expires_at', '>', context.now())
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(checkedLimit(limit))
        .execute();
      return rows.map((row) => toDraft(row));
    },
    async delete(id) {
      await db.deleteFrom('drafts').where('id', '=', id).execute();
    },
    async purgeExpired() {
      const result = await db
        .deleteFrom('drafts')
        .where('expires_at', '<=', context.now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
