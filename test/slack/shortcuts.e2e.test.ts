/** The shortcuts end to end, as Slack sends them: Book from this message, New booking and New quote. */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteTyped } from '../../fakes/quote-values.js';
import { fillStepsToReview, next } from '../support/booking-flow.js';
import { elementOf, mrkdwnOf, startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

afterEach(async () => {
  await bot?.stop();
});

describe('Book from this message', () => {
  it('opens /book filled in from the message as Slack sends it, says what it read and from which words, and books to that channel', async () => {
    bot = await startTestBot();
    // As Slack sends it: bold marks, an auto-linked e-mail address, escaped entities.
    const response = await bot.messageShortcut(
      'pls book 2 boxes to *Maria Santos*, 45 Rizal St Ermita, 0918 555 0202, <mailto:maria@example.com|maria@example.com>, COD 1,500 &amp; fragile',
    );
    expect(response.status).toBe(200);
    const first = await bot.openedView();
    expect(first.callback_id).toBe(ids.bookingStep);
    const top = mrkdwnOf(first);
    expect(top).toContain(':mag: *Read from the message*');
    for (const line of [
      '• *Receiver name*: Maria Santos  _from_ “to Maria Santos”',
      '• *Receiver phone*: 0918 555 0202  _from_ “0918 555 0202”',
      '• *Receiver e-mail*: maria@example.com  _from_ “maria@example.com”',
      '• *COD amount*: 1500  _from_ “COD 1,500”',
      '• *Number of parcels*: 2  _from_ “2 boxes”',
    ]) {
      expect(top).toContain(line);
    }
    expect(top).toContain('_The message:_ pls book 2 boxes to Maria Santos, 45 Rizal St Ermita');
    expect(top).toContain('COD 1,500 &amp; fragile');
    expect(elementOf(first, 'codAmount').initial_value).toBe('1500');
    expect(elementOf(first, 'paymentMethod').initial_option.value).toBe('COD');
    expect(elementOf(first, 'package.type').initial_option.value).toBe('BOX');

    const receiver = await next(bot, first, {
      itemDescription: 'Kitchen scales',
      'package.weight': '3',
      operatorContactNumber: '0917 555 0100',
    });
    expect(elementOf(receiver, 'consignee.name').initial_value).toBe('Maria Santos');
    expect(elementOf(receiver, 'consignee.street').initial_value).toBe('45 Rizal St Ermita');
    // The message says no city: the dispatcher types it.
    expect(elementOf(receiver, 'consignee.city').initial_option).toBeUndefined();
    const sender = await next(bot, receiver, { 'consignee.city': 'Manila', 'consignee.country': 'PH' });
    await bot.selectInView(sender, ids.bookingProfile, 'makati-office');
    const withProfile = await bot.updatedView(sender.id, (v) => textOf(v.blocks).includes('Makati'));
    const parcels = await next(bot, withProfile);
    expect(elementOf(parcels, 'quantity').initial_value).toBe('2');
    const review = await next(bot, parcels);
    expect(review.callback_id).toBe(ids.bookingReview);
    expect(bot.sandbox.received).toHaveLength(0);

    await bot.submit(review);
    await bot.idle();
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeName: 'Maria Santos',
      consigneeContact: '0918 555 0202',
      consigneeEmail: 'maria@example.com',
      consigneeAddress: '45 Rizal St Ermita',
      paymentMethod: 'COD',
      codAmount: '1500.00',
      quantity: '2',
      packageType: 'BOX',
    });
    const card = await bot.fake.waitFor('chat.postMessage');
    expect(card.body.channel).toBe('CREQUESTS');
  });

  it('opens an empty form with a note when nothing can be read for certain', async () => {
    bot = await startTestBot();
    await bot.messageShortcut('hi, can you call me later? thanks');
    const first = await bot.openedView();
    const top = mrkdwnOf(first);
    expect(top).toContain('*Nothing in the message could be read for certain*');
    expect(top).not.toContain('Read from the message');
    expect(elementOf(first, 'codAmount').initial_value).toBeUndefined();
    expect(elementOf(first, 'package.weight').initial_value).toBeUndefined();
  });

  it('leaves a field it is not sure of empty, and says why', async () => {
    bot = await startTestBot();
    await bot.messageShortcut('Receiver: Carlo Mendoza, 0917 111 2222 / 0918 333 4444, 2kg');
    const first = await bot.openedView();
    const top = mrkdwnOf(first);
    expect(top).toContain(
      ':warning: Receiver phone left empty: the message gives 2 different ones (0917 111 2222; 0918 333 4444)',
    );
    const receiver = await next(bot, first, {
      itemDescription: 'Shoes',
      paymentMethod: 'PREPAID',
      'package.type': 'BOX',
      operatorContactNumber: '0917 555 0100',
    });
    expect(elementOf(receiver, 'consignee.name').initial_value).toBe('Carlo Mendoza');
    expect(elementOf(receiver, 'consignee.phone').initial_value).toBeUndefined();
  });

  it('keeps the Block Kit limits for a long message full of values', async () => {
    bot = await startTestBot();
    const long = (what: string) => `${what} ${'&lt;Long&gt; '.repeat(12)}`.trim();
    const party = (who: string, phone: string) =>
      [
        `${who}:`,
        `Name: ${long('Name')}`,
        `Tel: ${phone}`,
        `Email: ${who.toLowerCase()}@example.com`,
        `Address: 12 ${long('Street')} St`,
        `Brgy: ${long('Barangay')}`,
        `District: ${long('District')}`,
        `City: ${long('City')}`,
        `Province: ${long('Province')}`,
        'Zip: 1600',
      ].join('\n');
    const doubts = Array.from({ length: 30 }, (_, n) => `Weight ${n + 1} kg, Size ${n + 1}x2x3`).join('\n');
    await bot.messageShortcut(
      [
        party('Sender', '0917 000 1111'),
        party('Receiver', '0918 000 2222'),
        'COD 1,500, 2 boxes',
        doubts,
      ].join('\n'),
    );
    const first = await bot.openedView();
    const summary = first.blocks.filter((b) => b.type === 'section');
    expect(summary.length, 'the summary is split over sections').toBeGreaterThan(1);
    expect(first.blocks.length).toBeLessThanOrEqual(100);
    for (const block of first.blocks) {
      const texts = [block.text?.text, ...(block.elements ?? []).map((e: { text?: string }) => e.text)];
      for (const text of texts.filter(Boolean)) expect(text.length).toBeLessThanOrEqual(3000);
    }
    expect(mrkdwnOf(first)).toContain('&lt;Long&gt;');
    expect(mrkdwnOf(first)).not.toContain('<Long>');
  });

  it('a message that once froze the reader: another dispatcher is answered at once and the form opens, saying what was not read', async () => {
    bot = await startTestBot();
    // A pasted column of numbers: reading it took about 20 s of CPU, the whole bot blocked meanwhile.
    const poisoned = '1 '.repeat(1500);
    const shortcut = await bot.messageShortcut(poisoned);
    expect(shortcut.status).toBe(200);
    // From the shortcut's ack on, the form is being prepared; another dispatcher's command meanwhile.
    const asked = performance.now();
    const help = await bot.command('/waybill', 'help', { user_id: 'UOTHER' });
    const answeredMs = performance.now() - asked;
    expect(help.body.text).toContain('What this bot does');
    // Slack's own limit for an answer: the reader, like any work after an ack, must never hold one up.
    expect(answeredMs).toBeLessThan(3000);
    const form = await bot.openedView();
    expect(form.callback_id).toBe(ids.bookingStep);
    expect(mrkdwnOf(form)).toContain('_The message:_ 1 1 1');

    // A run of marks as long as Slack allows: turning it into plain text took 5 s.
    const started = performance.now();
    await bot.messageShortcut(`a${'*'.repeat(39_998)}x`);
    expect(mrkdwnOf(await bot.openedView())).toContain('Only the start of the message was read');
    expect(performance.now() - started).toBeLessThan(3000);

    // Slack's longest message: the start is read, the dispatcher told the rest was not.
    await bot.messageShortcut(`Tel: 0918 555 0202\n${'(02) '.repeat(8000)}`.slice(0, 40_000));
    const long = await bot.openedView();
    expect(long.callback_id).toBe(ids.bookingStep);
    expect(mrkdwnOf(long)).toContain('*Receiver phone*: 0918 555 0202');
    expect(mrkdwnOf(long)).toMatch(
      /:warning: Only the start of the message was read \(3,99\d of its 40,000 characters; the reader stops at 4,000 characters or 200 lines\)/,
    );
  });
});

describe('New booking and New quote', () => {
  it('New booking asks where the card goes, then books in the steps and posts the card there', async () => {
    bot = await startTestBot();
    const response = await bot.globalShortcut(ids.bookNew);
    expect(response.status).toBe(200);
    const destination = await bot.openedView();
    expect(destination.callback_id).toBe(ids.bookingDestination);
    expect(destination.title).toMatchObject({ text: 'New booking' });
    const picker = destination.blocks.find((b) => b.block_id === 'destination');
    expect(picker.element.type).toBe('conversations_select');

    const first = bot.ackedView(await bot.submit(destination, { destination: 'CSALES' }), destination.id);
    expect(first.callback_id).toBe(ids.bookingStep);
    const review = await fillStepsToReview(bot, first);
    await bot.submit(review);
    await bot.idle();
    const card = await bot.fake.waitFor('chat.postMessage');
    expect(card.body.channel).toBe('CSALES');
    expect((await bot.deps.store.bookings.get('WB000001'))?.channelId).toBe('CSALES');
  });

  it('New quote asks where the price goes, then quotes and posts it there', async () => {
    bot = await startTestBot();
    await bot.globalShortcut(ids.quoteNew);
    const destination = await bot.openedView();
    expect(destination.callback_id).toBe(ids.quoteDestination);
    const noChoice = await bot.submit(destination, { destination: null });
    expect(noChoice.body).toEqual({
      response_action: 'errors',
      errors: { destination: 'Choose a channel for the result' },
    });

    const form = bot.ackedView(await bot.submit(destination, { destination: 'CSALES' }), destination.id);
    expect(form.callback_id).toBe(ids.quoteForm);
    // What /quote's words would have pre-filled is typed here.
    await bot.submit(form, { ...quoteTyped, 'consignee.city': 'Cebu City', 'package.weight': '2.5' });
    await bot.idle();
    const posted = await bot.fake.waitFor('chat.postMessage');
    expect(posted.body.channel).toBe('CSALES');
    expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['quote']);
  });

  it('tells the dispatcher in a DM when Slack was too slow to open the first view', async () => {
    bot = await startTestBot();
    bot.fake.respond('views.open', { ok: false, error: 'expired_trigger_id' }, { times: 1 });
    await bot.globalShortcut(ids.bookNew);
    const told = await bot.fake.waitFor('chat.postMessage');
    expect(told.body).toMatchObject({ channel: 'UDISPATCH' });
    expect(String(told.body.text)).toContain('Please use *New booking* again');
  });
});
