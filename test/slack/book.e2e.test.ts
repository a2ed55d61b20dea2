/**
 * `/book` end to end, on SQLite and PostgreSQL: every step, a profile, three parcels, the exact body, card,
 * stored rows, double submit, an edited booking after a rejection, unknown outcome never resent, restart.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { startSandbox } from '../../src/waybill/sandbox/server.js';
import { describeEachBackend } from '../store/backends.js';
import {
  fillToReview as fillBooking,
  next as nextStep,
  parcel,
  receiver,
  shipment,
} from '../support/booking-flow.js';
import {
  secrets,
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';
import { sampleBooking } from '../support/wire-samples.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

const fillToReview = () => fillBooking(bot);
const next = (view: View, typed: Record<string, string | null> = {}) => nextStep(bot, view, typed);

/** A booking the courier refuses with this reason: its review and the failure shown. */
async function refusedBooking(remarks: string): Promise<{ review: View; failed: View }> {
  const review = await fillToReview();
  bot.sandbox.injectNext({
    status: 400,
    body: JSON.stringify({ ResponseCode: '400', ResponseDetail: 'Invalid request', remarks }),
  });
  await bot.submit(review);
  await bot.idle();
  return { review, failed: await bot.updatedView(review.id, (v) => textOf(v.blocks).includes(remarks)) };
}

/** "Change details" on an outcome, the first step typed over, the other steps as they are: the review. */
async function changeDetails(outcome: View, typed: Record<string, string>): Promise<View> {
  await bot.clickInView(outcome, ids.bookingEdit);
  const first = await bot.updatedView(outcome.id, (v) => textOf(v.title).includes('1/5'));
  let view = await next(first, typed);
  for (let step = 0; step < 3; step += 1) view = await next(view);
  return view;
}

// The whole flow on each store backend: SQLite, and PostgreSQL when TEST_DATABASE_URL is set.
describeEachBackend(import.meta.filename, '/book', (backend) => {
  const startTestBot = (options: TestBotOptions = {}) => startBot({ backend, ...options });

  afterEach(async () => {
    await bot?.stop();
    const leaked = bot.logs.filter((line) => Object.values(secrets).some((secret) => line.includes(secret)));
    expect(leaked).toEqual([]);
  });

  it('books through every step with a sender profile and three parcels, exactly as the interface says', async () => {
    bot = await startTestBot({ env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    const review = await fillToReview();
    expect(review.callback_id).toBe(ids.bookingReview);
    const shown = textOf(review.blocks);
    expect(shown).toContain('WB000001');
    expect(shown).toContain('WB000001-03');
    expect(shown).toContain('2026-11-23 10:00:00.000');
    // Each field named as the form names it, never by its wire key.
    expect(shown).toContain('*Receiver name*\\nMaria Santos');
    expect(shown).toContain('*Operator contact number*\\n+63 917 555 0100');
    expect(shown).toContain('*Receiver city*');
    expect(shown).not.toMatch(/\*(consignee|shipper|return)[A-Z]\w*\*|\*OperatorContactNumber\*/);

    const ack = await bot.submit(review);
    expect(textOf(ack.body.view)).toContain('Booking');
    await bot.idle();

    expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['book']);
    expect(bot.sandbox.received[0]?.body).toStrictEqual({
      OperatorContactNumber: '+63 917 555 0100',
      ServiceType: 'DOOR_TO_DOOR',
      trackingNumber: 'WB000001',
      referenceNumber1: 'PO-77',
      referenceNumber2: '',
      referenceNumber3: '',
      referenceNumber4: '',
      referenceNumber5: '',
      pickupDate: '2026-11-23 10:00:00.000',
      expectedDeliveryDate: '2026-11-24 17:00:00.000',
      paymentMethod: 'COD',
      codAmount: '1500.00',
      declaredValue: '2000.00',
      quantity: '3',
      shipperCode: 'ACME-PSG',
      shipperName: 'Acme Pasig Warehouse',
      shipperAddress: 'Lot 4 Sample Industrial Compound, 25 E. Rodriguez Jr. Avenue',
      shipperCountry: 'PH',
      shipperAddress1: 'Metro Manila',
      shipperAddress2: 'City of Pasig',
      shipperAddress3: '',
      shipperAddress4: 'Bagong Ilog',
      shipperPostal: '1600',
      shipperContact: '0917 000 0202',
      shipperEmail: 'warehouse@acme.example.ph',
      shipperLongitude: '121.0851',
      shipperLatitude: '14.5764',
      consigneeName: 'Maria Santos',
      consigneeAddress: '88 Rizal Ave',
      consigneeCountry: 'PH',
      consigneeAddress1: '',
      consigneeAddress2: 'City of Cebu',
      consigneeAddress3: '',
      consigneeAddress4: '',
      consigneePostal: '6000',
      consigneeContact: '0917 123 4567',
      consigneeEmail: '',
      consigneeLongitude: '',
      consigneeLatitude: '',
      returnName: 'Acme Returns Desk',
      returnAddress: 'Unit 3, 88 Sample Street',
      returnCountry: 'PH',
      returnAddress1: 'Metro Manila',
      returnAddress2: 'Quezon City',
      returnAddress3: 'Diliman',
      returnAddress4: '',
      returnPostal: '1101',
      returnContact: '0917 000 0303',
      returnEmail: 'returns@acme.example.ph',
      returnLongitude: '',
      returnLatitude: '',
      itemDescription: 'Kitchen scales',
      handlingInstructions: 'Fragile',
      merchantName: 'Acme Trading Inc.',
      packageType: 'BOX',
      packageLength: '40',
      packageWidth: '30',
      packageHeight: '20',
      Packagevolume: '24000',
      PackageWeight: '4.5',
      warehouseName: 'Pasig Warehouse 2',
      childWaybills: [1, 2, 3].map((n) => ({
        trackingNumber: `WB000001-0${n}`,
        packageType: 'BOX',
        itemDescription: `Scale ${n}`,
        remarks: '',
        length: 30,
        width: 20,
        weight: n === 3 ? 1.25 : 1.5,
        height: 10,
        uom: 'CM',
        quantity: 1,
      })),
    });

    const done = await bot.updatedView(review.id, (v) => v.callback_id === ids.bookingOutcome);
    expect(textOf(done.blocks)).toContain('Booked `WB000001`');
    expect(textOf(done.blocks)).toContain('SBX00000001');

    const cards = bot.fake.callsTo('chat.postMessage');
    expect(cards.map((c) => c.body.channel)).toEqual(['CDISPATCH', 'CAUDIT']);
    const card = textOf(cards[0]?.body.blocks);
    for (const expected of [
      '<@UDISPATCH>',
      'WB000001',
      'SBX00000001',
      'Maria Santos',
      'PHP 1,500.00',
      '3 parcels',
      'Sandbox',
    ]) {
      expect(card).toContain(expected);
    }
    expect(card).toContain(ids.waybillUpdate);

    const stored = await bot.deps.store.bookings.get('WB000001');
    expect(stored).toMatchObject({
      trackingRefNo: 'SBX00000001',
      channelId: 'CDISPATCH',
      bookedBy: 'UDISPATCH',
      cardChannelId: 'CDISPATCH',
      cardTs: cards[0]?.response?.body && (cards[0].response.body as { ts: string }).ts,
    });
    expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({
      outcome: 'ok',
      userId: 'UDISPATCH',
      trackingNumber: 'WB000001',
    });
  });

  it('shows each step its own errors inline, naming the field', async () => {
    bot = await startTestBot();
    await bot.command('/book');
    const first = await bot.openedView();
    const bad = await bot.submit(first, {
      ...shipment,
      codAmount: '',
      'package.weight': '-1',
      operatorContactNumber: '12',
    });
    expect(bad.body).toMatchObject({
      response_action: 'errors',
      errors: {
        [blockOf(first, 'codAmount')]:
          'COD amount must be more than 0 when the payment method is Cash on delivery',
        [blockOf(first, 'package.weight')]:
          'Package weight must be a number more than 0 and at most 100000 kg',
        [blockOf(first, 'operatorContactNumber')]: expect.stringContaining(
          'Operator contact number has too few digits for a phone number in PH',
        ),
      },
    });
    // Errors of later steps (no receiver yet) are not shown on this one.
    expect(Object.keys(bad.body.errors)).toHaveLength(3);
    // Before today in the courier's time zone (the harness's clock: 2026-11-23 in Manila).
    const past = await bot.submit(first, { ...shipment, 'pickupAt.date': '2026-11-22' });
    expect(past.body).toEqual({
      response_action: 'errors',
      errors: { [blockOf(first, 'pickupAt.date')]: 'Pickup date must be today (2026-11-23) or later' },
    });

    const second = await next(first, shipment);
    const receiverErrors = await bot.submit(second, {
      ...receiver,
      'consignee.country': 'Philippines',
      'consignee.phone': '12ab',
    });
    expect(Object.values(receiverErrors.body.errors)).toEqual([
      'Receiver country must be a two-letter country code, e.g. PH',
      'Receiver phone must be a phone number: digits, spaces and + - ( ) only',
    ]);
    // A mobile number short of a digit: no one can dial it, so it is refused next to its input.
    const undialled = await bot.submit(second, { ...receiver, 'consignee.phone': '0918 555 020' });
    expect(undialled.body).toEqual({
      response_action: 'errors',
      errors: {
        [blockOf(second, 'consignee.phone')]:
          'Receiver phone is not a phone number that can be dialled in PH, e.g. 0917 123 4567 or (02) 8123 4567',
      },
    });
    const third = await next(second, receiver);
    const senderErrors = await bot.submit(third, { 'shipper.name': 'Me', 'returnTo.city': 'Cebu' });
    expect(senderErrors.body.errors).toMatchObject({
      [blockOf(third, 'shipper.phone')]: 'Sender phone is required',
      [blockOf(third, 'returnTo.name')]: expect.stringContaining(
        'Return name is required when a return party is given',
      ),
    });
    expect(bot.sandbox.received).toHaveLength(0);
  });

  it('keeps every value when going back and forth', async () => {
    bot = await startTestBot();
    await bot.command('/book');
    const first = await bot.openedView();
    const second = await next(first, shipment);
    await bot.clickInView(second, ids.bookingBack, undefined, {
      ...receiver,
      'consignee.name': 'Typed before Back',
    });
    const back = await bot.updatedView(first.id, (v) => textOf(v.blocks).includes('Kitchen scales'));
    expect(back.blocks.find((b) => b.block_id?.startsWith('codAmount#')).element.initial_value).toBe('1500');
    expect(back.blocks.find((b) => b.block_id?.startsWith('trackingNumber#'))).toBeDefined();
    const again = await next(back, {});
    expect(again.blocks.find((b) => b.block_id?.startsWith('consignee.name#')).element.initial_value).toBe(
      'Typed before Back',
    );
  });

  it('validates the draft once when Next shows the review, and once when Confirm sends it', async () => {
    bot = await startTestBot();
    const review = await fillToReview();
    await bot.clickInView(review, ids.bookingBack);
    const parcels = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Parcel 3: weight'));
    const parses = vi.spyOn(bot.deps.schemas.booking, 'safeParse');
    const again = await next(parcels, { ...parcel(0, '1.5'), ...parcel(1, '1.5'), ...parcel(2, '1.25') });
    expect(again.callback_id).toBe(ids.bookingReview);
    expect(parses).toHaveBeenCalledTimes(1);
    parses.mockClear();
    await bot.submit(again);
    await bot.idle();
    expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['book']);
    expect(parses).toHaveBeenCalledTimes(1);
    // Bots of the same settings share their schemas: the next test's bot parses unwatched.
    parses.mockRestore();
  });

  it('sends one request for a double submission, and answers the second with the first outcome', async () => {
    bot = await startTestBot();
    const review = await fillToReview();
    const [first, second] = await Promise.all([bot.submit(review), bot.submit(review)]);
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
    // The second sees the first in flight, or already booked if it arrived that late.
    const titles = [first, second].map((r) => r.body.view.title.text).sort();
    expect([
      ['Booking…', 'Booking…'],
      ['Booked', 'Booking…'],
    ]).toContainEqual(titles);
    const replay = await bot.submit(review);
    expect(textOf(replay.body.view)).toContain('Booked `WB000001`');
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
  });

  it('shows the courier refusing a duplicate tracking number, keeps the draft, and books it under a new one', async () => {
    bot = await startTestBot();
    // The courier already has WB000001, booked some other way.
    const elsewhere = await fetch(`${bot.sandbox.baseUrl}API/Waybill/WaybillRequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secrets.upstreamToken}` },
      body: JSON.stringify(sampleBooking('WB000001')),
    });
    expect(elsewhere.status).toBe(200);
    const review = await fillToReview();
    await bot.submit(review);
    await bot.idle();
    const failed = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Not booked'));
    expect(textOf(failed.blocks)).toContain('Duplicate trackingNumber');
    expect(await bot.deps.store.bookings.get('WB000001')).toBeUndefined();
    expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({ outcome: 'failed' });
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(0);

    const view = await changeDetails(failed, { trackingNumber: 'WB-NEW-1' });
    expect(textOf(view.blocks)).toContain('Kitchen scales');
    expect(textOf(view.blocks)).toContain('WB-NEW-1-03');
    await bot.submit(view);
    await bot.idle();
    await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Booked `WB-NEW-1`'));
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(3);
    expect((await bot.deps.store.bookings.get('WB-NEW-1'))?.trackingRefNo).toBe('SBX00000002');
  });

  it('lets a failed booking be tried again as it is', async () => {
    bot = await startTestBot();
    const { review, failed } = await refusedBooking('route closed');
    await bot.clickInView(failed, ids.bookingRetry);
    await bot.idle();
    await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Booked `WB000001`'));
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(2);
  });

  it('sends an edited booking after a rejection, from Change details', async () => {
    bot = await startTestBot();
    const { review, failed } = await refusedBooking('COD too high');
    const view = await changeDetails(failed, { codAmount: '900' });
    expect(textOf(view.blocks)).toContain('900.00');
    const ack = await bot.submit(view);
    expect(textOf(ack.body.view)).toContain('Booking');
    expect(textOf(ack.body.view)).not.toContain('COD too high');
    await bot.idle();
    const books = bot.sandbox.received.filter((r) => r.operation === 'book');
    expect(books.map((r) => (r.body as { codAmount: string }).codAmount)).toEqual(['1500.00', '900.00']);
    await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Booked `WB000001`'));
    // The edited booking, confirmed twice (a double click), is still sent once.
    const replay = await bot.submit(view);
    expect(textOf(replay.body.view)).toContain('Booked `WB000001`');
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(2);
  });

  it('records a booking whose outcome is unknown, says so, and never sends it again by itself, even edited', async () => {
    bot = await startTestBot({ timeoutMs: 500 });
    const review = await fillToReview();
    bot.sandbox.injectNext({ dropAfterProcessing: true });
    await bot.submit(review);
    await bot.idle();
    const unknown = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('outcome unknown'));
    expect(textOf(unknown.blocks)).toContain('Check with the courier');
    expect(textOf(unknown.blocks)).not.toContain(ids.bookingRetry);
    expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({ outcome: 'unknown' });
    const replay = await bot.submit(review);
    expect(textOf(replay.body.view)).toContain('outcome unknown');
    // Not even a changed booking from a replayed "Change details": the courier may have the first.
    const edited = await bot.submit(await changeDetails(unknown, { codAmount: '900' }));
    expect(textOf(edited.body.view)).toContain('outcome unknown');
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
  });

  it('resumes a draft after a restart between steps', async () => {
    const sandbox = await startSandbox({ token: secrets.upstreamToken });
    let store = await backend.open();
    bot = await startTestBot({ store, sandbox });
    await bot.command('/book');
    const first = await bot.openedView();
    const second = await next(first, shipment);
    await bot.stop();
    await store.close();

    store = await backend.open();
    bot = await startTestBot({ store, sandbox });
    const third = await next(second, receiver);
    expect(third.blocks.some((b) => b.block_id?.startsWith('shipper.name#'))).toBe(true);
    await bot.clickInView(third, ids.bookingBack);
    const back = await bot.updatedView(second.id, (v) => textOf(v.blocks).includes('Maria Santos'));
    expect(
      back.blocks.find((b) => b.block_id?.startsWith('consignee.city#')).element.initial_option?.value,
    ).toBe('Cebu City');
    await bot.stop();
    await store.close();
    await sandbox.close();
    bot = await startTestBot();
  });

  it('opens /book pre-filled from a posted quote\'s "Book this"', async () => {
    bot = await startTestBot();
    await bot.command('/quote', 'weight=2.5 to_city="Cebu City" from_city=Makati');
    const quoteView = await bot.openedView();
    await bot.submit(quoteView, {
      paymentMethod: 'PREPAID',
      'shipper.street': '1 A St',
      'shipper.country': 'PH',
      'consignee.street': '2 B St',
      'consignee.country': 'PH',
      'package.type': 'BOX',
    });
    await bot.idle();
    const posted = bot.fake.callsTo('chat.postMessage')[0];
    const button = textOf(posted?.body.blocks).match(
      /"action_id":"book_from_quote","text":[^}]+},"value":"([^"]+)"/,
    );
    expect(button?.[1]).toBeTruthy();
    await bot.clickInMessage(ids.bookFromQuote, button?.[1] ?? '');
    const opened = await bot.fake.waitFor('views.open', undefined, { count: 2 });
    const view = opened.body.view as View;
    expect(view.callback_id).toBe(ids.bookingStep);
    const initial = (path: string) => view.blocks.find((b) => b.block_id?.startsWith(`${path}#`))?.element;
    expect(initial('package.weight').initial_value).toBe('2.5');
    expect(initial('paymentMethod').initial_option.value).toBe('PREPAID');
    expect(initial('pickupAt.date').initial_date).toBe('2026-11-23');
  });

  it('leaves out a pre-fill its input cannot hold, naming the field, so Slack still opens the form', async () => {
    bot = await startTestBot();
    await bot.command('/book', 'parcels=2.5 weight=4.5 delivery=24/11/2026');
    const view = await bot.openedView();
    // The number of parcels is asked at the parcels step, but its refusal is said at once.
    const shown = textOf(view.blocks);
    expect(shown).toContain('Ignored \\"parcels=2.5\\": Number of parcels must be a whole number');
    expect(shown).toContain('Ignored \\"delivery=24/11/2026\\": Expected delivery date must be a date');
    const element = (path: string) => view.blocks.find((b) => b.block_id?.startsWith(`${path}#`))?.element;
    expect(element('package.weight').initial_value).toBe('4.5');
    expect(element('expectedDeliveryAt.date').initial_date).toBe('2026-11-24');
  });
});

function blockOf(view: View, path: string): string {
  return view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)
    ?.block_id;
}
