/**
 * `/waybill statuses`, one status for many parcels, on both backends: the parcels offered (on their way,
 * in the person's conversations, newest pickup first), inline errors, each parcel recorded with its own
 * line and card, one already so, and a forged parcel of another conversation refused like an unknown one.
 */
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { describeEachBackend } from '../store/backends.js';
import { botsPerTest, copyOfFirst } from '../support/booking-flow.js';
import type { TestBot, View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { booked } = botsPerTest();

/** WB000001's pickup, `daysAgo` days earlier. */
async function pickedUpBefore(bot: TestBot, daysAgo: number): Promise<Date> {
  const first = await bot.deps.store.bookings.get('WB000001');
  return new Date((first?.pickupAt?.getTime() ?? 0) - daysAgo * 86_400_000);
}

async function openStatuses(bot: TestBot): Promise<View> {
  const opened = bot.fake.callsTo('views.open').length;
  const ack = await bot.command('/waybill', 'statuses');
  expect(ack.status).toBe(200);
  const call = await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  const answer = call.response?.body as { view: { id: string; hash: string } };
  return { ...(call.body.view as View), id: answer.view.id, hash: answer.view.hash };
}

const offered = (view: View): string[] =>
  view.blocks
    .find((block) => block.block_id === 'parcels')
    .element.options.map((option: { text: { text: string } }) => option.text.text);

describeEachBackend(import.meta.filename, 'recording one status for many parcels', (backend) => {
  it('offers the parcels on their way in the person’s conversations, newest pickup first', async () => {
    const bot = await booked({ backend, env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    await copyOfFirst(bot, 'WB000002', { pickupAt: await pickedUpBefore(bot, 1) });
    await copyOfFirst(bot, 'WB000003', { pickupAt: await pickedUpBefore(bot, 2) });
    await copyOfFirst(bot, 'WB000004', { channelId: 'COTHER' });
    await bot.deps.store.statuses.record({
      trackingNumber: 'WB000003',
      userId: 'UDISPATCH',
      status: 'delivered',
    });

    const modal = await openStatuses(bot);
    expect(modal.callback_id).toBe(ids.statusesForm);
    const parcels = offered(modal);
    // Delivered (WB000003) and another conversation's (WB000004) are not offered.
    expect(parcels.map((text) => text.split(' · ')[0])).toEqual(['WB000001', 'WB000002']);
    expect(parcels[0]).toMatch(/^WB000001 · .+ · .+ · no status yet$/);
    for (const text of parcels) expect(text.length).toBeLessThanOrEqual(75);
  });

  it('acknowledges at once and, when nothing is on its way in the person’s conversations, says so privately instead of a form', async () => {
    const bot = await booked({ backend, env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    await bot.deps.store.statuses.record({
      trackingNumber: 'WB000001',
      userId: 'UDISPATCH',
      status: 'delivered',
    });
    const posts = bot.fake.responseUrlPosts.length;
    const ack = await bot.command('/waybill', 'statuses');
    expect(ack.status).toBe(200);
    expect(ack.body).toBe('');
    const told = await bot.fake.waitFor('response_url', undefined, { count: posts + 1 });
    expect(String(told.body.text)).toContain('nothing to record');
    await bot.idle();
    expect(bot.fake.callsTo('views.open')).toEqual([]);
  });

  it('records each parcel, says what came of each, and tells each card; errors inline; a forged parcel refused', async () => {
    const bot = await booked({ backend });
    await copyOfFirst(bot, 'WB000002');
    await bot.deps.store.statuses.record({
      trackingNumber: 'WB000002',
      userId: 'UDISPATCH',
      status: 'picked_up',
    });
    const modal = await openStatuses(bot);

    const none = await bot.submit(modal, { status: 'picked_up' });
    expect(none.body).toMatchObject({
      response_action: 'errors',
      errors: { parcels: 'Pick at least one parcel.' },
    });
    const noReason = await bot.submit(modal, { parcels: 'WB000001', status: 'failed_attempt' });
    expect(noReason.body.response_action).toBe('errors');
    expect(Object.keys(noReason.body.errors)).toEqual(['reason']);

    const ack = await bot.submit(modal, { parcels: 'WB000001,WB000002,WB999999', status: 'picked_up' });
    expect(textOf(ack.body.view)).toContain('Recording for 3 parcels');
    await bot.idle();
    const shown = textOf(
      (await bot.updatedView(modal.id, (view) => textOf(view).includes('WB999999'))).blocks,
    );
    expect(shown).toContain('Recorded for `WB000001`');
    expect(shown).toContain('`WB000002`');
    expect(shown).toContain('nothing changed');
    // Not the bot's: answered as an unknown number would be.
    expect(shown).toMatch(/`WB999999`: .*WB999999/);

    expect((await bot.deps.store.statuses.latest('WB000001'))?.status).toBe('picked_up');
    const lines = bot.fake
      .callsTo('chat.postMessage')
      .filter((call) => call.body.thread_ts && textOf(call.body).includes(':memo:'));
    // WB000001's card and its audit copy; WB000002 had the status already, and has no card.
    expect(lines.map((call) => String(call.body.text))).toEqual([
      ':memo: `WB000001` Picked up, recorded by <@UDISPATCH>',
      ':memo: `WB000001` Picked up, recorded by <@UDISPATCH>',
    ]);
  });
});
