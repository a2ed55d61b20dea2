// Reminders of what needs attention: each item's row claimed by one replica before its DM, sent once, snoozed, escalated once.
import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import { type Context, present, type Scope } from './context.js';
import { leaseGone } from './leases.js';
import type { Db, Tables } from './schema.js';
import type { ReminderRow, Reminders } from './types.js';

/** Keys looked up per query. */
const CHUNK = 500;

/** A claim that found a row changed by another replica: the transaction is rolled back. */
class Changed extends Error {}

type Item = { rule: string; key: string };

const chunks = <T>(list: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

const ofItem = (item: Item) => (eb: ExpressionBuilder<Tables, 'attention_reminders'>) =>
  eb.and([eb('key', '=', item.key), eb('rule', '=', item.rule)]);

const date = (ms: number | string | null) => (ms === null ? undefined : new Date(Number(ms)));

async function lastDmAt(db: Db, ownerIds: readonly string[]): Promise<Map<string, Date>> {
  // The chunks at once: on PostgreSQL each on its own pooled connection (in a transaction, one after another).
  const rows = await Promise.all(
    chunks([...new Set(ownerIds)]).map((owners) =>
      db
        .selectFrom('attention_reminders')
        .select(['owner_id', (eb) => eb.fn.max('claimed_at').as('at')])
        .where('owner_id', 'in', owners)
        .groupBy('owner_id')
        .execute(),
    ),
  );
  return new Map(rows.flat().map((row) => [row.owner_id, new Date(Number(row.at))]));
}

type Read = Selectable<Tables['attention_reminders']> & { claim_gone: unknown; escalation_gone: unknown };

function rowOf(row: Read): ReminderRow {
  const { sent_at, snoozed_until, escalated_at, claimed_by, dm_channel, dm_ts, settled_at } = row;
  const { escalation_by, escalation_batch } = row;
  return {
    rule: row.rule,
    key: row.key,
    ownerId: row.owner_id,
    since: new Date(Number(row.since)),
    version: Number(row.version),
    claimGone: Boolean(Number(row.claim_gone)),
    escalationGone: Boolean(Number(row.escalation_gone)),
    claimedAt: new Date(Number(row.claimed_at)),
    batch: row.batch,
    ...present({
      claimedBy: claimed_by,
      sentAt: date(sent_at),
      dmChannel: dm_channel,
      dmTs: dm_ts,
      snoozedUntil: date(snoozed_until),
      settledAt: date(settled_at),
      escalatedAt: date(escalated_at),
      escalationBy: escalation_by,
      escalationBatch: escalation_batch,
    }),
  };
}

export function reminders({ db, atomically, lock }: Scope, context: Context): Reminders {
  /** The rows with whether their claimers are gone. */
  const rows = () =>
    db
      .selectFrom('attention_reminders')
      .selectAll()
      .select(leaseGone('attention_reminders.claimed_by', context.now()).as('claim_gone'))
      .select(leaseGone('attention_reminders.escalation_by', context.now()).as('escalation_gone'));

  return {
    async of(items) {
      const wanted = new Set(items.map((item) => `${item.rule} ${item.key}`));
      const found: ReminderRow[] = [];
      // The chunks at once: on PostgreSQL each on its own pooled connection.
      const chunked = await Promise.all(
        chunks([...new Set(items.map((item) => item.key))]).map((keys) =>
          rows().where('key', 'in', keys).execute(),
        ),
      );
      for (const row of chunked.flat()) {
        if (wanted.has(`${row.rule} ${row.key}`)) found.push(rowOf(row));
      }
      return found;
    },

    lastDmAt: (ownerIds) => lastDmAt(db, ownerIds),

    claim: ({ ownerId, lastDmAt: seen, items }) =>
      // One claim per person at a time, on any replica: the last DM read is still the last.
      atomically(async (tx) => {
        await lock(tx, `reminders:${ownerId}`);
        const last = (await lastDmAt(tx, [ownerId])).get(ownerId);
        if ((last?.getTime() ?? 0) !== (seen?.getTime() ?? 0)) return undefined;
        const at = context.now();
        const batch = randomUUID();
        const claimed = { owner_id: ownerId, claimed_by: context.replicaId, claimed_at: at, batch };
        for (const item of items) {
          const since = item.since.getTime();
          if (item.version === 0) {
            const inserted = await tx
              .insertInto('attention_reminders')
              .values({ rule: item.rule, key: item.key, since, version: 1, ...claimed })
              .onConflict((conflict) => conflict.columns(['key', 'rule']).doNothing())
              .returning('key')
              .executeTakeFirst();
            if (!inserted) throw new Changed();
            continue;
          }
          const updated = await tx
            .updateTable('attention_reminders')
            .set({
              ...claimed,
              since,
              version: item.version + 1,
              sent_at: null,
              dm_channel: null,
              dm_ts: null,
              snoozed_until: null,
              settled_at: null,
              // A new episode (the rule counts from a later moment), or a new owner, may be escalated again.
              escalated_at: sql<
                number | null
              >`case when since < ${since} or owner_id <> ${ownerId} then null else escalated_at end`,
              escalation_by: sql<
                string | null
              >`case when since < ${since} or owner_id <> ${ownerId} then null else escalation_by end`,
            })
            .where(ofItem(item))
            .where('version', '=', item.version)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) !== 1) throw new Changed();
        }
        return batch;
      }).catch((err: unknown) => {
        if (err instanceof Changed) return undefined;
        throw err;
      }),

    async sent(batch, items, dm) {
      for (let start = 0; start < items.length; start += 100) {
        await db
          .updateTable('attention_reminders')
          .set((eb) => ({
            sent_at: context.now(),
            claimed_by: null,
            dm_channel: dm.channel,
            dm_ts: dm.ts,
            version: eb('version', '+', 1),
          }))
          .where('batch', '=', batch)
          .where('claimed_by', '=', context.replicaId)
          .where((eb) => eb.or(items.slice(start, start + 100).map((item) => ofItem(item)(eb))))
          .execute();
      }
    },

    async release(batch) {
      await db
        .updateTable('attention_reminders')
        .set((eb) => ({ claimed_by: null, version: eb('version', '+', 1) }))
        .where('batch', '=', batch)
        .where('claimed_by', '=', context.replicaId)
        .execute();
    },

    async settle(open) {
      const keep = new Set(open.map((item) => `${item.rule} ${item.key} ${item.ownerId}`));
      const sent = await rows()
        .where('dm_ts', 'is not', null)
        .where('sent_at', 'is not', null)
        .where('settled_at', 'is', null)
        .execute();
      const settled: ReminderRow[] = [];
      for (const row of sent.filter((row) => !keep.has(`${row.rule} ${row.key} ${row.owner_id}`))) {
        // One replica marks it: that one redraws the DM.
        const marked = await db
          .updateTable('attention_reminders')
          .set((eb) => ({ settled_at: context.now(), version: eb('version', '+', 1) }))
          .where(ofItem(row))
          .where('version', '=', row.version)
          .where('settled_at', 'is', null)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 1) settled.push(rowOf(row));
      }
      return settled;
    },

    async ofDm({ channel, ts }) {
      const found = await rows()
        .where('dm_channel', '=', channel)
        .where('dm_ts', '=', ts)
        .orderBy('since')
        .orderBy('key')
        .execute();
      return found.map(rowOf);
    },

    async snooze(item, until) {
      const updated = await db
        .updateTable('attention_reminders')
        .set((eb) => ({ snoozed_until: until.getTime(), version: eb('version', '+', 1) }))
        .where(ofItem(item))
        .where('sent_at', 'is not', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async claimEscalation(item, batch) {
      const updated = await db
        .updateTable('attention_reminders')
        .set({
          escalated_at: context.now(),
          escalation_by: context.replicaId,
          escalation_batch: batch,
          version: item.version + 1,
        })
        .where(ofItem(item))
        .where('version', '=', item.version)
        // Never escalated, or claimed and not yet posted (the plan decided that claim is gone or stale).
        .where((eb) => eb.or([eb('escalated_at', 'is', null), eb('escalation_by', 'is not', null)]))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    async escalated(batch) {
      await db
        .updateTable('attention_reminders')
        .set((eb) => ({ escalation_by: null, version: eb('version', '+', 1) }))
        .where('escalation_batch', '=', batch)
        .where('escalation_by', '=', context.replicaId)
        .execute();
    },

    async purgeClosed(open, before) {
      const at = before.getTime();
      const keep = new Set(open.map((item) => `${item.rule} ${item.key}`));
      const old = await db
        .selectFrom('attention_reminders')
        .select(['rule', 'key'])
        // sent_at follows claimed_at; an escalation or a snooze's end may be later.
        .where('claimed_at', '<', at)
        .where((eb) => eb.or([eb('escalated_at', 'is', null), eb('escalated_at', '<', at)]))
        .where((eb) => eb.or([eb('snoozed_until', 'is', null), eb('snoozed_until', '<', at)]))
        .execute();
      const closed = old.filter((row) => !keep.has(`${row.rule} ${row.key}`));
      for (let start = 0; start < closed.length; start += 100) {
        await db
          .deleteFrom('attention_reminders')
          .where('claimed_at', '<', at)
          .where((eb) => eb.or(closed.slice(start, start + 100).map((item) => ofItem(item)(eb))))
          .execute();
      }
      return closed.length;
    },

    async releaseEscalation(item) {
      await db
        .updateTable('attention_reminders')
        .set((eb) => ({ escalated_at: null, escalation_by: null, version: eb('version', '+', 1) }))
        .where(ofItem(item))
        .execute();
    },
  };
}
