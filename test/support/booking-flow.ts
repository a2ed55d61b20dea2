/** A booking typed through every step of the modal, for the end-to-end tests. */
import { parse } from 'csv-parse/sync';
import { afterEach, expect } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { BookingRecord } from '../../src/store/index.js';
import { parcel, receiver, shipment } from './booking-typed.js';
import { secrets, startTestBot, type TestBot } from './bot-harness.js';
import type { SlackDriver, View } from './slack-driver.js';

export { parcel, receiver, shipment };

/** A booking typed through every step of the /book modal, the way a dispatcher would. */

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

export async function next(
  bot: SlackDriver,
  view: View,
  typed: Record<string, string | null> = {},
): Promise<View> {
  return bot.ackedView(await bot.submit(view, typed), view.id);
}

/** /book, then Shipment → Receiver → Sender (with a profile) → Parcels (three) → Review. */
export async function fillToReview(bot: SlackDriver): Promise<View> {
  await bot.command('/book');
  return fillStepsToReview(bot, await bot.openedView());
}

/** /book to its receiver step, the shipment typed. */
export async function receiverStep(bot: SlackDriver): Promise<View> {
  await bot.command('/book');
  return next(bot, await bot.openedView(), shipment);
}

/** From the first booking step on screen: every step typed, a profile, three parcels, to the review. */
export async function fillStepsToReview(bot: SlackDriver, first: View): Promise<View> {
  expect(first.callback_id).toBe(ids.bookingStep);
  const second = await next(bot, first, shipment);
  const third = await next(bot, second, receiver);
  await bot.selectInView(third, ids.bookingProfile, 'pasig-warehouse');
  let sender = await bot.updatedView(third.id, (v) => textOf(v.blocks).includes('Acme Pasig Warehouse'));
  const parcels = await next(bot, sender, {});
  await bot.clickInView(parcels, ids.bookingAddParcel);
  let rows = await bot.updatedView(parcels.id, (v) => textOf(v.blocks).includes('Parcel 1: weight'));
  await bot.clickInView(rows, ids.bookingAddParcel, undefined, parcel(0, '1.5'));
  rows = await bot.updatedView(parcels.id, (v) => textOf(v.blocks).includes('Parcel 2: weight'));
  await bot.clickInView(rows, ids.bookingAddParcel, undefined, { ...parcel(0, '1.5'), ...parcel(1, '1.5') });
  rows = await bot.updatedView(parcels.id, (v) => textOf(v.blocks).includes('Parcel 3: weight'));
  sender = rows;
  return next(bot, sender, { ...parcel(0, '1.5'), ...parcel(1, '1.5'), ...parcel(2, '1.25') });
}

/** Books WB000001 through the modal and waits until its card is posted. */
export async function bookThroughModal(bot: TestBot): Promise<void> {
  const review = await fillToReview(bot);
  await bot.submit(review);
  await bot.idle();
  await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body.blocks).includes('Booked `WB000001`'));
}

/** From the sender step on screen: a sender profile chosen (its view showing `shows`), no parcels, booked. */
export async function bookFromSenderStep(
  bot: TestBot,
  sender: View,
  profile: { id: string; shows: string },
): Promise<void> {
  await bot.selectInView(sender, ids.bookingProfile, profile.id);
  const withProfile = await bot.updatedView(sender.id, (v) => textOf(v.blocks).includes(profile.shows));
  const review = await next(bot, await next(bot, withProfile));
  expect(review.callback_id).toBe(ids.bookingReview);
  await bot.submit(review);
  await bot.idle();
}

type BotOptions = Parameters<typeof startTestBot>[0];

/**
 * For a test file whose tests start bots: `started` starts one, stopped after its test with no secret
 * in its logs; `booked` also books WB000001 (its card in CDISPATCH, a copy in CAUDIT) and forgets
 * Slack's calls so far.
 */
/** A booking whose courier outcome is unknown: the connection cut after the courier booked it, so the bot cannot tell whether it did. */
export async function bookUnknown(bot: TestBot): Promise<void> {
  const review = await fillToReview(bot);
  bot.sandbox.injectNext({ dropAfterProcessing: true });
  await bot.submit(review);
  await bot.idle();
}

export function botsPerTest() {
  const bots: TestBot[] = [];
  afterEach(async () => {
    for (const bot of bots.splice(0)) {
      await bot.stop();
      const leaked = bot.logs.filter((line) =>
        Object.values(secrets).some((secret) => line.includes(secret)),
      );
      expect(leaked).toEqual([]);
    }
  });
  async function started(options: BotOptions): Promise<TestBot> {
    const bot = await startTestBot(options);
    bots.push(bot);
    return bot;
  }
  async function booked(options: BotOptions): Promise<TestBot> {
    const bot = await started({ ...options, env: { AUDIT_CHANNEL_ID: 'CAUDIT', ...options?.env } });
    await bookThroughModal(bot);
    bot.fake.reset();
    return bot;
  }
  return { started, booked };
}

/** The Home tab `user` is shown when they open it, as the bot published it. */
export async function openedHome(bot: TestBot, user = 'UDISPATCH'): Promise<string> {
  const published = bot.fake.callsTo('views.publish').length;
  await bot.event({ type: 'app_home_opened', user, channel: 'DHOME', tab: 'home' });
  return textOf((await bot.fake.waitFor('views.publish', undefined, { count: published + 1 })).body.view);
}

/** `/waybill export` of today, the day the store stamps with the real clock, in the waybill's time zone: its lines. */
export async function exportedToday(
  bot: TestBot,
): Promise<{ today: string; rows: Record<string, string>[] }> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date());
  await bot.command('/waybill', `export ${today}`);
  await bot.idle();
  const [upload] = bot.fake.uploadsCompleted();
  return { today, rows: parse(upload?.text ?? '', { bom: true, columns: true }) as Record<string, string>[] };
}

/** A `book_waybill` step's inputs as a workflow gives them: one parcel for `name`, its card in `channel`. */
export function bookStepInputs(channel = 'CORDERS', name = 'Maria Santos') {
  return {
    receiver_name: name,
    receiver_phone: '0917 123 4567',
    receiver_address: '88 Rizal Ave',
    receiver_city: 'Cebu City',
    cod_amount: '1500.00',
    weight_kg: 1,
    item_description: 'Scales',
    channel_id: channel,
    requested_by: 'UDISPATCH',
  };
}

/**
 * A copy of WB000001 (booked through the modal) stored as `trackingNumber`: in WB000001's conversation
 * and picked up when it is, unless `channelId` or `pickupAt` says otherwise.
 */
export async function copyOfFirst(
  bot: TestBot,
  trackingNumber: string,
  { channelId, pickupAt }: { channelId?: string; pickupAt?: Date } = {},
): Promise<void> {
  const first = (await bot.deps.store.bookings.get('WB000001')) as BookingRecord<Record<string, unknown>>;
  await bot.deps.store.bookings.insert({
    ...first,
    trackingNumber,
    ...(channelId ? { channelId } : {}),
    record: { ...first.record, trackingNumber, ...(pickupAt ? { pickupAt: pickupAt.toISOString() } : {}) },
    ...(pickupAt ? { pickupAt } : {}),
  });
}
