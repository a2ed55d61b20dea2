/**
 * Reminders on both backends with a clock the test moves: a due item's one DM (`conversations.open`, its
 * metadata) with Record status, Resolve, Snooze and Assign, never again; each item with what the call needs (receiver,
 * `tel:` phone, COD, last status and note) only where its owner sees the booking; COD not remitted offering the
 * remittance import instead of Record status; Snooze through the DM and the item
 * back when it ends; Assign and Record status (the status modal submitted) from the DM; an unknown outcome's
 * Resolve (its form) from the DM; the permission and the booking's conversation checked again at the click;
 * fixed before due, nothing; due in quiet hours, sent at 08:00 in Manila with another in one DM; escalated
 * once to `ATTENTION_CHANNEL_ID` naming the owner, also when the owner cannot be sent a DM; the courier's last
 * attempt reminded at once and escalated at the next turn; a failed attempt's attempts left, Call receiver (`tel:`),
 * Reattempt (the update form pre-filled, the courier's Update once, the card changed, back in transit) and
 * Return to sender (recorded, refused without the permission or outside the booking's conversation), over HTTP and
 * Socket Mode; two replicas on one database (their turns and their claims
 * at once) sending once; a replica gone between its claim and its post (its DM found in
 * `conversations.history`, or not there and sent once; a live one's claim left alone); 500 items in one DM
 * within Block Kit's limits, escaped.
 */
// Reminders on both backends with a clock the test moves and the reminders job's turns taken by the test: a due
// item's one DM and its buttons (Snooze, Assign, Record status) through signed requests, the permission and the
// booking's conversation checked again, fix-before-due, escalation once; two replicas on one database sending once,
// and a replica gone between its claim and its post (its DM found in the conversation, or not sent).
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { FakeCall } from '../../fakes/slack-fake.js';
import type { AttentionItem } from '../../src/operations/attention.js';
import { attentionNow } from '../../src/slack/attention/index.js';
import { ownerBlockId } from '../../src/slack/booking/booking-card.js';
import { escalationMessage, reminderMessage, snoozeValue } from '../../src/slack/reminders/blocks.js';
import type { ItemCall } from '../../src/slack/reminders/calls.js';
import { ESCALATION_EVENT, REMINDER_EVENT } from '../../src/slack/reminders/send.js';
import type { BookingRecord } from '../../src/store/index.js';
import { STATUS_NOTE_MAX } from '../../src/waybill/statuses.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import { bookThroughModal, bookUnknown, botsPerTest } from '../support/booking-flow.js';
import { fixedNow, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { started } = botsPerTest();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A clock the test moves, from fixedNow (Monday 2026-11-23 09:00 in Manila). */
function testClock() {
  let current = fixedNow.getTime();
  return { now: () => new Date(current), advance: (ms: number) => (current += ms) };
}

const failed = { rule: 'failed', key: 'WB000001' } as const;

/** The reminders' DMs the bot posted (each carries its claim in its metadata). */
const reminderDms = (bot: TestBot): FakeCall[] =>
  bot.fake
    .callsTo('chat.postMessage')
    .filter((c) => (c.body.metadata as { event_type?: string } | undefined)?.event_type === REMINDER_EVENT);

async function turn(bot: TestBot): Promise<void> {
  await bot.deps.jobs.turn('reminders');
  await bot.idle();
}

/** The modal a button of a reminder DM opens for WB000001, as Slack shows it (its id and hash). */
async function openedFromDm(
  bot: TestBot,
  actionId: string,
  where: { channelId: string; messageTs?: string },
): Promise<View> {
  const before = bot.fake.callsTo('views.open').length;
  await bot.clickInMessage(actionId, 'WB000001', where);
  const opened = await bot.fake.waitFor('views.open', undefined, { count: before + 1 });
  const answer = opened.response?.body as { view: { id: string; hash: string } };
  return { ...(opened.body.view as View), id: answer.view.id, hash: answer.view.hash };
}

/** Booked by UDISPATCH, a failed attempt recorded at fixedNow: due 24 h later (Tuesday 09:00 in Manila). */
async function failedBooking(bot: TestBot): Promise<void> {
  await bookThroughModal(bot);
  await bot.command('/waybill', 'status WB000001 failed not at home');
  await bot.idle();
}

describeEachBackend(import.meta.filename, 'reminders of what needs attention', (backend) => {
  /** A bot on a clock the test moves, on this test's store, with WB000001 booked by UDISPATCH and `status` recorded at fixedNow. */
  async function recordedOnClock(
    status: string,
    options: { env?: Record<string, string>; socketMode?: boolean } = {},
  ) {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now, ...options });
    await bookThroughModal(bot);
    await bot.command('/waybill', `status WB000001 ${status}`);
    await bot.idle();
    return { clock, store, bot };
  }

  /** As recordedOnClock, the status UDISPATCH's failed attempt. */
  const failedOnClock = (options: { env?: Record<string, string>; socketMode?: boolean } = {}) =>
    recordedOnClock('failed not at home', options);

  it('a due item: one DM with its buttons, never again; Snooze puts it off, then it comes back; Assign and Record status from the DM', async () => {
    const { clock, store, bot } = await failedOnClock();

    clock.advance(DAY - MINUTE);
    await turn(bot);
    expect(reminderDms(bot)).toEqual([]);

    clock.advance(MINUTE);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const channel = String(dm?.body.channel);
    expect(channel).toMatch(/^D/);
    expect(bot.fake.callsTo('conversations.open').at(-1)?.body.users).toBe('UDISPATCH');
    expect(dm?.body.text).toBe('1 booking needs your attention.');
    const blocks = textOf(dm?.body.blocks);
    expect(blocks).toContain('• `WB000001`: a failed attempt 24 h ago, and nothing recorded since');
    expect(blocks).toContain(`"action_id":"${ids.statusOpen}"`);
    expect(blocks).toContain(`"action_id":"${ids.reminderSnooze}"`);
    expect(blocks).toContain(`"action_id":"${ids.ownerAssign}"`);
    expect(blocks).toContain(`"block_id":"${ownerBlockId('WB000001')}"`);
    expect(dm?.body.metadata).toMatchObject({ event_payload: { rule: 'failed', key: 'WB000001', count: 1 } });
    expectWithinSlackLimits(dm?.body);

    // Every later turn, on any clock: nothing more.
    clock.advance(HOUR);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(1);

    // Snooze for an hour, from the DM: told when; not sent again before then, sent again at it.
    const ts = String((dm?.response?.body as { ts?: string } | undefined)?.ts);
    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('hour', failed), {
      channelId: channel,
      messageTs: ts,
    });
    // Where Slack cannot show the date in the reader's zone, the fallback is in the team's (Manila), not UTC.
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toMatch(
      /^Snoozed: I will remind you again <!date\^\d+\^[^|]*\|2026-11-24 11:00 \(Asia\/Manila\)>/,
    );
    clock.advance(HOUR - MINUTE);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(1);
    clock.advance(MINUTE);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);

    // Assign from the DM: the owners' people picker, the booking handed over.
    await bot.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), 'UANA', {
      channelId: channel,
      messageTs: ts,
    });
    expect(
      (await bot.fake.waitFor('response_url', (c) => String(c.body.text).includes('now'))).body.text,
    ).toBe("`WB000001` is now <@UANA>'s (it was <@UDISPATCH>'s).");
    await bot.idle();
    expect((await store.bookings.get('WB000001'))?.ownerId).toBe('UANA');

    // Record status from the DM: the status feature's own modal; once recorded, the item is over.
    const before = bot.fake.callsTo('views.open').length;
    await bot.clickInMessage(ids.statusOpen, 'WB000001', { channelId: channel, messageTs: ts, user: 'UANA' });
    const opened = await bot.fake.waitFor('views.open', undefined, { count: before + 1 });
    const answer = opened.response?.body as { view: { id: string; hash: string } };
    const modal = { ...(opened.body.view as View), id: answer.view.id, hash: answer.view.hash };
    expect(modal.callback_id).toBe(ids.statusForm);
    expect(textOf((await bot.submit(modal, { status: 'delivered' }, 'UANA')).body.view)).toContain(
      'Recorded for `WB000001`',
    );
    await bot.idle();
    clock.advance(3 * DAY);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);
  });

  it("a failed attempt's reminder: the attempts left, Call receiver, Reattempt (the update form pre-filled, the courier's Update once, the card changed) and Return to sender", async () => {
    const { clock, store, bot } = await failedOnClock();
    clock.advance(DAY);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const channel = String(dm?.body.channel);
    const messageTs = String((dm?.response?.body as { ts?: string } | undefined)?.ts);
    const blocks = textOf(dm?.body.blocks);
    expect(blocks).toContain('and nothing recorded since · *2 attempts left*');
    expect(blocks).toContain(':telephone_receiver: <tel:+639171234567|Call receiver>');
    const buttons = JSON.parse(blocks)
      .flatMap((b: { elements?: { action_id?: string; value?: string }[] }) => b.elements ?? [])
      .map((e: { action_id?: string; value?: string }) => [e.action_id, e.value]);
    expect(buttons).toEqual(
      expect.arrayContaining([
        [ids.reattemptOpen, 'WB000001'],
        [ids.reminderReturn, 'WB000001'],
        [ids.statusOpen, 'WB000001'],
      ]),
    );
    expectWithinSlackLimits(dm?.body);

    // Reattempt: the update form with the record as stored, saying what to correct.
    const form = await openedFromDm(bot, ids.reattemptOpen, { channelId: channel, messageTs });
    expect(form.callback_id).toBe(ids.updateForm);
    expect(textOf(form.blocks)).toContain('*Reattempt*');
    const initial = (path: string) => form.blocks.find((b) => b.block_id?.split('#')[0] === path)?.element;
    expect(initial('consignee.phone').initial_value).toBe('0917 123 4567');
    expectWithinSlackLimits(form);

    // Sent: the courier's Update once, with the corrected phone; the card shows it, back in transit.
    await bot.submit(form, { 'consignee.phone': '0918 765 4321' });
    await bot.idle();
    const updates = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.body).toMatchObject({ consigneeContact: '0918 765 4321' });
    const card = await store.bookings.get('WB000001');
    expect(card?.record).toMatchObject({ consignee: { phone: '0918 765 4321' } });
    const lastCard = bot.fake
      .callsTo('chat.update')
      .filter((c) => c.body.ts === card?.cardTs)
      .at(-1);
    expect(textOf(lastCard?.body.blocks)).toContain('0918 765 4321');
    expect(textOf(lastCard?.body.blocks)).toContain('In transit');
    expect(await store.statuses.latest('WB000001')).toMatchObject({
      status: 'in_transit',
      userId: 'UDISPATCH',
    });
    expect(textOf(bot.fake.callsTo('views.update').at(-1)?.body.view)).toContain('Recorded for `WB000001`');

    // Its next failure is another attempt: reminded with one left, and returned from that reminder.
    await bot.command('/waybill', 'status WB000001 failed not at home');
    await bot.idle();
    clock.advance(DAY);
    await turn(bot);
    const again = reminderDms(bot)[1];
    expect(textOf(again?.body.blocks)).toContain('*1 attempt left*');
    await bot.clickInMessage(ids.reminderReturn, 'WB000001', {
      channelId: String(again?.body.channel),
      messageTs: String((again?.response?.body as { ts?: string } | undefined)?.ts),
    });
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toContain(
      'Recorded for `WB000001` (Maria Santos): *Returned to sender*',
    );
    await bot.idle();
    expect(await store.statuses.latest('WB000001')).toMatchObject({
      status: 'returned',
      userId: 'UDISPATCH',
    });
    const thread = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === card?.cardTs);
    expect(thread.map((c) => c.body.text)).toEqual(
      expect.arrayContaining([
        ':memo: `WB000001` In transit, recorded by <@UDISPATCH>: Reattempt, with the update sent to the courier',
      ]),
    );
    expect(thread.at(-1)?.body.text).toBe(':memo: `WB000001` Returned to sender, recorded by <@UDISPATCH>');
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    clock.advance(DAY);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);
  });

  it('a Reattempt sent after the parcel was delivered meanwhile: the courier gets the update, and it stays delivered', async () => {
    const { clock, store, bot } = await failedOnClock();
    clock.advance(DAY);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const form = await openedFromDm(bot, ids.reattemptOpen, { channelId: String(dm?.body.channel) });
    await bot.command('/waybill', 'status WB000001 delivered');
    await bot.submit(form, { 'consignee.phone': '0918 765 4321' });
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await store.statuses.history('WB000001')).map((entry) => entry.status)).toEqual([
      'failed_attempt',
      'delivered',
    ]);
  });

  it('over Socket Mode: Reattempt sends the Update once, Return to sender records the status', async () => {
    const { clock, store, bot } = await failedOnClock({ socketMode: true });
    clock.advance(DAY);
    await turn(bot);
    const channelId = String(reminderDms(bot)[0]?.body.channel);
    const form = await openedFromDm(bot, ids.reattemptOpen, { channelId });
    await bot.submit(form, { 'consignee.phone': '0918 765 4321' });
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await store.bookings.get('WB000001'))?.record).toMatchObject({
      consignee: { phone: '0918 765 4321' },
    });
    await bot.clickInMessage(ids.reminderReturn, 'WB000001', { channelId });
    // The envelope is acknowledged before the click is worked: its answer says when it is done.
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toContain('*Returned to sender*');
    await bot.idle();
    expect((await store.statuses.history('WB000001')).map((entry) => entry.status)).toEqual([
      'failed_attempt',
      'in_transit',
      'returned',
    ]);
  });

  it("each item carries the call: the receiver, their phone as a tel: link, the COD, the last status's reason and note, escaped", async () => {
    const { clock, bot } = await recordedOnClock('failed not at home gate <locked> & dog');
    clock.advance(DAY);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const [line] = JSON.parse(textOf(dm?.body.blocks))
      .map((b: { text?: { text?: string } }) => b.text?.text ?? '')
      .filter((t: string) => t.includes('WB000001'));
    expect(line).toContain('Maria Santos · <tel:+639171234567|0917 123 4567> · COD PHP 1,500.00');
    expect(line).toContain('Last: *Failed attempt (not at home)*');
    expect(line).toContain('gate &lt;locked&gt; &amp; dog');
    expect(line).not.toContain('<locked>');
    expectWithinSlackLimits(dm?.body);
  });

  it("where the owner's scope does not see the booking (its conversation not listed), the DM names only its number", async () => {
    const { clock, store } = await failedOnClock();
    const strict = await started({ store, now: clock.now, env: { ALLOWED_CHANNEL_IDS: 'CELSEWHERE' } });
    clock.advance(DAY);
    await turn(strict);
    const [dm] = reminderDms(strict);
    const blocks = textOf(dm?.body.blocks);
    expect(blocks).toContain('• `WB000001`: a failed attempt 24 h ago, and nothing recorded since');
    expect(blocks).not.toContain('Maria Santos');
    expect(blocks).not.toContain('0917');
    expect(blocks).not.toContain('1,500.00');
  });

  it('COD delivered and not remitted: the DM offers COD remittance, which opens the import, instead of Record status; not to someone who may not import', async () => {
    const { clock, store, bot } = await recordedOnClock('delivered');
    clock.advance(7 * DAY);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const blocks = textOf(dm?.body.blocks);
    expect(blocks).toContain('COD delivered 7 days ago, and not remitted');
    expect(blocks).toContain('Maria Santos · <tel:+639171234567|0917 123 4567> · COD PHP 1,500.00');
    expect(blocks).toContain(`"action_id":"${ids.remittanceOpen}"`);
    expect(blocks).not.toContain(ids.statusOpen);
    expect(blocks).toContain(`"action_id":"${ids.reminderSnooze}"`);
    expect(blocks).toContain(`"action_id":"${ids.ownerAssign}"`);
    const before = bot.fake.callsTo('views.open').length;
    await bot.clickInMessage(ids.remittanceOpen, 'WB000001', { channelId: String(dm?.body.channel) });
    const opened = await bot.fake.waitFor('views.open', undefined, { count: before + 1 });
    expect((opened.body.view as View).callback_id).toBe(ids.remittanceImport);

    // Finance alone may import remittances: the dispatcher's DM offers no button they would be refused.
    const financeOnly = await started({ store, now: clock.now, env: { ALLOWED_FINANCE_USER_IDS: 'UFIN' } });
    await store.reminders.snooze({ rule: 'cod', key: 'WB000001' }, clock.now());
    clock.advance(HOUR);
    await turn(financeOnly);
    const [again] = reminderDms(financeOnly);
    expect(textOf(again?.body.blocks)).toContain('COD delivered');
    expect(textOf(again?.body.blocks)).not.toContain(ids.remittanceOpen);
    expect(textOf(again?.body.blocks)).not.toContain(ids.statusOpen);
  });

  it("an unknown outcome: its caller's DM has Resolve, which opens the Resolve form", async () => {
    const clock = testClock();
    const store = await backend.open({ now: clock.now });
    const bot = await started({ store, now: clock.now, timeoutMs: 500 });
    await bookUnknown(bot);
    clock.advance(15 * MINUTE);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const resolve = JSON.parse(textOf(dm?.body.blocks))
      .flatMap((b: { elements?: { action_id?: string; value?: string }[] }) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ids.resolveOpen);
    expect(resolve?.value).toMatch(/^book:/);
    expect(textOf(dm?.body.blocks)).not.toContain(ids.ownerAssign);
    const before = bot.fake.callsTo('views.open').length;
    await bot.clickInMessage(ids.resolveOpen, resolve.value, { channelId: String(dm?.body.channel) });
    const opened = await bot.fake.waitFor('views.open', undefined, { count: before + 1 });
    expect((opened.body.view as View).callback_id).toBe(ids.resolveForm);
  });

  it('fixed before it falls due: nothing is sent', async () => {
    const { clock, bot } = await failedOnClock();
    clock.advance(DAY - HOUR);
    await bot.command('/waybill', 'status WB000001 delivered');
    clock.advance(2 * HOUR);
    await turn(bot);
    expect(reminderDms(bot)).toEqual([]);
  });

  it('falling due in quiet hours, it waits for 08:00 in Manila; two at once are one DM', async () => {
    const { clock, store, bot } = await failedOnClock({ env: { ATTENTION_FAILED_AFTER: '12h' } });
    const first = (await store.bookings.get('WB000001')) as BookingRecord<Record<string, unknown>>;
    await store.bookings.insert({ ...first, trackingNumber: 'WB000002', record: { ...first.record } });
    await bot.command('/waybill', 'status WB000002 failed refused');
    await bot.idle();
    // Due at 21:00 on Monday: quiet until Tuesday 08:00.
    clock.advance(12 * HOUR);
    await turn(bot);
    clock.advance(11 * HOUR - MINUTE);
    await turn(bot);
    expect(reminderDms(bot)).toEqual([]);
    clock.advance(MINUTE);
    await turn(bot);
    const dms = reminderDms(bot);
    expect(dms.map((c) => c.body.text)).toEqual(['2 bookings need your attention.']);
    expect(textOf(dms[0]?.body.blocks)).toContain('WB000002');
  });

  it('still open 24 h after its reminder: posted once to ATTENTION_CHANNEL_ID, naming the owner', async () => {
    const { clock, bot } = await failedOnClock({ env: { ATTENTION_CHANNEL_ID: 'CESCALATE' } });
    clock.advance(DAY);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(1);
    const escalations = () =>
      bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CESCALATE');
    clock.advance(DAY - MINUTE);
    await turn(bot);
    expect(escalations()).toEqual([]);
    clock.advance(MINUTE);
    await turn(bot);
    clock.advance(HOUR);
    await turn(bot);
    expect(escalations().map((c) => c.body.text)).toEqual([
      '1 booking still needs attention after a reminder.',
    ]);
    expect(textOf(escalations()[0]?.body.blocks)).toContain(
      '• `WB000001`: a failed attempt 2 days ago, and nothing recorded since · *2 attempts left* · <@UDISPATCH>',
    );
    expect(reminderDms(bot)).toHaveLength(1);
  });

  it("the courier's last attempt failed: reminded at once, even within the batch, and escalated at the next turn", async () => {
    const { clock, bot } = await failedOnClock({
      env: { ATTENTION_CHANNEL_ID: 'CESCALATE', COURIER_ATTEMPT_LIMIT: '2' },
    });
    const escalations = () =>
      bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CESCALATE');
    // The first failure reminded a day later, the second (the last) a minute after it was recorded.
    clock.advance(DAY);
    await turn(bot);
    expect(textOf(reminderDms(bot)[0]?.body.blocks)).toContain('*1 attempt left*');
    await bot.command('/waybill', 'status WB000001 in transit');
    await bot.command('/waybill', 'status WB000001 failed refused');
    await bot.idle();
    clock.advance(MINUTE);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);
    expect(textOf(reminderDms(bot)[1]?.body.blocks)).toContain(
      '• `WB000001`: a failed attempt 1 min ago, and nothing recorded since · *no attempts left*: the courier returns it to the sender',
    );
    expect(escalations()).toEqual([]);
    clock.advance(MINUTE);
    await turn(bot);
    await turn(bot);
    expect(escalations().map((c) => c.body.text)).toEqual([
      '1 booking still needs attention after a reminder.',
    ]);
    expect(textOf(escalations()[0]?.body.blocks)).toContain('*no attempts left*');
    expect(textOf(escalations()[0]?.body.blocks)).toContain('<@UDISPATCH>');
  });

  it('an owner who cannot be sent a DM (a bot, gone, another organisation): tried once, then escalated as a reminded item is', async () => {
    const { clock, bot } = await failedOnClock({ env: { ATTENTION_CHANNEL_ID: 'CESCALATE' } });
    bot.fake.respond('conversations.open', { ok: false, error: 'cannot_dm_bot' });
    const escalations = () =>
      bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CESCALATE');
    clock.advance(DAY);
    await turn(bot);
    for (let i = 0; i < 3; i++) {
      clock.advance(MINUTE);
      await turn(bot);
    }
    expect(bot.fake.callsTo('conversations.open')).toHaveLength(1);
    expect(reminderDms(bot)).toEqual([]);
    expect(escalations()).toEqual([]);
    clock.advance(DAY);
    await turn(bot);
    expect(escalations()).toHaveLength(1);
    expect(textOf(escalations()[0]?.body.blocks)).toContain('`WB000001`');
    expect(textOf(escalations()[0]?.body.blocks)).toContain('<@UDISPATCH>');
  });

  it('handed over from its reminder: the new owner is reminded, and the escalation counts from that reminder and names them', async () => {
    const { clock, bot } = await failedOnClock({ env: { ATTENTION_CHANNEL_ID: 'CESCALATE' } });
    clock.advance(DAY);
    await turn(bot);
    const [dm] = reminderDms(bot);
    const escalations = () =>
      bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CESCALATE');
    // 23 hours later UDISPATCH hands it to UANA from the reminder.
    clock.advance(DAY - HOUR);
    await bot.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), 'UANA', {
      channelId: String(dm?.body.channel),
      messageTs: String((dm?.response?.body as { ts?: string } | undefined)?.ts),
    });
    await bot.idle();
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);
    expect(bot.fake.callsTo('conversations.open').at(-1)?.body.users).toBe('UANA');
    // 24 h after UDISPATCH's reminder: UANA was reminded an hour ago, nothing is escalated.
    clock.advance(HOUR);
    await turn(bot);
    expect(escalations()).toEqual([]);
    // 24 h after UANA's reminder: escalated once, naming UANA.
    clock.advance(DAY - HOUR);
    await turn(bot);
    expect(escalations()).toHaveLength(1);
    expect(textOf(escalations()[0]?.body.blocks)).toContain('<@UANA>');
    expect(textOf(escalations()[0]?.body.blocks)).not.toContain('<@UDISPATCH>');
  });

  it('an escalation whose replica is gone between its claim and its post: found in the channel, not posted again; not found, posted once', async () => {
    const { clock, store, bot } = await failedOnClock({ env: { ATTENTION_CHANNEL_ID: 'CESCALATE' } });
    clock.advance(DAY);
    await turn(bot);
    clock.advance(DAY);
    const [item] = (await attentionNow(bot.deps)) as [AttentionItem];
    const escalations = () =>
      bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CESCALATE');

    // The replica claims the escalation and stops before it records it: its lease is released with the store.
    const claimOnGone = async (batch: string) => {
      const gone = await backend.open({ now: clock.now, replicaId: 'replica-gone' });
      const [row] = await gone.reminders.of([item]);
      expect(await gone.reminders.claimEscalation({ ...item, version: row?.version ?? 0 }, batch)).toBe(true);
      await gone.close();
    };

    // Gone after posting: its escalation, with its claim, is in the channel; found, recorded, not posted again.
    await claimOnGone('batch-posted');
    await bot.app.client.chat.postMessage({
      channel: 'CESCALATE',
      ...escalationMessage([item], clock.now()),
      metadata: { event_type: ESCALATION_EVENT, event_payload: { batch: 'batch-posted', count: 1 } },
    });
    await turn(bot);
    await turn(bot);
    expect(escalations()).toHaveLength(1);
    expect((await store.reminders.of([item]))[0]?.escalationBy).toBeUndefined();

    // Gone before posting, nothing in the channel: posted once, with its claim in the metadata.
    await store.reminders.releaseEscalation(item);
    await claimOnGone('batch-lost');
    await turn(bot);
    await turn(bot);
    expect(escalations()).toHaveLength(2);
    expect(escalations()[1]?.body.metadata).toMatchObject({ event_type: ESCALATION_EVENT });
    expect((await store.reminders.of([item]))[0]).toMatchObject({ escalatedAt: expect.any(Date) });
    expect((await store.reminders.of([item]))[0]?.escalationBy).toBeUndefined();
  });

  it('claim rows of items no longer open are deleted 30 days after their last reminder; an open item keeps its row', async () => {
    const { clock, store, bot } = await failedOnClock();
    clock.advance(DAY);
    await turn(bot);
    const [open] = (await attentionNow(bot.deps)) as [AttentionItem];
    // An item the rules no longer return (its booking fixed, say), reminded at the same moment.
    const closed = { rule: 'stale', key: 'WB000009', since: open.since };
    expect(
      await store.reminders.claim({
        ownerId: 'UANA',
        lastDmAt: undefined,
        items: [{ ...closed, version: 0 }],
      }),
    ).toBeTruthy();
    const purge = async () => {
      await bot.deps.jobs.turn('reminders purge');
      return (await store.reminders.of([open, closed])).map((row) => row.key).sort();
    };
    clock.advance(30 * DAY);
    expect(await purge()).toEqual(['WB000001', 'WB000009']);
    clock.advance(MINUTE);
    expect(await purge()).toEqual(['WB000001']);
    clock.advance(60 * DAY);
    expect(await purge()).toEqual(['WB000001']);
  });

  it("the DM's Snooze and Assign check the clicker's permission again, and the booking's own conversation", async () => {
    const env = { ALLOWED_USER_IDS: 'UDISPATCH,UANA' };
    const { clock, store, bot } = await failedOnClock({ env });
    clock.advance(DAY);
    await turn(bot);
    const channel = String(reminderDms(bot)[0]?.body.channel);

    // Someone not allowed to update waybills: refused, nothing snoozed or handed over.
    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('days', failed), {
      channelId: channel,
      user: 'UEVE',
    });
    await bot.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), 'UEVE', {
      channelId: channel,
      user: 'UEVE',
    });
    await bot.clickInMessage(ids.reminderReturn, 'WB000001', { channelId: channel, user: 'UEVE' });
    await bot.idle();
    const refusals = bot.fake.callsTo('chat.postEphemeral').filter((c) => c.body.user === 'UEVE');
    expect(refusals.map((c) => c.body.text)).toEqual([
      expect.stringContaining('not on the list of people who may update waybills'),
      expect.stringContaining('not on the list of people who may update waybills'),
      expect.stringContaining('not on the list of people who may update waybills'),
    ]);
    expect((await store.statuses.latest('WB000001'))?.status).toBe('failed_attempt');
    expect((await store.bookings.get('WB000001'))?.ownerId).toBe('UDISPATCH');
    expect((await store.reminders.of([failed]))[0]?.snoozedUntil).toBeUndefined();

    // The booking's conversation decides, not the DM (never a listed channel): CDISPATCH, where
    // WB000001 was booked, not listed here.
    const strict = await started({
      store,
      now: clock.now,
      env: { ...env, ALLOWED_CHANNEL_IDS: 'CELSEWHERE' },
    });
    await strict.selectInMessage(ids.reminderSnooze, snoozeValue('days', failed), { channelId: channel });
    expect(String((await strict.fake.waitFor('response_url')).body.text)).toBe(
      'I have no record of waybill `WB000001` in a conversation where you may update waybills: check the number, or ask in the conversation it was booked in.',
    );
    await strict.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), 'UANA', { channelId: channel });
    expect(String((await strict.fake.waitFor('response_url', undefined, { count: 2 })).body.text)).toContain(
      'in a conversation where you may update waybills',
    );
    await strict.clickInMessage(ids.reminderReturn, 'WB000001', { channelId: channel });
    expect(String((await strict.fake.waitFor('response_url', undefined, { count: 3 })).body.text)).toContain(
      'in a conversation where you may update waybills',
    );
    await strict.idle();
    expect((await store.statuses.latest('WB000001'))?.status).toBe('failed_attempt');
    expect((await store.bookings.get('WB000001'))?.ownerId).toBe('UDISPATCH');
    expect((await store.reminders.of([failed]))[0]?.snoozedUntil).toBeUndefined();
  });

  it("only a reminder's owner may snooze it: another dispatcher's (forged) Snooze is refused, and it still escalates", async () => {
    const { clock, store, bot } = await failedOnClock({ env: { ALLOWED_USER_IDS: 'UDISPATCH,UANA' } });
    clock.advance(DAY);
    await turn(bot);
    const channel = String(reminderDms(bot)[0]?.body.channel);
    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('days', failed), {
      channelId: channel,
      user: 'UANA',
    });
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toBe(
      'Only <@UDISPATCH>, whose reminder it is, can snooze it; to take it over, assign it to yourself.',
    );
    expect((await store.reminders.of([failed]))[0]?.snoozedUntil).toBeUndefined();
    // The owner's own Snooze still works.
    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('days', failed), { channelId: channel });
    await bot.idle();
    expect((await store.reminders.of([failed]))[0]?.snoozedUntil).toBeDefined();
  });

  it("with ALLOWED_CHANNEL_IDS listing the booking's channel, the DM's Snooze, Assign, Reattempt and Record status work from the DM", async () => {
    const { clock, store, bot } = await failedOnClock({ env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    clock.advance(DAY);
    await turn(bot);
    const channel = String(reminderDms(bot)[0]?.body.channel);
    expect(channel).toMatch(/^D/);

    await bot.selectInMessage(ids.reminderSnooze, snoozeValue('hour', failed), { channelId: channel });
    expect(String((await bot.fake.waitFor('response_url')).body.text)).toMatch(/^Snoozed: /);
    await bot.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), 'UANA', { channelId: channel });
    expect((await bot.fake.waitFor('response_url', undefined, { count: 2 })).body.text).toBe(
      "`WB000001` is now <@UANA>'s (it was <@UDISPATCH>'s).",
    );
    const openedBy = (actionId: string) => openedFromDm(bot, actionId, { channelId: channel });
    await bot.submit(await openedBy(ids.reattemptOpen), { 'consignee.phone': '0918 765 4321' });
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await store.statuses.latest('WB000001'))?.status).toBe('in_transit');
    expect(
      textOf((await bot.submit(await openedBy(ids.statusOpen), { status: 'delivered' })).body.view),
    ).toContain('Recorded for `WB000001`');
    await bot.idle();
    expect(bot.fake.callsTo('chat.postEphemeral').map((c) => c.body.text)).toEqual([]);
    expect((await store.statuses.latest('WB000001'))?.status).toBe('delivered');

    // A command typed in the DM still starts nothing there.
    expect(String((await bot.command('/book', '', { channel_id: channel })).body.text)).toContain(
      'not enabled in this conversation',
    );
  });

  it('two replicas on one database taking their turns at once: one DM', async () => {
    const clock = testClock();
    const storeA = await backend.open({ now: clock.now, replicaId: 'replica-a' });
    const storeB = await backend.open({ now: clock.now, replicaId: 'replica-b' });
    const a = await started({ store: storeA, now: clock.now });
    const b = await started({ store: storeB, now: clock.now });
    await failedBooking(a);
    clock.advance(DAY);
    await Promise.all([turn(a), turn(b), turn(a), turn(b)]);
    await Promise.all([turn(a), turn(b)]);
    expect(reminderDms(a).length + reminderDms(b).length).toBe(1);

    // The database decides between replicas that read the same: claims made at once on what both read, one
    // wins; a person's DM too, whatever items each would put in it.
    clock.advance(DAY);
    const [item] = (await attentionNow(a.deps)) as [AttentionItem];
    const [row] = await storeA.reminders.of([item]);
    const claim = { ...item, version: row?.version ?? 0 };
    const other = { rule: 'stale', key: 'WB000009', since: item.since, version: 0 };
    const claims = await Promise.all([
      storeA.reminders.claim({ ownerId: 'UDISPATCH', lastDmAt: row?.claimedAt, items: [claim] }),
      storeB.reminders.claim({ ownerId: 'UDISPATCH', lastDmAt: row?.claimedAt, items: [claim] }),
      storeB.reminders.claim({ ownerId: 'UDISPATCH', lastDmAt: row?.claimedAt, items: [other] }),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('a replica gone between its claim and its post: its DM found in the conversation is not sent again; not found, it is sent once', async () => {
    const { clock, store, bot } = await failedOnClock();
    clock.advance(DAY);
    const [item] = (await attentionNow(bot.deps)) as [AttentionItem];

    // The replica claims it and stops before it posts: its lease is released with the store.
    const claimOnGone = async () => {
      const gone = await backend.open({ now: clock.now, replicaId: 'replica-gone' });
      const [row] = await gone.reminders.of([item]);
      const batch = await gone.reminders.claim({
        ownerId: 'UDISPATCH',
        lastDmAt: row?.claimedAt,
        items: [{ ...item, version: row?.version ?? 0 }],
      });
      await gone.close();
      return batch ?? '';
    };

    // Alive, its claim is left alone.
    const alive = await backend.open({ now: clock.now, replicaId: 'replica-alive' });
    expect(
      await alive.reminders.claim({
        ownerId: 'UDISPATCH',
        lastDmAt: undefined,
        items: [{ ...item, version: 0 }],
      }),
    ).toBeTruthy();
    await turn(bot);
    expect(reminderDms(bot)).toEqual([]);
    await alive.close();

    // Gone after posting: the DM with its claim is in the conversation; found, recorded, not sent again.
    const batch = await claimOnGone();
    const { channel } = await bot.app.client.conversations.open({ users: 'UDISPATCH' });
    const posted = await bot.app.client.chat.postMessage({
      channel: channel?.id ?? '',
      ...reminderMessage([item], clock.now(), {
        calls: new Map(),
        remittance: false,
        timeZone: 'Asia/Manila',
      }),
      metadata: {
        event_type: REMINDER_EVENT,
        event_payload: { batch, rule: item.rule, key: item.key, count: 1 },
      },
    });
    clock.advance(20 * MINUTE);
    await turn(bot);
    expect(bot.fake.callsTo('conversations.history').at(-1)?.body).toMatchObject({
      include_all_metadata: 'true',
    });
    expect(reminderDms(bot)).toHaveLength(1);
    expect(await store.reminders.of([item])).toMatchObject([{ dmTs: posted.ts, sentAt: clock.now() }]);

    // Snoozed and due again, the next claim's replica is gone before posting and nothing is in the conversation: sent once.
    await store.reminders.snooze(item, clock.now());
    await claimOnGone();
    clock.advance(20 * MINUTE);
    await turn(bot);
    await turn(bot);
    expect(reminderDms(bot)).toHaveLength(2);
  });
});

it('500 items due for one person: one DM within Block Kit’s limits, the rest counted', () => {
  const items: AttentionItem[] = Array.from({ length: 500 }, (_, i) => ({
    rule: (['failed', 'stale', 'pickup', 'unknown', 'cod'] as const)[i % 5] ?? 'failed',
    key: `WB${String(i).padStart(6, '0')}`,
    trackingNumber: `WB${String(i).padStart(6, '0')}<&>`,
    ownerId: 'UDISPATCH',
    since: new Date(fixedNow.getTime() - i * HOUR),
    dueAt: fixedNow,
  }));
  // Each with the longest call a booking can carry: a long receiver, a note of STATUS_NOTE_MAX, a phone that cannot be dialled.
  const calls = new Map(
    items.map((item): [string, ItemCall] => [
      item.trackingNumber ?? '',
      {
        receiver: `Receiver <&> ${'x'.repeat(200)}`,
        phone: '0917 123',
        country: 'PH',
        cod: 'PHP 999,999.99',
        status: {
          trackingNumber: item.key,
          seq: 1,
          status: 'failed_attempt',
          reason: 'refused',
          note: '<&>'.repeat(STATUS_NOTE_MAX / 3),
          userId: 'UDISPATCH',
          at: fixedNow,
        },
      },
    ]),
  );
  const message = reminderMessage(items, new Date(fixedNow.getTime() + DAY), {
    calls,
    remittance: true,
    timeZone: 'Asia/Manila',
  });
  expectWithinSlackLimits(message);
  expect(message.text).toBe('500 bookings need your attention.');
  const text = textOf(message.blocks);
  expect(text).toContain('…and 480 more: `/waybill attention` lists them all.');
  expect(text).toContain('WB000000&lt;&amp;&gt;');
  // The escalation of as many: one section of 15 lines, with their owners, escaped.
  const escalated = escalationMessage(items, new Date(fixedNow.getTime() + 2 * DAY));
  expectWithinSlackLimits(escalated);
  expect(textOf(escalated.blocks)).toContain('…and 485 more: `/waybill attention` lists them all.');
  expect(textOf(escalated.blocks)).toContain(
    '`WB000014&lt;&amp;&gt;`: COD delivered 2 days ago, and not remitted · <@UDISPATCH>',
  );
  expect(text).toContain('Receiver &lt;&amp;&gt; x');
  // A phone that cannot be dialled is shown, never offered as a link.
  expect(text).toContain(' · 0917 123 · COD PHP 999,999.99');
  expect(text).not.toContain('tel:');
  // Only the button's value and the block's id hold it as typed: they are never shown.
  expect(text).not.toContain('`WB000000<&>`');
});
