// Receivers' SMS: a durable outbox, one row per booking and event, claimed by one replica, its call begun once.
import type { ExpressionBuilder, Selectable } from 'kysely';
import { type Context, present, type Scope } from './context.js';
import { leaseGone } from './leases.js';
import type { SmsOutboxTable, Tables } from './schema.js';
import type { SmsChange, SmsKey, SmsNote, SmsOutbox, SmsRow } from './types.js';

/** Outcomes that are failures in a receiver's record: refused by the gateway, or perhaps never arrived. */
const FAILED = ['refused', 'unknown'];

const ofKey = (key: SmsKey) => (eb: ExpressionBuilder<Tables, 'sms_outbox'>) =>
  eb.and([
    eb('tracking_number', '=', key.trackingNumber),
    eb('event', '=', key.event),
    eb('occurrence', '=', key.occurrence),
  ]);

const date = (ms: number | string | null) => (ms === null ? undefined : new Date(Number(ms)));

function toRow(row: Selectable<SmsOutboxTable>): SmsRow {
  return {
    trackingNumber: row.tracking_number,
    event: row.event,
    occurrence: Number(row.occurrence),
    state: row.state as SmsRow['state'],
    dueAt: new Date(Number(row.due_at)),
    tries: Number(row.tries),
    noted: row.noted === '' ? [] : (row.noted.split(',') as SmsNote[]),
    ...present({
      language: row.language,
      reason: row.reason,
      attempt: row.attempt === null ? null : Number(row.attempt),
      phoneKey: row.phone_key,
      outcome: row.outcome,
      detail: row.detail,
      message: row.message,
      heldUntil: date(row.held_until),
      note: row.note as SmsNote | null,
    }),
  };
}

export function smsOutbox({ db, atomically, lock }: Scope, context: Context): SmsOutbox {
  return {
    async enqueue(row) {
      const inserted = await db
        .insertInto('sms_outbox')
        .values({
          tracking_number: row.trackingNumber,
          event: row.event,
          occurrence: row.occurrence,
          reason: row.reason ?? null,
          attempt: row.attempt ?? null,
          phone_key: row.phoneKey ?? null,
          state: 'queued',
          due_at: row.dueAt.getTime(),
          tries: 0,
          noted: '',
          created_at: context.now(),
        })
        .onConflict((conflict) => conflict.columns(['tracking_number', 'event', 'occurrence']).doNothing())
        .returning('tracking_number')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    claim: (limit) =>
      // One claim at a time across replicas: two never take the same row.
      atomically(async (tx) => {
        await lock(tx, 'sms-outbox');
        const at = context.now();
        const rows = await tx
          .selectFrom('sms_outbox')
          .selectAll()
          .where((eb) =>
            eb.or([
              eb.and([eb('state', '=', 'queued'), eb('due_at', '<=', at)]),
              eb('state', '=', 'calling'),
              eb('note', 'is not', null),
            ]),
          )
          .where((eb) =>
            eb.or([
              eb('claimed_by', 'is', null),
              eb('claimed_by', '=', context.replicaId),
              leaseGone('sms_outbox.claimed_by', at),
            ]),
          )
          .orderBy('due_at')
          .orderBy('created_at')
          .orderBy('occurrence')
          .limit(limit)
          .execute();
        for (const row of rows) {
          await tx
            .updateTable('sms_outbox')
            .set({ claimed_by: context.replicaId })
            .where(
              ofKey({ trackingNumber: row.tracking_number, event: row.event, occurrence: row.occurrence }),
            )
            .execute();
        }
        return rows.map(toRow);
      }),

    startCall: (key, perMinute) =>
      // The minute's count and the mark in one transaction at a time: replicas together keep to the limit.
      atomically(async (tx) => {
        await lock(tx, 'sms-calls');
        const at = context.now();
        const recent = await tx
          .selectFrom('sms_outbox')
          .select((eb) => eb.fn.countAll<number | string>().as('calls'))
          .where('called_at', '>', at - 60_000)
          .executeTakeFirstOrThrow();
        if (Number(recent.calls) >= perMinute) return false;
        const updated = await tx
          .updateTable('sms_outbox')
          .set((eb) => ({ state: 'calling', called_at: at, tries: eb('tries', '+', 1) }))
          .where(ofKey(key))
          .where('state', '=', 'queued')
          .where('claimed_by', '=', context.replicaId)
          .executeTakeFirst();
        return Number(updated.numUpdatedRows) === 1;
      }),

    async update(key, change: SmsChange) {
      const updated = await db
        .updateTable('sms_outbox')
        .set({
          ...(change.state ? { state: change.state } : {}),
          ...(change.state === 'done' ? { done_at: context.now() } : {}),
          ...(change.outcome === undefined ? {} : { outcome: change.outcome }),
          ...(change.detail === undefined ? {} : { detail: change.detail }),
          ...(change.message === undefined ? {} : { message: change.message }),
          ...(change.language === undefined ? {} : { language: change.language }),
          ...(change.dueAt ? { due_at: change.dueAt.getTime() } : {}),
          ...(change.heldUntil ? { held_until: change.heldUntil.getTime() } : {}),
          ...('note' in change ? { note: change.note ?? null } : {}),
          ...(change.noted ? { noted: change.noted.join(',') } : {}),
        })
        .where(ofKey(key))
        .where('claimed_by', '=', context.replicaId)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    async release() {
      await db
        .updateTable('sms_outbox')
        .set({ claimed_by: null })
        .where('claimed_by', '=', context.replicaId)
        .execute();
    },

    async of(trackingNumber) {
      const rows = await db
        .selectFrom('sms_outbox')
        .selectAll()
        .where('tracking_number', '=', trackingNumber)
        .orderBy('created_at')
        .orderBy('occurrence')
        .execute();
      return rows.map(toRow);
    },

    async setOptedOut(phoneKey, optedOut, userId) {
      if (!optedOut) {
        const deleted = await db
          .deleteFrom('sms_opt_outs')
          .where('phone_key', '=', phoneKey)
          .executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      }
      const added = await db
        .insertInto('sms_opt_outs')
        .values({ phone_key: phoneKey, user_id: userId, at: context.now() })
        .onConflict((conflict) => conflict.column('phone_key').doNothing())
        .returning('phone_key')
        .executeTakeFirst();
      return added !== undefined;
    },
    async isOptedOut(phoneKey) {
      const found = await db
        .selectFrom('sms_opt_outs')
        .select('phone_key')
        .where('phone_key', '=', phoneKey)
        .executeTakeFirst();
      return found !== undefined;
    },
    async failuresTo(phoneKey, where = {}) {
      const { channelIds } = where;
      const row = await db
        .selectFrom('sms_outbox')
        .$if(channelIds !== undefined, (query) =>
          query.where((eb) =>
            eb.exists(
              eb
                .selectFrom('bookings')
                .select('bookings.tracking_number')
                .whereRef('bookings.tracking_number', '=', 'sms_outbox.tracking_number')
                // An empty scope counts nothing.
                .where(
                  'bookings.channel_id',
                  'in',
                  channelIds && channelIds.length > 0 ? [...channelIds] : [''],
                ),
            ),
          ),
        )
        .select((eb) => [
          eb.fn.countAll<number | string>().as('texts'),
          eb.fn
            .sum<number | string | null>(eb.case().when('outcome', 'in', FAILED).then(1).else(0).end())
            .as('failed'),
        ])
        .where('phone_key', '=', phoneKey)
        .where('outcome', 'in', ['sent', 'logged', ...FAILED])
        .executeTakeFirstOrThrow();
      return { texts: Number(row.texts), failed: Number(row.failed ?? 0) };
    },
  };
}
