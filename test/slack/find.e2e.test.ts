/**
 * `/waybill find` on both backends: every kind of word (names, phones in any format, references, tracking
 * numbers and their start, city, barangay, description) and filter (status, days, owner, COD, prepaid),
 * newest first; filters it cannot read named; 100 results through **More** ten at a time, each page within
 * Slack's limits; **Show**; names escaped; with `ALLOWED_CHANNEL_IDS`, other channels' bookings on no page;
 * the Home tab's **Find a booking** box (results in a DM, More there, refused without the permission); the
 * command and More over Socket Mode; a query with nothing to search for and a forged More given the usage.
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

/**
 * `/waybill find …` as a dispatcher types it: acknowledged at once, the page following through the
 * command's response URL (a refusal or the usage is the acknowledgement itself).
 */
async function findAnswer(bot: TestBot, text: string, fields?: Record<string, string>, verb = 'find') {
  const before = bot.fake.responseUrlPosts.length;
  const ack = await bot.command('/waybill', `${verb} ${text}`, fields);
  await bot.idle();
  if (ack.body?.text) return ack;
  const page = bot.fake.responseUrlPosts[before];
  expect(page, `the page of find ${text}`).toBeDefined();
  return { ...ack, body: page?.body ?? {} };
}

describeEachBackend(import.meta.filename, '/waybill find', (backend) => {
  async function started(env: Record<string, string> = {}) {
    const bot = await startTestBot({ backend, env });
    bots.push(bot);
    return bot;
  }

  it('acknowledges at once with nothing, and sends the page through the response URL', async () => {
    const bot = await started();
    await seed(bot, 1, { name: 'Maria Santos' });
    const ack = await bot.command('/waybill', 'find maria');
    expect(ack.status).toBe(200);
    expect(ack.body).toBe('');
    await bot.idle();
    const page = await bot.fake.waitForResponseUrlPost();
    expect(page.body).toMatchObject({ response_type: 'ephemeral' });
    expect(listed(page.body)).toEqual(['WB000001']);
  });

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
    const find = async (text: string) => listed((await findAnswer(bot, text)).body);

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

    const none = await findAnswer(bot, 'nobody');
    expect(none.body.text).toBe('No booking you may see matches `nobody`.');
    const bad = await findAnswer(bot, 'maria status:flying');
    expect(bad.body.text).toContain('`status:` needs one of: booked, picked_up');
    const date = await findAnswer(bot, 'from:2026-02-30');
    expect(date.body.text).toContain('`from:` needs a date as YYYY-MM-DD');
    const owner = await findAnswer(bot, 'owner:someone');
    expect(owner.body.text).toContain('`owner:` needs `me` or a person');
    const verb = await findAnswer(bot, 'maria', {}, 'Find');
    expect(listed(verb.body)).toEqual(['WB000002', 'WB000001']);
  });

  it('100 results in pages of ten with More, each within Slack limits; Show gives the card; all escaped', async () => {
    const bot = await started();
    const hostile = 'Maria <!channel> & <@U0BOSS>';
    for (let i = 1; i <= 100; i++) await seed(bot, i, { name: i === 50 ? hostile : `Maria Number${i}` });
    await seed(bot, 101, { name: 'Juan Cruz' });

    const first = await findAnswer(bot, 'maria <b>');
    expect(first.body.response_type).toBe('ephemeral');
    expect(listed(first.body)).toEqual([]);
    expect(first.body.text).toBe('No booking you may see matches `maria &lt;b&gt;`.');

    const page = await findAnswer(bot, 'maria');
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

  it('a query with nothing to search for gets the usage; a More it did not write is refused', async () => {
    const bot = await started();
    for (let i = 1; i <= 12; i++) await seed(bot, i, { name: `Maria Number${i}` });
    for (const query of ['%', '.*', '[', '\u{1F642}', '% .* -']) {
      const answer = await findAnswer(bot, query);
      expect(listed(answer.body), query).toEqual([]);
      expect(answer.body.text).toContain('Nothing to search for');
      expect(answer.body.text).toContain('/waybill find <words>');
    }
    // A filter is something to search by, symbols beside it or not.
    expect(listed((await findAnswer(bot, '% cod')).body)).toHaveLength(10);

    const real = JSON.parse(moreOf((await findAnswer(bot, 'maria')).body) ?? '{}');
    expect(real.before).toBe(10);
    for (const forged of [
      { ...real, before: -5 },
      { ...real, before: 3 },
      { ...real, before: 10.5 },
      { ...real, bookedAt: -1 },
      { ...real, query: '' },
      { ...real, trackingNumber: 7 },
    ]) {
      const posts = bot.fake.responseUrlPosts.length;
      await bot.clickInMessage(ids.findMore, JSON.stringify(forged));
      const answer = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
      expect(listed(answer.body), JSON.stringify(forged)).toEqual([]);
      expect(answer.body.text).toContain('/waybill find <words>');
    }
    const posts = bot.fake.responseUrlPosts.length;
    await bot.clickInMessage(ids.findMore, JSON.stringify(real));
    const rest = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
    expect(listed(rest.body)).toEqual(['WB000002', 'WB000001']);
    expect(rest.body.text).toContain('11\u201312');
  });

  it('with ALLOWED_CHANNEL_IDS, only bookings whose card is in an allowed channel, on every page', async () => {
    const bot = await started({ ALLOWED_CHANNEL_IDS: 'CDISPATCH' });
    for (let i = 1; i <= 30; i++)
      await seed(bot, i, { name: 'Maria Santos' }, { channel: i % 2 ? 'CDISPATCH' : 'CSECRET' });
    const page = await findAnswer(bot, 'maria');
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
    const elsewhere = await findAnswer(bot, 'maria', { channel_id: 'CSECRET' });
    expect(listed(elsewhere.body)).toEqual([]);
  });

  it('over Socket Mode: the command and More as envelopes', async () => {
    const bot = await startTestBot({ backend, socketMode: true });
    bots.push(bot);
    for (let i = 1; i <= 11; i++) await seed(bot, i, { name: 'Maria Santos' });
    const page = await findAnswer(bot, 'maria');
    expect(listed(page.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `WB${String(11 - i).padStart(6, '0')}`),
    );
    await bot.clickInMessage(ids.findMore, moreOf(page.body) as string);
    const next = await bot.fake.waitForResponseUrlPost((post) => post.body.replace_original === true);
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
