/**
 * On SQLite and PostgreSQL: a modal's draft is its opener's (a forged submission by someone else refused and
 * logged); a booking is its channel's (every command and button naming one made outside
 * `ALLOWED_CHANNEL_IDS`, and Resolve, refused from an allowed channel)
 */
// Whose is it: a modal's draft is its opener's, and a booking belongs to its channel; on both backends.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { describeEachBackend, type TestBackend } from '../store/backends.js';
import { fillStepsToReview, fillToReview } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack JSON
const textOf = (value: any): string => JSON.stringify(value);

let bot: TestBot;

/** A booking typed through the modal in `channelId`, confirmed: its review's outcome view. */
async function bookIn(on: TestBot, channelId: string, fault?: { dropAfterProcessing: true }) {
  await on.command('/book', '', { channel_id: channelId });
  const review = await fillStepsToReview(on, await on.openedView());
  if (fault) on.sandbox.injectNext(fault);
  await on.submit(review);
  await on.idle();
  return review;
}

/**
 * WB000001 booked in CELSEWHERE (its card there), and WB000002 of unknown outcome there (the key of
 * its Resolve), while the bot served every conversation; then the bot restarted with
 * ALLOWED_CHANNEL_IDS=CDISPATCH on the same database.
 */
async function bookingsElsewhere(backend: TestBackend): Promise<string> {
  const store = await backend.open();
  const before = await startTestBot({ store, timeoutMs: 500 });
  await bookIn(before, 'CELSEWHERE');
  const review = await bookIn(before, 'CELSEWHERE', { dropAfterProcessing: true });
  const unknown = await before.updatedView(review.id, (v) => textOf(v.blocks).includes('outcome unknown'));
  const resolve = unknown.blocks
    .flatMap((b) => b.elements ?? [])
    .find((e: { action_id?: string }) => e.action_id === ids.resolveOpen);
  await before.stop();
  expect(await store.bookings.get('WB000001')).toMatchObject({
    channelId: 'CELSEWHERE',
    cardChannelId: 'CELSEWHERE',
  });
  bot = await startTestBot({ store, env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
  return String(resolve?.value);
}

const refusal = 'in a conversation where you may';

describeEachBackend(import.meta.filename, 'ownership', (backend) => {
  afterEach(async () => {
    await bot?.stop();
  });

  it("refuses and logs a submission of another person's modal (a forged request): nothing booked", async () => {
    bot = await startTestBot({ backend });
    const review = await fillToReview(bot);
    const forged = await bot.submit(review, {}, 'UFORGER');
    expect(forged.body).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify(forged.body)).toContain('opened by someone else');
    await bot.idle();
    expect(await bot.deps.store.bookings.get('WB000001')).toBeUndefined();
    expect(bot.sandbox.bookings.size).toBe(0);
    expect(bot.logs.some((line) => line.includes('UFORGER') && line.includes('refused'))).toBe(true);
    // The opener's own submission still books.
    await bot.submit(review);
    await bot.idle();
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({ bookedBy: 'UDISPATCH' });
  });

  it('refuses, from an allowed channel, every command and button naming a booking of a channel outside ALLOWED_CHANNEL_IDS', async () => {
    const key = await bookingsElsewhere(backend);
    for (const text of [
      'show WB000001',
      'update WB000001',
      'rebook WB000001',
      'label WB000001',
      'status WB000001 delivered',
    ]) {
      const answer = await bot.command('/waybill', text);
      // Soft: a surface left open shows up beside the others.
      expect.soft(answer.body, text).toMatchObject({ response_type: 'ephemeral' });
      expect.soft(String(answer.body.text), text).toContain('`WB000001`');
      expect.soft(String(answer.body.text), text).toContain(refusal);
    }
    // The Home tab's buttons come from no conversation: only the booking's can refuse them.
    for (const action of [ids.statusOpen, ids.waybillUpdate, ids.bookRebook, ids.labelsPrint]) {
      await bot.clickInHome(action, 'WB000001');
      await bot.idle();
      const told = bot.fake.callsTo('chat.postMessage').filter((c) => textOf(c.body).includes(refusal));
      expect
        .soft(
          told.map((c) => c.body.channel),
          action,
        )
        .toEqual(['UDISPATCH']);
      bot.fake.reset();
    }
    // Resolve from a message in an allowed channel (the digest's, say).
    await bot.clickInMessage(ids.resolveOpen, key, { channelId: 'CDISPATCH' });
    await bot.idle();
    expect.soft(textOf(bot.fake.responseUrlPosts.map((p) => p.body))).toContain(`\`WB000002\` ${refusal}`);

    // Nothing was shown, opened, recorded, printed or posted in the other channel.
    expect(bot.fake.callsTo('views.open')).toEqual([]);
    expect(bot.fake.uploadsCompleted()).toEqual([]);
    expect(bot.fake.calls.filter((c) => c.body.channel === 'CELSEWHERE')).toEqual([]);
    expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
    expect((await bot.deps.store.attempts.get(key))?.state).toBe('unknown');
    const refused = await bot.deps.store.audit.list({ trackingNumber: 'WB000001' });
    expect(refused.filter((entry) => entry.outcome === 'refused')).toHaveLength(9);
  });
});
