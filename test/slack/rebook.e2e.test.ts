/**
 * Rebook end to end: from the card's button and /waybill rebook, through every step and the review, to a
 * second booking; what is copied (the second body key by key), the COD check, unknown numbers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { bookThroughModal, next } from '../support/booking-flow.js';
import { elementOf, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

afterEach(async () => {
  await bot?.stop();
});

const bookings = () => bot.sandbox.received.filter((r) => r.operation === 'book');

/** Next on every step, typing nothing: what was copied goes through as it is. */
async function throughToReview(first: View): Promise<View> {
  let view = first;
  for (let step = 0; step < 4; step += 1) view = await next(bot, view);
  expect(view.callback_id).toBe(ids.bookingReview);
  return view;
}

describe('Rebook', () => {
  it('on the card opens /book with the booking copied, new numbers and dates, COD pointed out, and books it after review', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    const card = bot.fake.callsTo('chat.postMessage')[0];
    const rebook = card?.body.blocks as { type: string; elements?: { action_id: string; value: string }[] }[];
    const button = rebook.flatMap((b) => b.elements ?? []).find((e) => e.action_id === ids.bookRebook);
    expect(button?.value).toBe('WB000001');

    await bot.clickInMessage(ids.bookRebook, 'WB000001');
    const opened = await bot.fake.waitFor('views.open', undefined, { count: 2 });
    const answer = opened.response?.body as { view: { id: string; hash: string } };
    const first = { ...(opened.body.view as View), id: answer.view.id, hash: answer.view.hash };
    expect(first.callback_id).toBe(ids.bookingStep);
    const shown = textOf(first.blocks);
    expect(shown).toContain('Rebooking `WB000001`');
    expect(shown).toContain('*Check the COD amount*: PHP 1,500.00 is copied from `WB000001`');
    expect(elementOf(first, 'trackingNumber').initial_value).toBeUndefined();
    expect(elementOf(first, 'codAmount').initial_value).toBe('1500.00');
    expect(elementOf(first, 'paymentMethod').initial_option.value).toBe('COD');
    expect(elementOf(first, 'itemDescription').initial_value).toBe('Kitchen scales');
    expect(elementOf(first, 'reference1').initial_value).toBeUndefined();
    expect(elementOf(first, 'pickupAt.date').initial_date).toBe('2026-11-23');
    // Opening the copy sent nothing.
    expect(bookings()).toHaveLength(1);

    const review = await throughToReview(first);
    const reviewed = textOf(review.blocks);
    expect(reviewed).toContain('*Check the COD amount*');
    expect(reviewed).toContain('WB000002-03');
    expect(bookings()).toHaveLength(1);

    await bot.submit(review);
    await bot.idle();
    await bot.updatedView(first.id, (v) => textOf(v.blocks).includes('Booked `WB000002`'));
    const [original = {}, copy] = bookings().map((r) => r.body as Record<string, unknown>);
    // The same booking, key by key, but for its numbers and references.
    expect(copy).toEqual({
      ...original,
      trackingNumber: 'WB000002',
      referenceNumber1: '',
      childWaybills: (original.childWaybills as Record<string, unknown>[]).map((child, i) => ({
        ...child,
        trackingNumber: `WB000002-0${i + 1}`,
      })),
    });
    expect((await bot.deps.store.bookings.get('WB000002'))?.bookedBy).toBe('UDISPATCH');
  });

  it('by /waybill rebook, with no COD warning at review once the amount was changed', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    const unknown = await bot.command('/waybill', 'rebook WB999999');
    expect(unknown.body.text).toContain('I have no record of waybill `WB999999`');
    const escaped = await bot.command('/waybill', 'rebook <!channel>');
    // Read as a tracking number is written (upper case), and escaped.
    expect(escaped.body.text).toContain('`&lt;!CHANNEL&gt;`');

    await bot.command('/waybill', 'rebook WB000001');
    const first = await bot.openedView();
    expect(textOf(first.blocks)).toContain('*Check the COD amount*');
    let view = await next(bot, first, { codAmount: '1750' });
    for (let step = 0; step < 3; step += 1) view = await next(bot, view);
    expect(view.callback_id).toBe(ids.bookingReview);
    expect(textOf(view.blocks)).not.toContain('Check the COD amount');
    expect(textOf(view.blocks)).toContain('1750.00');
    expect(bookings()).toHaveLength(1);
  });

  it('a prepaid booking is copied without a COD warning; the help names rebook', async () => {
    bot = await startTestBot();
    await bot.command('/book');
    let view = await bot.openedView();
    const prepaid = {
      paymentMethod: 'PREPAID',
      itemDescription: 'Documents',
      'package.type': 'DOCUMENTS',
      'package.weight': '0.5',
      operatorContactNumber: '0917 555 0100',
    };
    view = await next(bot, view, prepaid);
    view = await next(bot, view, {
      'consignee.name': 'Ben Cruz',
      'consignee.phone': '0918 000 1111',
      'consignee.street': '1 Luna St',
      'consignee.city': 'Manila',
      'consignee.country': 'PH',
    });
    await bot.selectInView(view, ids.bookingProfile, 'makati-office');
    view = await bot.updatedView(view.id, (v) => textOf(v.blocks).includes('Makati'));
    view = await next(bot, await next(bot, view));
    await bot.submit(view);
    await bot.idle();
    await bot.fake.waitFor('chat.postMessage');

    await bot.command('/waybill', 'rebook WB000001');
    const first = await bot.openedView();
    expect(textOf(first.blocks)).toContain('Rebooking `WB000001`');
    expect(textOf(first.blocks)).not.toContain('Check the COD amount');
    expect(elementOf(first, 'codAmount').initial_value).toBeUndefined();
    expect(elementOf(first, 'declaredValue').initial_value).toBeUndefined();
    const review = await throughToReview(first);
    expect(textOf(review.blocks)).not.toContain('Check the COD amount');
    // Booked with no return party (the courier got the sender's): the copy leaves it empty again.
    expect(bookings()[0]?.body).toMatchObject({ returnName: expect.stringContaining('Acme') });
    await bot.clickInView(review, ids.bookingBack);
    const parcels = await bot.updatedView(review.id, (v) => textOf(v.title).includes('4/5'));
    await bot.clickInView(parcels, ids.bookingBack);
    const sender = await bot.updatedView(review.id, (v) => textOf(v.title).includes('3/5'));
    expect(elementOf(sender, 'shipper.name').initial_value).toContain('Acme');
    expect(elementOf(sender, 'returnTo.name').initial_value).toBeUndefined();

    const help = await bot.command('/waybill', 'help');
    expect(help.body.text).toContain('/waybill rebook <tracking number>');
  });
});
