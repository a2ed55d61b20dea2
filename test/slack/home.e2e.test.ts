/**
 * The Home tab from `app_home_opened`: today's bookings, unfinished ones with Resume, recent quotes, the
 * finance section (COD owed, aged, overdue and in the pipeline) for finance users only, redrawn after one's own booking, a burst drawn
 * twice; exports from `/waybill export` and the Home tab.
 */
// The Home tab and exports end to end: app_home_opened events, Home-tab buttons, /waybill export, files uploaded through the fake Slack.
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { zonedDateAndTime } from '../../src/waybill/dates.js';
import { bookThroughModal, next, shipment } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);

let bot: TestBot;

const publishes = (user = 'UDISPATCH') =>
  bot.fake.callsTo('views.publish').filter((c) => c.body.user_id === user);

/** The person opens their Home tab: the tab Slack is then given. */
async function openHome(user = 'UDISPATCH') {
  const before = publishes(user).length;
  const response = await bot.event({ type: 'app_home_opened', user, channel: 'DHOME', tab: 'home' });
  expect(response.status).toBe(200);
  await bot.idle();
  const call = await bot.fake.waitFor('views.publish', (c) => c.body.user_id === user, { count: before + 1 });
  return call.body.view as { type: string; blocks: unknown[] };
}

afterEach(async () => {
  await bot?.stop();
});

describe('Home tab', () => {
  it("shows what to start, the team's bookings today, the person's unfinished bookings and recent quotes", async () => {
    bot = await startTestBot({ env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    const empty = await openHome();
    expect(empty.type).toBe('home');
    expect(textOf(empty)).toContain('Bookings today (0)');
    expect(textOf(empty)).toContain('No quotes yet');

    await bookThroughModal(bot);
    // A quote, the way a dispatcher gets one.
    await bot.command('/quote', quoteCommandText);
    const form = await bot.openedView();
    await bot.submit(form, quoteTyped);
    await bot.idle();
    // A booking left at its second step.
    await bot.command('/book');
    const first = await bot.openedView();
    await next(bot, first, shipment);

    const home = textOf(await openHome());
    expect(home).toContain('Bookings today (1)');
    expect(home).toContain('`WB000001`  Maria Santos, City of Cebu  ·  COD PHP 1,500.00');
    expect(home).toContain(`"action_id":"${ids.waybillUpdate}"`);
    expect(home).toContain(`"action_id":"${ids.bookRebook}"`);
    expect(home).toContain('at Receiver');
    expect(home).toContain(`"action_id":"${ids.bookingResume}"`);
    expect(home).toMatch(/City of Makati → City of Cebu · 2\.5 kg · \*PHP [\d,.]+\*/);
  });

  it('has a finance section for those who may reconcile: COD in the pipeline until delivered, then owed by days since delivery', async () => {
    bot = await startTestBot({ env: { ALLOWED_FINANCE_USER_IDS: 'UFIN' } });
    await bookThroughModal(bot);
    await bot.command('/waybill', 'status WB000001 picked up');
    const finance = textOf(await openHome('UFIN'));
    expect(finance).toContain('*COD owed* (delivered or paid in part, not yet remitted): none');
    expect(finance).toContain('*In the pipeline* (not yet delivered): 1 booking, PHP 1,500.00');
    await bot.command('/waybill', 'status WB000001 delivered');
    const delivered = textOf(await openHome('UFIN'));
    expect(delivered).toContain(
      '*COD owed* (delivered or paid in part, not yet remitted): 1 booking, PHP 1,500.00 \u00b7 by days since delivery: 0\u20137 days PHP 1,500.00 (1)',
    );
    expect(delivered).toContain('*Overdue* (owed, delivered more than 7 days ago): none');
    expect(delivered).toContain('*In the pipeline* (not yet delivered): none');
    expect(textOf(await openHome('UDISPATCH'))).not.toContain('COD owed');
  });

  it('/waybill help names every button of the Home tab and of a booking card', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
    const buttonsOf = (blocks: any[]): string[] =>
      blocks
        .filter((b) => b.type === 'actions')
        .flatMap((b) => b.elements)
        .filter((e: { type: string }) => e.type === 'button')
        .map((e: { text: { text: string } }) => e.text.text);
    // The Home tab's first row of buttons (what to start), and the booking card's.
    const home = (await openHome()).blocks as { type: string }[];
    const homeButtons = buttonsOf([home.find((b) => b.type === 'actions')]);
    const [card] = bot.fake.callsTo('chat.postMessage');
    const cardButtons = buttonsOf(card?.body.blocks as { type: string }[]);
    expect(homeButtons).toEqual(expect.arrayContaining(['Pickup list', 'COD remittance']));
    expect(cardButtons).toEqual(expect.arrayContaining(['Record status', 'Print labels']));

    const help = String((await bot.command('/waybill', 'help')).body.text);
    expect([...homeButtons, ...cardButtons].filter((button) => !help.includes(`*${button}*`))).toEqual([]);
  });

  it('is redrawn after the person’s own booking and update; the Messages tab is not the Home tab', async () => {
    bot = await startTestBot();
    await openHome();
    await bookThroughModal(bot);
    await bot.idle();
    const redrawn = await bot.fake.waitFor('views.publish', (c) =>
      textOf(c.body).includes('Bookings today (1)'),
    );
    expect(redrawn.body.user_id).toBe('UDISPATCH');
    // And after their own update: the receiver's new name shows.
    await bot.command('/waybill', 'update WB000001');
    await bot.submit(await bot.openedView(), { 'consignee.name': 'Maria Reyes' });
    await bot.idle();
    await bot.fake.waitFor('views.publish', (c) => textOf(c.body).includes('Maria Reyes, City of Cebu'));
    await bot.event({ type: 'app_home_opened', user: 'UOTHER', channel: 'DHOME', tab: 'messages' });
    await bot.idle();
    expect(publishes('UOTHER')).toEqual([]);
  });

  it('a burst of opens is drawn once or twice, not twenty times: at once, and any open after that draw once more after the interval', async () => {
    bot = await startTestBot({ homeRefresh: { perPersonMs: 1000, spacingMs: 5 } });
    const sent = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        bot.event({ type: 'app_home_opened', user: 'UDISPATCH', channel: 'DHOME', tab: 'home' }),
      ),
    );
    await bot.idle();
    // Work waits for arrivals to pause: opens that arrive before the first draw starts join it.
    expect(publishes().length).toBeGreaterThanOrEqual(1);
    expect(publishes().length).toBeLessThanOrEqual(2);
    // A second started the interval after the first, which started after the burst was sent: counted
    // from there, so the time the first took to draw and send does not count.
    if (publishes()[1]) expect((publishes()[1]?.receivedAt ?? 0) - sent).toBeGreaterThanOrEqual(1000);
  });

  it('Resume opens the unfinished booking at its step; New booking first asks where the card goes', async () => {
    bot = await startTestBot();
    await bot.command('/book');
    const first = await bot.openedView();
    const second = await next(bot, first, shipment);
    const draftId = JSON.parse(second.private_metadata ?? '{}').draftId as string;
    await bot.clickInHome(ids.bookingResume, draftId);
    const resumed = await bot.openedView();
    expect(resumed.callback_id).toBe(ids.bookingStep);
    expect(textOf(resumed.title)).toContain('2/5');
    // Someone else's draft is not theirs to resume.
    await bot.clickInHome(ids.bookingResume, draftId, 'UOTHER');
    const told = await bot.fake.waitFor('chat.postMessage', (c) => c.body.channel === 'UOTHER');
    expect(String(told.body.text)).toContain('no longer open');

    await bot.clickInHome(ids.bookFromHome);
    expect((await bot.openedView()).callback_id).toBe(ids.bookingDestination);
  });

  it('for someone not allowed to book: only a line saying so, and no export', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    await bookThroughModal(bot);
    const home = textOf(await openHome('UOTHER'));
    expect(home).toContain('You are not on the list');
    expect(home).not.toContain('WB000001');
    // Nor may they export, by command or from the Home tab.
    const refused = await bot.command('/waybill', 'export 2026-11-01..2026-11-30', { user_id: 'UOTHER' });
    expect(refused.body.text).toContain('may look up waybills');
    await bot.clickInHome(ids.exportOpen, undefined, 'UOTHER');
    await bot.idle();
    const told = await bot.fake.waitFor('views.open', (c) => textOf(c.body).includes('Not allowed'));
    expect(textOf(told.body)).toContain('may look up waybills');
    expect(bot.fake.callsTo('views.open').filter((c) => textOf(c.body).includes(ids.exportRange))).toEqual(
      [],
    );
    expect(bot.fake.callsTo('views.update').filter((c) => c.body.view_id === 'VHOME0001')).toEqual([]);
    expect(bot.fake.uploadsCompleted()).toEqual([]);
  });
});

describe('export', () => {
  // The export's days are the bot's calendar days (the harness runs it in Asia/Manila), so the range
  // is taken from today's date there rather than written out: the tests pass on any day.
  const today = () => zonedDateAndTime(new Date(), 'Asia/Manila').date;
  const monthSoFar = () => ({ first: `${today().slice(0, 8)}01`, last: today() });

  it('/waybill export sends a CSV of the bookings and updates of those days to the person’s DM', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    const { first, last } = monthSoFar();
    const ack = await bot.command('/waybill', `export ${first}..${last}`);
    expect(ack.body.text).toContain(`Exporting ${first} to ${last}`);
    await bot.idle();
    const [upload] = bot.fake.uploadsCompleted();
    expect(upload?.channelId).toMatch(/^D/);
    expect(upload?.filename).toBe(`waybills-${first}-to-${last}.csv`);
    expect(upload?.initialComment).toContain('1 line');
    const rows = parse(upload?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({
        operation: 'book',
        outcome: 'ok',
        tracking_number: 'WB000001',
        by: 'UDISPATCH',
        receiver_name: 'Maria Santos',
        receiver_city: 'City of Cebu',
        cod_amount: '1500.00',
      }),
    ]);
    expect(rows[0]?.courier_reference).not.toBe('');

    // A day with nothing in it still gives a file, with its header.
    await bot.command('/waybill', 'export 2026-10-01');
    await bot.idle();
    expect(bot.fake.uploadsCompleted()[1]?.initialComment).toContain('0 lines');
  });

  it('says how to write the range, and refuses a reversed or too long one', async () => {
    bot = await startTestBot();
    expect((await bot.command('/waybill', 'export last month')).body.text).toContain(
      '`/waybill export 2026-11-01..2026-11-30`',
    );
    expect((await bot.command('/waybill', 'export 2026-11-30..2026-11-01')).body.text).toContain(
      'is before the first',
    );
    expect((await bot.command('/waybill', 'export 2024-01-01..2026-11-30')).body.text).toContain(
      'export at most 366',
    );
    await bot.idle();
    expect(bot.fake.uploadsCompleted()).toEqual([]);
  });

  it('Export on the Home tab asks for two days, then sends the file', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    await bot.clickInHome(ids.exportOpen);
    const modal = await bot.openedView();
    expect(modal.callback_id).toBe(ids.exportRange);
    const reversed = await bot.submit(modal, { from: today(), to: '2000-01-01' });
    expect(reversed.body).toMatchObject({ response_action: 'errors' });
    await bot.submit(modal, { from: today(), to: today() });
    await bot.idle();
    const [upload] = bot.fake.uploadsCompleted();
    expect(upload?.text).toContain('WB000001');
  });
});
