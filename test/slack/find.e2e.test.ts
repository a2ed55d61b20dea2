/**
 * `/waybill find` on both backends: every kind of word (names, phones in any format, references, tracking
 * numbers and their start, city, barangay, description) and filter (status, days, owner, COD, prepaid),
 * newest first; filters it cannot read named; 100 results through **More** ten at a time, each page within
 * Slack's limits; **Show**; names escaped; with `ALLOWED_CHANNEL_IDS`, other channels' bookings on no page;
 * the Home tab's **Find a booking** box (results in a DM, More there, refused without the permission); the
 * command and More over Socket Mode.
 */
// /waybill find on both backends: words and filters, pages of ten with More, Show, the channel rule, escaping.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { sampleBooking, sampleParty } from '../../fakes/label-bookings.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

const bots: TestBot[] = [];
afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
});

/** Booking i, i minutes after 2026-11-20 00:00 UTC, its card in `channel`. */
async function seed(
  bot: TestBot,
  i: number,
  consignee: Record<string, string>,
  extra: { channel?: string; bookedBy?: string; changes?: Record<string, unknown> } = {},
) {
  const trackingNumber = `WB${String(i).padStart(6, '0')}`;
  const channel = extra.channel ?? 'CDISPATCH';
  await bot.deps.store.bookings.insert({
    trackingNumber,
    trackingRefNo: `R${i}`,
    record: sampleBooking(trackingNumber, {
      consignee: sampleParty(consignee.name ?? 'Juan Cruz', consignee.city ?? 'Cebu City', consignee),
      ...extra.changes,
    }),
    channelId: channel,
    cardChannelId: channel,
    cardTs: `1.${i}`,
    bookedBy: extra.bookedBy ?? 'UDISPATCH',
    bookedAt: new Date(Date.UTC(2026, 10, 20) + i * 60_000),
  });
  return trackingNumber;
}

/** The tracking numbers a result message lists, in order. */
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const listed = (message: any): string[] =>
  // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
  (message.blocks ?? []).flatMap((b: any) =>
    b.type === 'actions' && b.elements[0].action_id === ids.findShow ? [b.elements[0].value] : [],
  );

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const moreOf = (message: any): string | undefined =>
  // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
  message.blocks.flatMap((b: any) => b.elements ?? []).find((e: any) => e.action_id === ids.findMore)?.value;

describeEachBackend(import.meta.filename, '/waybill find', (backend) => {
  async function started(env: Record<string, string> = {}) {
    const bot = await startTestBot({ backend, env });
    bots.push(bot);
    return bot;
  }

  it('every kind of word and filter finds its bookings, newest first; a filter it cannot read is named', async () => {
    const bot = await started();
    await seed(bot, 1, {
      name: 'Maria Santos',
      city: 'Davao',
      phone: '+63 918 555 0202',
      barangay: 'Poblacion',
    });
    await seed(
      bot,
      2,
      { name: 'Maria Reyes', city: 'Makati' },
      { bookedBy: 'UANA', changes: { paymentMethod: 'PREPAID', codAmount: '' } },
    );
    await seed(
      bot,
      3,
      { name: 'Pedro Reyes', city: 'Cebu City' },
      { changes: { reference2: 'PO-77812', itemDescription: 'Rice cooker' } },
    );
    await bot.command('/waybill', 'status WB000003 failed not at home');
    const find = async (text: string) => listed((await bot.command('/waybill', `find ${text}`)).body);

    expect(await find('maria')).toEqual(['WB000002', 'WB000001']);
    expect(await find('MARIA santos')).toEqual(['WB000001']);
    expect(await find('reyes')).toEqual(['WB000003', 'WB000002']);
    // Phones in any format, as stored: national, international, the last digits.
    expect(await find('0918-555-0202')).toEqual(['WB000001']);
    expect(await find('+639185550202')).toEqual(['WB000001']);
    expect(await find('5550202')).toEqual(['WB000001']);
    expect(await find('po-77812')).toEqual(['WB000003']);
    expect(await find('wb000003')).toEqual(['WB000003']);
    expect(await find('WB00000')).toEqual(['WB000003', 'WB000002', 'WB000001']);
    expect(await find('poblacion')).toEqual(['WB000001']);
    expect(await find('davao')).toEqual(['WB000001']);
    expect(await find('rice')).toEqual(['WB000003']);
    expect(await find('status:failed')).toEqual(['WB000003']);
    expect(await find('reyes status:booked')).toEqual(['WB000002']);
    expect(await find('maria prepaid')).toEqual(['WB000002']);
    expect(await find('maria cod')).toEqual(['WB000001']);
    expect(await find('owner:me maria')).toEqual(['WB000001']);
    expect(await find('owner:<@UANA|ana>')).toEqual(['WB000002']);
    // Handed over: found under its new owner only.
    await bot.command('/waybill', 'assign WB000001 <@UANA|ana>');
    expect(await find('owner:<@UANA|ana>')).toEqual(['WB000002', 'WB000001']);
    expect(await find('owner:me maria')).toEqual([]);
    // Booked 00:01, 00:02, 00:03 UTC on 2026-11-20: 08:01… in Manila, the same day there.
    expect(await find('from:2026-11-20 to:2026-11-20 maria')).toEqual(['WB000002', 'WB000001']);
    expect(await find('from:2026-11-21')).toEqual([]);
    expect(await find('nobody')).toEqual([]);

    const none = await bot.command('/waybill', 'find nobody');
    expect(none.body.text).toBe('No booking you may see matches `nobody`.');
    const bad = await bot.command('/waybill', 'find maria status:flying');
    expect(bad.body.text).toContain('`status:` needs one of: booked, picked_up');
    const date = await bot.command('/waybill', 'find from:2026-02-30');
    expect(date.body.text).toContain('`from:` needs a date as YYYY-MM-DD');
    const owner = await bot.command('/waybill', 'find owner:someone');
    expect(owner.body.text).toContain('`owner:` needs `me` or a person');
    const verb = await bot.command('/waybill', 'Find maria');
    expect(listed(verb.body)).toEqual(['WB000002', 'WB000001']);
  });

  it('100 results in pages of ten with More, each within Slack limits; Show gives the card; all escaped', async () => {
    const bot = await started();
    const hostile = 'Maria <!channel> & <@U0BOSS>';
    for (let i = 1; i <= 100; i++) await seed(bot, i, { name: i === 50 ? hostile : `Maria Number${i}` });
    await seed(bot, 101, { name: 'Juan Cruz' });

    const first = await bot.command('/waybill', 'find maria <b>');
    expect(first.body.response_type).toBe('ephemeral');
    expect(listed(first.body)).toEqual([]);
    expect(first.body.text).toBe('No booking you may see matches `maria &lt;b&gt;`.');

    const page = await bot.command('/waybill', 'find maria');
    const seen = [...listed(page.body)];
    expectWithinSlackLimits(page.body);
    let more = moreOf(page.body);
    while (more) {
      const posts = bot.fake.responseUrlPosts.length;
      await bot.clickInMessage(ids.findMore, more);
      const next = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
      expect(next.body.replace_original).toBe(true);
      expectWithinSlackLimits(next.body);
      expect(listed(next.body).length).toBeLessThanOrEqual(10);
      seen.push(...listed(next.body));
      more = moreOf(next.body);
    }
    const expected = Array.from({ length: 100 }, (_, i) => `WB${String(100 - i).padStart(6, '0')}`);
    expect(seen).toEqual(expected);

    const all = JSON.stringify([page.body, ...bot.fake.responseUrlPosts.map((p) => p.body)]);
    expect(all).toContain('Maria &lt;!channel&gt; &amp; &lt;@U0BOSS&gt;');
    expect(all).not.toContain('<!channel>');

    const posts = bot.fake.responseUrlPosts.length;
    await bot.clickInMessage(ids.findShow, 'WB000050');
    const shown = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
    expect(shown.body.replace_original).toBe(false);
    expect(JSON.stringify(shown.body.blocks)).toContain('WB000050');
    expect(JSON.stringify(shown.body)).not.toContain('<!channel>');
  });

  it('with ALLOWED_CHANNEL_IDS, only bookings whose card is in an allowed channel, on every page', async () => {
    const bot = await started({ ALLOWED_CHANNEL_IDS: 'CDISPATCH' });
    for (let i = 1; i <= 30; i++)
      await seed(bot, i, { name: 'Maria Santos' }, { channel: i % 2 ? 'CDISPATCH' : 'CSECRET' });
    const page = await bot.command('/waybill', 'find maria');
    const seen = [...listed(page.body)];
    let more = moreOf(page.body);
    while (more) {
      const posts = bot.fake.responseUrlPosts.length;
      await bot.clickInMessage(ids.findMore, more);
      const next = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
      seen.push(...listed(next.body));
      more = moreOf(next.body);
    }
    expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => `WB${String(29 - 2 * i).padStart(6, '0')}`));
    // From a channel not allowed, nothing at all.
    const elsewhere = await bot.command('/waybill', 'find maria', { channel_id: 'CSECRET' });
    expect(listed(elsewhere.body)).toEqual([]);
  });

  it('over Socket Mode: the command and More as envelopes', async () => {
    const bot = await startTestBot({ backend, socketMode: true });
    bots.push(bot);
    for (let i = 1; i <= 11; i++) await seed(bot, i, { name: 'Maria Santos' });
    const page = await bot.command('/waybill', 'find maria');
    expect(listed(page.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `WB${String(11 - i).padStart(6, '0')}`),
    );
    await bot.clickInMessage(ids.findMore, moreOf(page.body) as string);
    const next = await bot.fake.waitForResponseUrlPost();
    expect(listed(next.body)).toEqual(['WB000001']);
  });

  it("the Home tab's Find box: the first page in the person's DM, More there; refused without the show permission", async () => {
    const bot = await started({ ALLOWED_USER_IDS: 'UDISPATCH' });
    for (let i = 1; i <= 12; i++) await seed(bot, i, { name: 'Maria Santos' });
    await bot.event({ type: 'app_home_opened', user: 'UDISPATCH', tab: 'home' });
    const home = await bot.fake.waitFor('views.publish');
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
    const box = (home.body.view as any).blocks.find((b: any) => b.block_id === 'find');
    expect(box).toMatchObject({ type: 'input', dispatch_action: true, element: { action_id: ids.findHome } });
    expectWithinSlackLimits(home.body.view as object);

    await bot.typeInHome(ids.findHome, 'maria santos');
    const dm = await bot.fake.waitFor('chat.postMessage', (c) => c.body.channel === 'UDISPATCH');
    expect(listed(dm.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `WB${String(12 - i).padStart(6, '0')}`),
    );
    await bot.clickInMessage(ids.findMore, moreOf(dm.body) as string, { channelId: 'DDISPATCH' });
    const next = await bot.fake.waitForResponseUrlPost();
    expect(listed(next.body)).toEqual(['WB000002', 'WB000001']);

    // Someone not allowed is told in a modal, and sent nothing.
    await bot.typeInHome(ids.findHome, 'maria', 'UOTHER');
    const refused = await bot.fake.waitFor('views.open');
    expect(JSON.stringify(refused.body.view)).toContain('Not allowed');
    await bot.idle();
    expect(bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'UOTHER')).toEqual([]);
  });
});
