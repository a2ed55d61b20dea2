/**
 * Places through signed requests on both backends: a barangay outside its city refused inline on `/book`,
 * Book from this message and `/quote` with where it is, a province that does not hold the city, places that
 * fit booked with their official names on the wire, QC and districts understood; a postal code not of its
 * city warned of on the review, then booked; `WAYBILL_PLACE_CHECK=warn`'s warning on the review.
 */
// Places on the official list through signed Slack requests, on both backends: a barangay outside its city refused inline on /book, Book from this message and /quote with where it is, places that fit booked with their names on the wire, and WAYBILL_PLACE_CHECK=warn's warning on the review.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { describeEachBackend } from '../store/backends.js';
import { bookFromSenderStep, next, receiver, receiverStep, shipment } from '../support/booking-flow.js';
import {
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);
const blockOf = (view: View, path: string): string =>
  view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)?.block_id;

const inMakati = { ...receiver, 'consignee.city': 'Makati', 'consignee.barangay': 'Brgy. Lahug' };
const inCebu = {
  ...receiver,
  'consignee.region': 'Cebu',
  'consignee.city': 'Cebu City',
  'consignee.barangay': 'Lahug',
};
const whereLahugIs =
  /^Receiver barangay "Brgy\. Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/;

/** The warnings at the top of a review. */
const warningsOf = (review: View): string[] =>
  review.blocks
    .filter((block) => block.type === 'context')
    .map((block) => block.elements[0].text as string)
    .filter((text) => text.startsWith(':warning:'));

let bot: TestBot;

describeEachBackend(import.meta.filename, 'places', (backend) => {
  const startTestBot = (options: TestBotOptions = {}) => startBot({ backend, ...options });

  afterEach(async () => {
    await bot?.stop();
  });

  it('/book refuses a barangay outside its city next to its input, naming where it is; places that fit are booked', async () => {
    bot = await startTestBot();
    const second = await receiverStep(bot);
    const refused = await bot.submit(second, inMakati);
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: { [blockOf(second, 'consignee.barangay')]: expect.stringMatching(whereLahugIs) },
    });
    const wrongProvince = await bot.submit(second, { ...inCebu, 'consignee.region': 'Metro Manila' });
    expect(Object.values(wrongProvince.body.errors)).toEqual([
      'Receiver city "Cebu City" is not in Metro Manila: there is City of Cebu, Cebu',
    ]);

    const third = await next(bot, second, inCebu);
    await bookFromSenderStep(bot, third, { id: 'pasig-warehouse', shows: 'Acme Pasig Warehouse' });
    expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['book']);
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeAddress1: 'Cebu',
      consigneeAddress2: 'City of Cebu',
      consigneeAddress4: 'Lahug',
      shipperAddress1: 'Metro Manila',
      shipperAddress2: 'City of Pasig',
    });
  });

  it('Book from this message reads the places as written, and the receiver step refuses them the same way', async () => {
    bot = await startTestBot();
    await bot.messageShortcut(
      'pls book 1 box to Ana Cruz, 0917 123 4567, 7 Gorordo Ave, Brgy. Lahug, City: Makati',
    );
    const second = await next(bot, await bot.openedView(), shipment);
    const refused = await bot.submit(second, { 'consignee.country': 'PH' });
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: {
        [blockOf(second, 'consignee.barangay')]: expect.stringMatching(
          /^Receiver barangay "Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/,
        ),
      },
    });
    // Fixed in place: the city the barangay is in.
    const third = await next(bot, second, { 'consignee.country': 'PH', 'consignee.city': 'Cebu City' });
    expect(third.callback_id).toBe(ids.bookingStep);
  });

  it('keeps each place by its official name, QC and districts understood: /book, Book from this message', async () => {
    bot = await startTestBot();
    const everyday = [
      [{ 'consignee.city': 'QC', 'consignee.barangay': 'Cubao' }, 'Quezon City', 'Cubao', ''],
      [{ 'consignee.city': 'Manila', 'consignee.barangay': 'Sampaloc' }, 'City of Manila', 'Sampaloc', ''],
      [{ 'consignee.city': 'Cubao', 'consignee.barangay': 'socorro' }, 'Quezon City', 'Cubao', 'Socorro'],
    ] as const;
    for (const [typed] of everyday) {
      const third = await next(bot, await receiverStep(bot), {
        ...receiver,
        ...typed,
        'consignee.postal': '',
      });
      await bookFromSenderStep(bot, third, { id: 'pasig-warehouse', shows: 'Acme Pasig Warehouse' });
    }
    await bot.messageShortcut('pls book 1 box to Ana Cruz, 0917 123 4567, 7 Sucat Rd, City: Paranaque');
    const second = await next(bot, await bot.openedView(), shipment);
    const third = await next(bot, second, { 'consignee.country': 'PH' });
    await bookFromSenderStep(bot, third, { id: 'pasig-warehouse', shows: 'Acme Pasig Warehouse' });

    const sent = bot.sandbox.received.map(({ body }) => body);
    expect(sent).toHaveLength(4);
    everyday.forEach(([, city, district, barangay], i) => {
      expect(sent[i]).toMatchObject({
        consigneeAddress2: city,
        consigneeAddress3: district,
        consigneeAddress4: barangay,
        shipperAddress2: 'City of Pasig',
      });
    });
    expect(sent[3]).toMatchObject({ consigneeAddress2: 'City of Parañaque' });
  });

  it("warns on the review of a postal code that is not its city's, and books once confirmed", async () => {
    bot = await startTestBot();
    const third = await next(bot, await receiverStep(bot), { ...inCebu, 'consignee.postal': '1000' });
    await bot.selectInView(third, ids.bookingProfile, 'pasig-warehouse');
    const sender = await bot.updatedView(third.id, (v) => textOf(v.blocks).includes('Acme Pasig Warehouse'));
    const review = await next(bot, await next(bot, sender));
    expect(review.callback_id).toBe(ids.bookingReview);
    expect(warningsOf(review)).toEqual([
      ':warning: Receiver postal code "1000" is not a postal code of City of Cebu, Cebu (6000)',
    ]);
    await bot.submit(review);
    await bot.idle();
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneePostal: '1000',
      consigneeAddress2: 'City of Cebu',
    });
  });

  it('/quote refuses a barangay outside its city next to its input', async () => {
    bot = await startTestBot();
    await bot.command('/quote', quoteCommandText);
    const form = await bot.openedView();
    const refused = await bot.submit(form, {
      ...quoteTyped,
      'consignee.city': 'Makati',
      'consignee.barangay': 'Brgy. Lahug',
    });
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: { [blockOf(form, 'consignee.barangay')]: expect.stringMatching(whereLahugIs) },
    });
    expect(bot.sandbox.received).toHaveLength(0);
  });

  it('with WAYBILL_PLACE_CHECK=warn, lets the places through and warns of them on the review', async () => {
    bot = await startTestBot({ env: { WAYBILL_PLACE_CHECK: 'warn' } });
    const third = await next(bot, await receiverStep(bot), inMakati);
    await bot.selectInView(third, ids.bookingProfile, 'pasig-warehouse');
    const sender = await bot.updatedView(third.id, (v) => textOf(v.blocks).includes('Acme Pasig Warehouse'));
    const review = await next(bot, await next(bot, sender));
    expect(review.callback_id).toBe(ids.bookingReview);
    const warnings = warningsOf(review);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.replace(':warning: ', '')).toMatch(whereLahugIs);
  });
});
