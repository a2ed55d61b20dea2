/**
 * Unknown bookings resolved on both backends: the courier has it (booked with the reference typed, its card,
 * labels, the audit naming who decided, a second Resolve told) or not (claim freed, Send again books it once,
 * double-clicked), Resolve submitted at the same moment on two replicas (the first answer counts once, the
 * other told under the field), access refused. Unknown updates resolved both ways are in update.e2e.test.ts.
 */
// Unknown booking outcomes resolved by hand, through signed Slack requests, on both backends: the
// courier has it (the booking recorded, its card, its labels) or does not (Send again, once).
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { describeEachBackend, type TestBackend } from '../store/backends.js';
import { bookThroughModal, fillToReview } from '../support/booking-flow.js';
import { renderPoolPerFile, secrets, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;
// Labels are made by one worker for the whole file: no test here is about the pool.
const render = renderPoolPerFile();
afterEach(async () => {
  await bot.stop();
  const leaked = bot.logs.filter((line) => Object.values(secrets).some((secret) => line.includes(secret)));
  expect(leaked).toEqual([]);
});

/** A booking of WB000001 whose answer the courier never gave: the modal says its outcome is unknown. */
async function unknownBooking(
  backend: TestBackend | undefined,
  { env = {}, courierHasIt = true }: { env?: Record<string, string>; courierHasIt?: boolean } = {},
) {
  bot = await startTestBot({ timeoutMs: 500, env, render: render(), ...(backend ? { backend } : {}) });
  return unknownOn(courierHasIt);
}

/** On the bot started, another booking whose answer the courier never gave. */
async function unknownOn(courierHasIt = true) {
  const review = await fillToReview(bot);
  // The connection cut after the courier booked it, or before: the bot cannot tell which.
  bot.sandbox.injectNext(courierHasIt ? { dropAfterProcessing: true } : { drop: true });
  await bot.submit(review);
  await bot.idle();
  const unknown = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('outcome unknown'));
  const button = unknown.blocks
    .flatMap((b) => b.elements ?? [])
    .find((e: { action_id?: string }) => e.action_id === ids.resolveOpen);
  expect(button?.text.text).toBe('Resolve');
  return { unknown, key: String(button?.value) };
}

/** Resolve, in the outcome modal: the form takes its place. */
async function openResolve(unknown: View, key: string, user = 'UDISPATCH'): Promise<View> {
  await bot.clickInView(unknown, ids.resolveOpen, key, {}, user);
  return bot.updatedView(unknown.id, (v) => v.callback_id === ids.resolveForm);
}

const bookCalls = () => bot.sandbox.received.filter((r) => r.operation === 'book');

describeEachBackend(import.meta.filename, 'resolving an unknown booking', (backend) => {
  it('"The courier has it": recorded as booked with the reference typed, its card posted, labels possible, who decided audited; once', async () => {
    const { unknown, key } = await unknownBooking(backend);
    const form = await openResolve(unknown, key);
    expect(form.title).toMatchObject({ text: 'Resolve' });
    const ack = await bot.submit(form, { verdict: 'booked', reference: 'REF<&>9' });
    expect(ack.body.response_action).toBe('update');
    expect(textOf(ack.body.view)).toContain('Booked `WB000001`');
    expect(textOf(ack.body.view)).toContain('REF&lt;&amp;&gt;9');
    await bot.idle();

    const stored = await bot.deps.store.bookings.get('WB000001');
    expect(stored).toMatchObject({ trackingRefNo: 'REF<&>9', bookedBy: 'UDISPATCH' });
    const card = await bot.fake.waitFor('chat.postMessage', (c) =>
      textOf(c.body.blocks).includes('Booked `WB000001`'),
    );
    expect(card.body.channel).toBe('CDISPATCH');
    expect(textOf(card.body.blocks)).toContain('REF&lt;&amp;&gt;9');
    expect(stored?.cardTs).toBeDefined();
    expect((await bot.deps.store.attempts.get(key))?.state).toBe('succeeded');
    const [audit] = await bot.deps.store.audit.list({ operation: 'resolve' });
    expect(audit).toMatchObject({ userId: 'UDISPATCH', trackingNumber: 'WB000001', outcome: 'booked' });
    expect(audit?.detail).toContain('decided by UDISPATCH');
    // Labels now: the booking is known.
    await bot.command('/waybill', 'label WB000001');
    await bot.idle();
    expect(bot.fake.uploadsCompleted().map((u) => u.filename)).toEqual(['labels-WB000001.pdf']);
    // Nothing was sent to the courier again.
    expect(bookCalls()).toHaveLength(1);

    // A second Resolve (a stale button): known already, who decided.
    await bot.clickInView(unknown, ids.resolveOpen, key, {}, 'UOTHER');
    const pushed = await bot.fake.waitFor('views.push');
    expect(textOf(pushed.body.view)).toContain('known already by <@UDISPATCH>');
    expect(await bot.deps.store.audit.list({ operation: 'resolve' })).toHaveLength(1);
  });

  it('"The courier has it" keeps the receiver\'s record, as a booking sent does, and its card shows it', async () => {
    bot = await startTestBot({ timeoutMs: 500, backend, render: render() });
    // WB000001 went to the same receiver and was delivered: one earlier parcel.
    await bookThroughModal(bot);
    await bot.command('/waybill', 'status WB000001 delivered');
    await bot.idle();
    const { unknown, key } = await unknownOn();
    await bot.submit(await openResolve(unknown, key), { verdict: 'booked' });
    await bot.idle();
    const card = await bot.fake.waitFor('chat.postMessage', (c) =>
      textOf(c.body.blocks).includes('Booked `WB000002`'),
    );
    expect(textOf(card.body.blocks)).toContain("Receiver's record when booked: 1 earlier parcel");
    expect((await bot.deps.store.receivers.checksOf(['WB000002'])).get('WB000002')).toMatchObject({
      parcels: 1,
      delivered: 1,
      flagged: false,
    });
  });

  it('"The courier does not have it": recorded as not booked, the claim freed, Send again books it once', async () => {
    const { unknown, key } = await unknownBooking(backend, { courierHasIt: false });
    const form = await openResolve(unknown, key);
    const refusedReference = await bot.submit(form, { verdict: 'notBooked', reference: 'X1' });
    expect(refusedReference.body.errors).toEqual({
      reference: 'A courier reference goes with "The courier has it" only.',
    });
    const noVerdict = await bot.submit(form, {});
    expect(noVerdict.body.response_action).toBe('errors');

    const ack = await bot.submit(form, { verdict: 'notBooked' });
    const notBooked = bot.ackedView(ack, unknown.id);
    expect(textOf(notBooked.blocks)).toContain('the courier does not have `WB000001`');
    expect(textOf(notBooked.blocks)).toContain(ids.bookingRetry);
    expect((await bot.deps.store.attempts.get(key))?.state).toBe('failed');
    expect(await bot.deps.store.bookings.get('WB000001')).toBeUndefined();
    const [audit] = await bot.deps.store.audit.list({ operation: 'resolve' });
    expect(audit).toMatchObject({ userId: 'UDISPATCH', outcome: 'not booked' });

    // Send again, clicked twice: one more call to the courier, the booking and its card.
    await Promise.all([
      bot.clickInView(notBooked, ids.bookingRetry),
      bot.clickInView(notBooked, ids.bookingRetry),
    ]);
    await bot.idle();
    expect(bookCalls()).toHaveLength(2);
    await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body.blocks).includes('Booked `WB000001`'));
    expect(await bot.deps.store.bookings.get('WB000001')).toBeDefined();
  });
});

it('resolving needs the update permission', async () => {
  const { unknown, key } = await unknownBooking(undefined, { env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
  const form = await openResolve(unknown, key);
  await bot.clickInView(unknown, ids.resolveOpen, key, {}, 'UINTRUDER');
  const refused = await bot.submit(form, { verdict: 'booked' }, 'UINTRUDER');
  expect(textOf(refused.body.view)).toContain('not on the list of people who may update waybills');
  await bot.idle();
  expect((await bot.deps.store.attempts.get(key))?.state).toBe('unknown');
  expect(await bot.deps.store.audit.list({ operation: 'resolve' })).toEqual([]);
});

describeEachBackend(import.meta.filename, 'Resolve pressed at the same moment on two replicas', (backend) => {
  it.each([
    ['both say the courier has it', 'booked', 'booked'],
    ['one says it has it, the other not', 'booked', 'notBooked'],
  ])('%s: the first answer counts once, the other is told under the field', async (_, first, second) => {
    const { unknown, key } = await unknownBooking(backend);
    const other = await startTestBot({ backend, sandbox: bot.sandbox, timeoutMs: 500, render: render() });
    try {
      const form = await openResolve(unknown, key);
      // The same form, as a second dispatcher has it on the other replica.
      const acks = await Promise.all([
        bot.submit(form, { verdict: first }, 'UDISPATCH'),
        other.submit(form, { verdict: second }, 'UOTHER'),
      ]);
      await Promise.all([bot.idle(), other.idle()]);
      const actions = acks.map((ack) => ack.body.response_action);
      expect(actions.sort()).toEqual(['errors', 'update']);
      const loser = acks.find((ack) => ack.body.response_action === 'errors');
      expect(textOf(loser?.body.errors)).toMatch(
        /Someone resolved it meanwhile\.|is known already by <@U(DISPATCH|OTHER)>/,
      );

      const audits = await bot.deps.store.audit.list({ operation: 'resolve' });
      expect(audits).toHaveLength(1);
      const winner = audits[0]?.outcome === 'booked' ? 'booked' : 'notBooked';
      expect((await bot.deps.store.attempts.get(key))?.state).toBe(
        winner === 'booked' ? 'succeeded' : 'failed',
      );
      const cards = [...bot.fake.calls, ...other.fake.calls].filter(
        (c) => c.method === 'chat.postMessage' && textOf(c.body.blocks).includes('Booked `WB000001`'),
      );
      expect(cards).toHaveLength(winner === 'booked' ? 1 : 0);
      expect(Boolean(await bot.deps.store.bookings.get('WB000001'))).toBe(winner === 'booked');
      expect(bookCalls()).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });
});
