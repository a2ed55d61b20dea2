/**
 * What needs attention on both backends with a clock the test moves: each rule raised when due and not a
 * minute before (a failed attempt, no pickup by the end of the next day in Manila, in transit, COD not
 * remitted, an unknown booking), a fixed one dropped, a rule set to 0 off; failed attempts counted against
 * COURIER_ATTEMPT_LIMIT (the fewest left first, the last raised at once); `/waybill attention` and the Home
 * tab, yours first and the team's with owners; 500 items within Block Kit's limits.
 */
// What needs attention, on both backends with a clock the test moves: each rule raises its item when it falls
// due and not before, an item fixed meanwhile drops out, a rule set to 0 is off; /waybill attention and the
// Home tab list the person's first, the daily digest counts them; 500 items within Block Kit's limits.
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { AttentionItem } from '../../src/operations/attention.js';
import { attentionBlocks, HOME_SHOWN } from '../../src/slack/attention/blocks.js';
import { snoozeValue } from '../../src/slack/attention/item.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import {
  bookThroughModal,
  bookUnknown,
  botsPerTest,
  copyOfFirst,
  openedHome,
} from '../support/booking-flow.js';
import { fixedNow, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { started } = botsPerTest();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A clock the test moves, from fixedNow (2026-11-23 09:00 in Manila). */
function testClock() {
  let current = fixedNow.getTime();
  return { now: () => new Date(current), set: (instant: Date) => (current = instant.getTime()) };
}

/** The list's words, block after block (a section's text, a header's, a context's). */
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const wordsOf = (blocks: any[]): string =>
  blocks
    .flatMap((block) => [block.text?.text, ...(block.elements ?? []).map((e: { text?: unknown }) => e.text)])
    .filter((text): text is string => typeof text === 'string')
    .join('\n');

const attentionNow = async (bot: TestBot, user = 'UDISPATCH') =>
  wordsOf((await bot.command('/waybill', 'attention', { user_id: user })).body.blocks);

describeEachBackend(import.meta.filename, 'what needs attention', (backend) => {
  it('each rule raises its item when it falls due, not before; fixed ones drop out; yours first, the team’s with their owner', async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now });
    await bookThroughModal(bot);
    const t0 = fixedNow.getTime();
    // WB000002: picked up tomorrow at 10:00 in Manila, nothing recorded: due when the day after ends.
    await copyOfFirst(bot, 'WB000002', { pickupAt: new Date('2026-11-24T02:00:00Z') });
    for (const [tn, status] of [
      ['WB000001', 'in transit'],
      ['WB000003', 'failed not at home'],
      ['WB000004', 'delivered'],
    ] as const) {
      if (tn !== 'WB000001') await copyOfFirst(bot, tn, { pickupAt: fixedNow });
      await bot.command('/waybill', `status ${tn} ${status}`);
    }
    await bot.command('/waybill', 'assign WB000004 <@UANA>');
    await bot.idle();

    clock.set(new Date(t0 + DAY - 60_000));
    expect(await attentionNow(bot)).toContain('Nothing needs attention.');

    clock.set(new Date(t0 + DAY));
    const failed = await attentionNow(bot);
    expect(failed).toContain('Needs attention (1)');
    expect(failed).toContain(
      '*Yours (1)*\n• `WB000003`: a failed attempt 24 h ago, and nothing recorded since',
    );

    // Fixed before the next look: it drops out.
    await bot.command('/waybill', 'status WB000003 delivered');
    expect(await attentionNow(bot)).toContain('Nothing needs attention.');

    // The end of the day after the pickup date: 2026-11-26 00:00 in Manila.
    clock.set(new Date('2026-11-25T15:59:00Z'));
    expect(await attentionNow(bot)).not.toContain('WB000002');
    clock.set(new Date('2026-11-25T16:00:00Z'));
    expect(await attentionNow(bot)).toContain('• `WB000002`: no pickup recorded, 38 h after its pickup time');

    clock.set(new Date(t0 + 5 * DAY));
    expect(await attentionNow(bot)).toContain(
      '• `WB000001`: picked up or in transit 5 days ago, and not delivered',
    );

    // WB000004 is COD and no file paid it; it is UANA's: the team's for UDISPATCH, UANA's own for UANA.
    clock.set(new Date(t0 + 7 * DAY));
    const week = await attentionNow(bot);
    expect(week).toContain('Needs attention (3)');
    expect(week).toContain(
      "*The team's (1)*\n• `WB000004`: COD delivered 7 days ago, and not remitted · <@UANA>",
    );
    expect(await attentionNow(bot, 'UANA')).toContain(
      '*Yours (1)*\n• `WB000004`: COD delivered 7 days ago, and not remitted',
    );
    expect(textOf((await bot.command('/waybill', 'digest')).body.blocks)).toContain(
      '*Needs attention now (3)*: 1 not picked up · 1 in transit too long · 1 COD not remitted',
    );
    const home = await openedHome(bot);
    expect(home.indexOf('Needs attention (3)')).toBeLessThan(home.indexOf('Bookings today'));
  });

  it('each item carries the call and its buttons, on /waybill attention and the Home tab: yours with Snooze once reminded, the team’s without; none of a booking the viewer does not see', async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now });
    await bookThroughModal(bot);
    await bot.command('/waybill', 'status WB000001 failed not at home gate <locked> & dog');
    await bot.idle();
    clock.set(new Date(fixedNow.getTime() + DAY));

    const listed = await bot.command('/waybill', 'attention');
    const mine = textOf(listed.body.blocks);
    expect(mine).toContain('Maria Santos · <tel:+639171234567|0917 123 4567> · COD PHP 1,500.00');
    expect(mine).toContain('Last: *Failed attempt (not at home)*');
    expect(mine).toContain('gate &lt;locked&gt; &amp; dog');
    expect(mine).not.toContain('<locked>');
    for (const id of [ids.statusOpen, ids.ownerAssign, ids.reattemptOpen, ids.reminderReturn])
      expect(mine).toContain(`"action_id":"${id}"`);
    // Not reminded yet: nothing to snooze.
    expect(mine).not.toContain(ids.reminderSnooze);
    expectWithinSlackLimits(listed.body);

    // Reminded: its owner may snooze it from the list, as from the DM.
    await bot.deps.jobs.turn('reminders');
    await bot.idle();
    expect(textOf((await bot.command('/waybill', 'attention')).body.blocks)).toContain(
      `"action_id":"${ids.reminderSnooze}"`,
    );
    const [item] = (await bot.deps.store.reminders.of([{ rule: 'failed', key: 'WB000001' }])) ?? [];
    expect(item?.sentAt).toBeDefined();
    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('hour', { rule: 'failed', key: 'WB000001' }));
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toMatch(
      /^Snoozed: I will remind you again/,
    );

    // A teammate sees the call and may record a status or reassign it, not snooze it.
    const team = textOf((await bot.command('/waybill', 'attention', { user_id: 'UANA' })).body.blocks);
    expect(team).toContain('Maria Santos · <tel:+639171234567|0917 123 4567>');
    expect(team).toContain(`"action_id":"${ids.statusOpen}"`);
    expect(team).toContain(`"action_id":"${ids.ownerAssign}"`);
    expect(team).not.toContain(ids.reminderSnooze);

    const home = await openedHome(bot);
    expect(home).toContain('Maria Santos · <tel:+639171234567|0917 123 4567> · COD PHP 1,500.00');
    expect(home).toContain(`"action_id":"${ids.statusOpen}"`);

    // Whoever does not see the booking's conversation is shown nothing of it.
    const strict = await started({ store, now: clock.now, env: { ALLOWED_CHANNEL_IDS: 'CELSEWHERE' } });
    const hidden = textOf((await strict.command('/waybill', 'attention')).body);
    expect(hidden).not.toContain('WB000001');
    expect(hidden).not.toContain('Maria Santos');
  });

  it('a booking whose outcome is unknown: raised after ATTENTION_UNKNOWN_AFTER, for whoever made the call', async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now, timeoutMs: 500 });
    await bookUnknown(bot);
    clock.set(new Date(fixedNow.getTime() + 14 * 60_000));
    expect(await attentionNow(bot)).toContain('Nothing needs attention.');
    clock.set(new Date(fixedNow.getTime() + 15 * 60_000));
    expect(await attentionNow(bot)).toContain(
      "*Yours (1)*\n• `WB000001`: the courier call's outcome is still unknown, 15 min after it was made: Resolve it",
    );
  });

  it('failed attempts counted against COURIER_ATTEMPT_LIMIT: the attempts left said, the fewest first; the last raised at once', async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now });
    await bookThroughModal(bot);
    await copyOfFirst(bot, 'WB000002', { pickupAt: fixedNow });
    await copyOfFirst(bot, 'WB000003', { pickupAt: fixedNow });
    // A reattempt puts the parcel back in transit between two failures: each failure is an attempt.
    const attempts = { WB000001: 1, WB000002: 2, WB000003: 3 };
    for (const [tn, count] of Object.entries(attempts)) {
      for (let attempt = 1; attempt <= count; attempt++) {
        await bot.command('/waybill', `status ${tn} failed not at home`);
        if (attempt < count) await bot.command('/waybill', `status ${tn} in transit`);
      }
    }
    await bot.idle();

    const now = await attentionNow(bot);
    expect(now).toContain('Needs attention (1)');
    expect(now).toContain(
      '• `WB000003`: a failed attempt 1 min ago, and nothing recorded since · *no attempts left*: the courier returns it to the sender',
    );

    clock.set(new Date(fixedNow.getTime() + DAY));
    const day = await attentionNow(bot);
    expect(day).toContain('Needs attention (3)');
    const lines = day.split('\n').filter((line) => line.startsWith('• '));
    expect(lines.map((line) => line.slice(0, 12))).toEqual(['• `WB000003`', '• `WB000002`', '• `WB000001`']);
    expect(lines[1]).toContain('· *1 attempt left*');
    expect(lines[2]).toContain('· *2 attempts left*');

    // With a courier that tries twice, WB000002's second failure was its last.
    const twice = await started({ store, now: clock.now, env: { COURIER_ATTEMPT_LIMIT: '2' } });
    expect(await attentionNow(twice)).toContain(
      '• `WB000002`: a failed attempt 24 h ago, and nothing recorded since · *no attempts left*',
    );
  });

  it('a rule set to 0 is off', async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now, env: { ATTENTION_FAILED_AFTER: '0' } });
    await bookThroughModal(bot);
    await bot.command('/waybill', 'status WB000001 failed refused');
    clock.set(new Date(fixedNow.getTime() + 30 * DAY));
    expect(await attentionNow(bot)).toContain('Nothing needs attention.');
  });
});

it('500 items at once: the list within Block Kit’s limits, yours first, the rest summed up', () => {
  const now = new Date(fixedNow.getTime() + 10 * DAY);
  const items: AttentionItem[] = Array.from({ length: 500 }, (_, i) => ({
    rule: (['failed', 'stale', 'pickup', 'unknown', 'cod'] as const)[i % 5] ?? 'failed',
    key: `WB${String(i).padStart(6, '0')}`,
    trackingNumber: `WB${String(i).padStart(6, '0')}`,
    ownerId: i % 3 ? 'UOTHER' : 'UDISPATCH',
    since: new Date(fixedNow.getTime() - i * HOUR),
    dueAt: fixedNow,
  }));
  const viewer = { calls: new Map(), remittance: true, timeZone: 'Asia/Manila' };
  const blocks = attentionBlocks(items, 'UDISPATCH', now, viewer);
  expectWithinSlackLimits({ blocks });
  expect(blocks.length).toBeLessThanOrEqual(50);
  const text = textOf(blocks);
  expect(text).toContain('Needs attention (500)');
  expect(text).toContain('*Yours (167)*');
  expect(text).toContain('…and 142 more');
  expect(text).toContain("*The team's (333)*");
  expect(text).toContain('…and 308 more');
  // The Home tab's share of its 100 blocks.
  const home = attentionBlocks(items, 'UDISPATCH', now, viewer, { shown: HOME_SHOWN });
  expectWithinSlackLimits({ blocks: home });
  expect(home.length).toBeLessThanOrEqual(17);
  expect(textOf(home)).toContain('…and 159 more');
});
