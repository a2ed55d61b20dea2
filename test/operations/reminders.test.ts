/**
 * The reminders' decisions: quiet hours across midnight, within a day and off, weekends quiet, in Manila; one
 * DM per person per `ATTENTION_BATCH_EVERY`; not before due, never twice, again for a new episode; a live
 * replica's claim left, a gone one's taken over; snooze ends and what follows; escalation once, after 24 h,
 * not in quiet hours, only with a channel.
 */
// The reminders' pure decisions: quiet hours across midnight and weekends in Manila, one DM per person per
// ATTENTION_BATCH_EVERY, what is sent again (snooze over, a new episode, a gone replica's claim), escalation, snooze ends.
import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../src/operations/attention.js';
import {
  planReminders,
  type ReminderSettings,
  reminderId,
  sendableAt,
  snoozeEnd,
} from '../../src/operations/reminders.js';
import type { ReminderRow } from '../../src/store/index.js';

const MANILA = 'Asia/Manila';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** `day` 0 is Monday 2026-11-23; `time` HH:MM in Manila (UTC+8). */
const manila = (day: number, time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return new Date(Date.UTC(2026, 10, 23 + day, h - 8, m));
};

const quiet = { from: '20:00', to: '08:00' };
const settings: ReminderSettings = {
  quietHours: quiet,
  batchEveryMs: 15 * MINUTE,
  escalateAfterMs: 24 * HOUR,
  channelId: 'CESCALATE',
};

const item = (key: string, dueAt: Date, ownerId = 'UANA'): AttentionItem => ({
  rule: 'failed',
  key,
  trackingNumber: key,
  ownerId,
  since: new Date(dueAt.getTime() - 24 * HOUR),
  dueAt,
});

const row = (of: AttentionItem, fields: Partial<ReminderRow> = {}): ReminderRow => ({
  rule: of.rule,
  key: of.key,
  ownerId: of.ownerId,
  since: of.since,
  version: 2,
  claimGone: false,
  escalationGone: false,
  claimedAt: of.dueAt,
  batch: 'b1',
  sentAt: of.dueAt,
  ...fields,
});

function plan(
  items: AttentionItem[],
  now: Date,
  { rows = [], lastDmAt = [] }: { rows?: ReminderRow[]; lastDmAt?: [string, Date][] } = {},
  with_: ReminderSettings = settings,
) {
  const result = planReminders({
    items,
    rows: new Map(rows.map((r) => [reminderId(r), r])),
    lastDmAt: new Map(lastDmAt),
    now,
    settings: with_,
    timeZone: MANILA,
  });
  return {
    send: Object.fromEntries(
      [...result.send].map(([owner, entries]) => [owner, entries.map((e) => e.item.key)]),
    ),
    escalate: result.escalate.map((e) => e.item.key),
  };
}

describe('quiet hours in Manila', () => {
  it('across midnight: from 20:00 it waits for 08:00 the next morning, after midnight for 08:00 that morning', () => {
    expect(sendableAt(manila(0, '19:59'), quiet, MANILA)).toEqual(manila(0, '19:59'));
    expect(sendableAt(manila(0, '20:00'), quiet, MANILA)).toEqual(manila(1, '08:00'));
    expect(sendableAt(manila(0, '23:59'), quiet, MANILA)).toEqual(manila(1, '08:00'));
    expect(sendableAt(manila(1, '00:00'), quiet, MANILA)).toEqual(manila(1, '08:00'));
    expect(sendableAt(manila(1, '07:59'), quiet, MANILA)).toEqual(manila(1, '08:00'));
    expect(sendableAt(manila(1, '08:00'), quiet, MANILA)).toEqual(manila(1, '08:00'));
  });

  it('weekends are quiet: Friday evening and all of Saturday and Sunday wait for Monday 08:00', () => {
    expect(sendableAt(manila(4, '21:00'), quiet, MANILA)).toEqual(manila(7, '08:00'));
    expect(sendableAt(manila(5, '12:00'), quiet, MANILA)).toEqual(manila(7, '08:00'));
    expect(sendableAt(manila(6, '23:00'), quiet, MANILA)).toEqual(manila(7, '08:00'));
  });

  it('a window within a day (12:00-13:00), and off: none at all, weekends included', () => {
    const lunch = { from: '12:00', to: '13:00' };
    expect(sendableAt(manila(0, '11:59'), lunch, MANILA)).toEqual(manila(0, '11:59'));
    expect(sendableAt(manila(0, '12:30'), lunch, MANILA)).toEqual(manila(0, '13:00'));
    expect(sendableAt(manila(0, '22:00'), lunch, MANILA)).toEqual(manila(0, '22:00'));
    expect(sendableAt(manila(5, '03:00'), undefined, MANILA)).toEqual(manila(5, '03:00'));
  });

  it('an item falling due at night is sent at 08:00, not before', () => {
    const night = item('WB000001', manila(0, '23:00'));
    expect(plan([night], manila(1, '07:59')).send).toEqual({});
    expect(plan([night], manila(1, '08:00')).send).toEqual({ UANA: ['WB000001'] });
    expect(plan([night], manila(1, '07:59'), {}, { ...settings, quietHours: undefined }).send).toEqual({
      UANA: ['WB000001'],
    });
  });
});

describe('one DM per person per ATTENTION_BATCH_EVERY', () => {
  it("a person's items due at once go in one DM; another person's in their own", () => {
    const now = manila(0, '10:00');
    const items = [item('WB1', now), item('WB2', manila(0, '09:00')), item('WB3', now, 'UBEN')];
    expect(plan(items, now).send).toEqual({ UANA: ['WB1', 'WB2'], UBEN: ['WB3'] });
  });

  it('within 15 minutes of the last DM nothing more goes; at 15 minutes the waiting ones go together', () => {
    const last = manila(0, '10:00');
    const items = [item('WB4', manila(0, '10:05')), item('WB5', manila(0, '10:10'))];
    expect(plan(items, manila(0, '10:14'), { lastDmAt: [['UANA', last]] }).send).toEqual({});
    expect(plan(items, manila(0, '10:15'), { lastDmAt: [['UANA', last]] }).send).toEqual({
      UANA: ['WB4', 'WB5'],
    });
  });

  it('not before an item falls due; never again once sent; again for a new episode of it', () => {
    const due = item('WB6', manila(0, '10:00'));
    expect(plan([due], manila(0, '09:59')).send).toEqual({});
    expect(plan([due], manila(0, '11:00'), { rows: [row(due)] }).send).toEqual({});
    const later = { ...due, since: new Date(due.since.getTime() + HOUR), dueAt: manila(0, '11:00') };
    expect(plan([later], manila(0, '11:00'), { rows: [row(due)] }).send).toEqual({ UANA: ['WB6'] });
  });

  it("a claim whose replica is alive is left to it; a gone replica's claim is taken over", () => {
    const due = item('WB7', manila(0, '10:00'));
    const claimed = row(due, { sentAt: undefined, claimedBy: 'replica-a' });
    expect(plan([due], manila(0, '10:01'), { rows: [claimed] }).send).toEqual({});
    expect(plan([due], manila(0, '10:01'), { rows: [{ ...claimed, claimGone: true }] }).send).toEqual({
      UANA: ['WB7'],
    });
    // Left by a live replica for 10 minutes (its bookkeeping failed half-way): looked at again.
    expect(plan([due], manila(0, '10:09'), { rows: [claimed] }).send).toEqual({});
    expect(plan([due], manila(0, '10:10'), { rows: [claimed] }).send).toEqual({ UANA: ['WB7'] });
  });
});

describe('snooze and escalation', () => {
  it('snooze ends: an hour, tomorrow at 9:00 in Manila (from late evening too), three days', () => {
    const now = manila(0, '23:30');
    expect(snoozeEnd('hour', now, MANILA)).toEqual(manila(1, '00:30'));
    expect(snoozeEnd('tomorrow', now, MANILA)).toEqual(manila(1, '09:00'));
    expect(snoozeEnd('days', now, MANILA)).toEqual(manila(3, '23:30'));
  });

  it('a snoozed item is reminded again when the snooze ends (outside quiet hours), and not escalated meanwhile', () => {
    const due = item('WB8', manila(0, '10:00'));
    const snoozed = row(due, { snoozedUntil: manila(1, '09:00') });
    expect(plan([due], manila(1, '08:59'), { rows: [snoozed] })).toEqual({ send: {}, escalate: [] });
    expect(plan([due], manila(1, '10:01'), { rows: [snoozed] })).toEqual({
      send: { UANA: ['WB8'] },
      escalate: [],
    });
    const atNight = row(due, { snoozedUntil: manila(1, '21:00') });
    expect(plan([due], manila(1, '21:00'), { rows: [atNight] }).send).toEqual({});
  });

  it('escalated once, 24 h after the reminder, only with a channel and a duration', () => {
    const due = item('WB9', manila(0, '10:00'));
    const sent = row(due, { sentAt: manila(0, '10:00') });
    expect(plan([due], manila(1, '09:59'), { rows: [sent] }).escalate).toEqual([]);
    expect(plan([due], manila(1, '10:00'), { rows: [sent] }).escalate).toEqual(['WB9']);
    expect(
      plan([due], manila(1, '10:00'), { rows: [{ ...sent, escalatedAt: manila(1, '10:00') }] }).escalate,
    ).toEqual([]);
    // Claimed and never recorded posted: left to a live replica for 10 minutes, taken over once it is gone.
    const claimed = {
      ...sent,
      escalatedAt: manila(1, '10:00'),
      escalationBy: 'replica-a',
      escalationBatch: 'e1',
    };
    expect(plan([due], manila(1, '10:09'), { rows: [claimed] }).escalate).toEqual([]);
    expect(plan([due], manila(1, '10:10'), { rows: [claimed] }).escalate).toEqual(['WB9']);
    expect(
      plan([due], manila(1, '10:01'), { rows: [{ ...claimed, escalationGone: true }] }).escalate,
    ).toEqual(['WB9']);
    const { channelId: _, ...noChannel } = settings;
    expect(plan([due], manila(1, '10:00'), { rows: [sent] }, noChannel).escalate).toEqual([]);
    expect(
      plan([due], manila(1, '10:00'), { rows: [sent] }, { ...settings, escalateAfterMs: 0 }).escalate,
    ).toEqual([]);
    // Falling due at night, it waits for the morning too.
    const evening = row(due, { sentAt: manila(0, '19:30') });
    expect(plan([due], manila(1, '19:30'), { rows: [evening] }).escalate).toEqual(['WB9']);
    const late = row(due, { sentAt: manila(0, '21:00') });
    expect(plan([due], manila(1, '21:00'), { rows: [late] }).escalate).toEqual([]);
    expect(plan([due], manila(2, '08:00'), { rows: [late] }).escalate).toEqual(['WB9']);
  });

  it('an item the rules no longer return is neither sent nor escalated', () => {
    const due = item('WB10', manila(0, '10:00'));
    expect(plan([], manila(2, '10:00'), { rows: [row(due)] })).toEqual({ send: {}, escalate: [] });
  });
});
