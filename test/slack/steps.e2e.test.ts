/**
 * Workflow Builder steps end to end: `function_executed` over HTTP and Socket Mode, ended through the fake
 * Slack's functions.completeSuccess / completeError. `quote_delivery`'s outputs and audit entry;
 * `book_waybill` (on SQLite and PostgreSQL) booked once under the same event again and the same execution in
 * another event, an unknown outcome resolved in the channel and never sent again; `record_status` (card,
 * thread line, audit, once); inputs refused named by input; the user a step names refused and allowed;
 * `ALLOWED_CHANNEL_IDS` on a booking step's channel; `find_waybill`'s newest ten, its filters' errors, its
 * user and the channel rule; a pickup before today refused; a step the bot does not provide ended naming it;
 * step events without their execution id or function answered 400.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { functionExecutedEvent } from '../../fakes/slack-requests.js';
import { openStore } from '../../src/store/index.js';
import { parseCents } from '../../src/waybill/fields.js';
import { describeEachBackend } from '../store/backends.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

let bot: TestBot | undefined;

afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

const quoteInputs = {
  service_type: 'DOOR_TO_DOOR',
  weight_kg: 2.5,
  from_postal: '1600',
  from_city: 'Pasig',
  to_postal: '6000',
  to_city: 'Cebu City',
  requested_by: 'UDISPATCH',
};

// biome-ignore lint/suspicious/noExplicitAny: the outputs as Slack receives them
const outputsOf = (call: { body: Record<string, unknown> }): Record<string, any> =>
  call.body.outputs as Record<string, unknown>;

describe('quote_delivery', () => {
  for (const socketMode of [false, true]) {
    it(`prices a delivery with the courier and completes with its figures (${socketMode ? 'Socket Mode' : 'HTTP'})`, async () => {
      bot = await startTestBot({ socketMode });
      const { response, completion } = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
      expect(response.status).toBe(200);
      expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
      // Ended with the workflow's own token, as Bolt does for a step.
      expect(completion.token).toMatch(/^xwfp-/);
      const outputs = outputsOf(completion);
      for (const key of ['delivery_charge', 'vat', 'total_charge'])
        expect(outputs[key]).toMatch(/^\d+\.\d\d$/);
      const cents = (key: string) => parseCents(outputs[key]) ?? -1n;
      expect(cents('total_charge')).toBe(cents('delivery_charge') + cents('vat'));
      expect(cents('total_charge')).toBeGreaterThan(0n);
      // What the courier was asked, from the step's inputs.
      expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['quote']);
      expect(bot.sandbox.received[0]?.body).toMatchObject({
        shipperPostal: '1600',
        consigneePostal: '6000',
        packageWeight: '2.5',
        paymentMethod: 'PREPAID',
      });
      // The place by its official name (Cebu City typed), in the summary a workflow posts (a name with
      // mrkdwn's characters is no place of the official list, so it never gets this far: see below).
      expect(outputs.summary).toContain('City of Cebu');
      expect(outputs.summary).toContain(outputs.total_charge);
      // Audited as the requester's, as /quote is: their Home tab lists it.
      const audit = await bot.deps.store.audit.list({ userId: 'UDISPATCH', operation: 'quote' });
      expect(
        audit.map((entry) => [entry.outcome, (entry.response as { totalCharge?: string }).totalCharge]),
      ).toEqual([['ok', outputs.total_charge]]);
    });
  }

  it('asks for cash on delivery when a COD amount is given', async () => {
    bot = await startTestBot();
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: { ...quoteInputs, cod_amount: '1500.00', to_province: 'Cebu' },
    });
    expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
    expect(bot.sandbox.received[0]?.body).toMatchObject({ paymentMethod: 'COD', codAmount: '1500.00' });
  });

  it('fails on inputs the Quotation schema refuses, naming each input, without asking the courier', async () => {
    bot = await startTestBot();
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: {
        ...quoteInputs,
        weight_kg: 'heavy',
        cod_amount: '12.345',
        service_type: 'BY_PIGEON',
        to_city: 'Cebu <City> & Co',
      },
    });
    expect(completion.method).toBe('functions.completeError');
    const error = String(completion.body.error);
    expect(error).toMatch(/weight_kg: Package weight/);
    expect(error).toMatch(/to_city: Receiver city .* nearest: City of Cebu/);
    expect(error).toMatch(/cod_amount: COD amount must be an amount with at most two decimals/);
    expect(error).toMatch(/service_type: Service type/);
    expect(bot.sandbox.received).toEqual([]);
  });

  it('checks the user the step names: one not allowed to quote is refused, recorded, and the courier never asked', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: { ...quoteInputs, requested_by: 'UINTRUDER' },
    });
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toContain('not on the list of people who may quote waybills');
    expect(bot.sandbox.received).toEqual([]);
    const refused = await bot.deps.store.audit.list({ userId: 'UINTRUDER' });
    expect(refused.map((entry) => [entry.operation, entry.outcome])).toEqual([['quote', 'refused']]);

    const allowed = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
    expect(allowed.completion.method, String(allowed.completion.body.error)).toBe(
      'functions.completeSuccess',
    );
  });
});

const bookInputs = {
  receiver_name: 'Maria <Santos> & Co',
  receiver_phone: '0917 123 4567',
  receiver_address: '88 Rizal Ave',
  receiver_barangay: 'Lahug',
  receiver_city: 'Cebu City',
  receiver_province: 'Cebu',
  receiver_postal: '6000',
  cod_amount: '1500.00',
  weight_kg: 2.5,
  parcels: 2,
  item_description: 'Kitchen scales',
  pickup_date: '2026-11-24',
  channel_id: 'CORDERS',
  requested_by: 'UDISPATCH',
};

const cardsIn = (running: TestBot, channel: string) =>
  running.fake.callsTo('chat.postMessage').filter((call) => call.body.channel === channel);

describeEachBackend(import.meta.filename, 'book_waybill', (backend) => {
  for (const socketMode of [false, true]) {
    it(`books once, posts the card and answers a delivery again with the same outputs (${socketMode ? 'Socket Mode' : 'HTTP'})`, async () => {
      bot = await startTestBot({ socketMode, backend });
      const executionId = 'Fx0BOOK0001';
      const first = await bot.step(
        { callbackId: ids.stepBook, inputs: bookInputs, executionId },
        { eventId: 'EvBOOK1' },
      );
      expect(first.completion.method, String(first.completion.body.error)).toBe('functions.completeSuccess');
      const outputs = outputsOf(first.completion);
      expect(outputs.outcome).toBe('booked');
      expect(outputs.tracking_number).toMatch(/^WB\d{6}$/);
      expect(outputs.total_charge).toMatch(/^\d+\.\d\d$/);
      expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['quote', 'book']);
      expect(bot.sandbox.received[1]?.body).toMatchObject({
        trackingNumber: outputs.tracking_number,
        consigneeName: 'Maria <Santos> & Co',
        codAmount: '1500.00',
        paymentMethod: 'COD',
        quantity: '2',
        // The barangay in its one courier field, the receiver's and the sender profile's alike.
        consigneeAddress4: 'Lahug',
        consigneeAddress3: '',
        shipperAddress4: 'San Lorenzo',
        // Cebu City typed, kept and sent by the official name.
        consigneeAddress2: 'City of Cebu',
      });
      // The same record as /book: stored as the requester's, in the step's channel, audited, its card there.
      const stored = await bot.deps.store.bookings.get(outputs.tracking_number);
      expect(stored).toMatchObject({ bookedBy: 'UDISPATCH', channelId: 'CORDERS', cardChannelId: 'CORDERS' });
      expect(outputs.card_link).toBe(
        `https://example.slack.com/archives/CORDERS/p${stored?.cardTs?.replace('.', '')}`,
      );
      const audit = await bot.deps.store.audit.list({ trackingNumber: outputs.tracking_number });
      expect(audit.map((entry) => [entry.operation, entry.outcome, entry.userId])).toEqual([
        ['book', 'ok', 'UDISPATCH'],
      ]);
      const [card] = cardsIn(bot, 'CORDERS');
      const cardText = JSON.stringify(card?.body.blocks);
      expect(cardText).toContain('Booked by a workflow');
      expect(cardText).toContain('<@UDISPATCH>');
      expect(cardText).toContain(ids.statusOpen);
      expect(cardText).toContain(ids.labelsPrint);
      expect(String(card?.body.text)).toContain('Maria &lt;Santos&gt; &amp; Co');
      // The requester's Home tab lists it with today's bookings, and not as a booking left unfinished.
      const opened = await bot.event({
        type: 'app_home_opened',
        user: 'UDISPATCH',
        channel: 'DHOME',
        tab: 'home',
      });
      expect(opened.status).toBe(200);
      const home = await bot.fake.waitFor('views.publish', (call) => call.body.user_id === 'UDISPATCH');
      const homeText = JSON.stringify(home.body.view);
      expect(homeText).toContain(outputs.tracking_number);
      expect(homeText).not.toContain(`step-${executionId}`);

      // Slack delivering the same event again, then the same execution in another event.
      const again = await bot.step(
        { callbackId: ids.stepBook, inputs: bookInputs, executionId },
        { eventId: 'EvBOOK1', retryNum: 1 },
      );
      expect(again.completion.method).toBe('functions.completeSuccess');
      expect(outputsOf(again.completion)).toEqual(outputs);
      const later = await bot.step({ callbackId: ids.stepBook, inputs: bookInputs, executionId });
      expect(outputsOf(later.completion)).toEqual(outputs);
      expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
      expect(cardsIn(bot, 'CORDERS')).toHaveLength(1);

      // Redrawn (a status recorded), the card still says a workflow booked it.
      await bot.command('/waybill', `status ${outputs.tracking_number} picked-up`);
      await bot.idle();
      const redrawn = await bot.fake.waitFor('chat.update', (c) => c.body.channel === 'CORDERS');
      expect(JSON.stringify(redrawn.body.blocks)).toContain('Booked by a workflow');
    });
  }

  it('completes an unknown outcome as unknown with the Resolve path in the channel, and never sends it again', async () => {
    bot = await startTestBot({ backend });
    // The quote goes through; the booking is made but its answer never arrives.
    bot.sandbox.injectNext({}, { dropAfterProcessing: true });
    const executionId = 'Fx0BOOK0002';
    const { completion } = await bot.step({ callbackId: ids.stepBook, inputs: bookInputs, executionId });
    expect(completion.method).toBe('functions.completeSuccess');
    const outputs = outputsOf(completion);
    expect(outputs).toMatchObject({ outcome: 'unknown', card_link: '' });
    const told = cardsIn(bot, 'CORDERS');
    expect(told).toHaveLength(1);
    expect(JSON.stringify(told[0]?.body.blocks)).toContain(ids.resolveOpen);
    expect(await bot.deps.store.bookings.get(outputs.tracking_number)).toBeUndefined();

    const again = await bot.step({ callbackId: ids.stepBook, inputs: bookInputs, executionId });
    expect(outputsOf(again.completion)).toEqual(outputs);
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);

    // Resolve from that message, as for /book: the courier has it, so it is recorded and carded.
    const key = ((told[0]?.body.blocks ?? []) as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === ids.resolveOpen)?.value;
    await bot.clickInMessage(ids.resolveOpen, key ?? '', { channelId: 'CORDERS' });
    const form = await bot.openedView();
    await bot.submit(form, { verdict: 'booked', reference: 'REF-77' });
    await bot.idle();
    expect(await bot.deps.store.bookings.get(outputs.tracking_number)).toMatchObject({
      trackingRefNo: 'REF-77',
      bookedBy: 'UDISPATCH',
      channelId: 'CORDERS',
      cardChannelId: 'CORDERS',
      bookedVia: 'workflow',
    });
    // Its card says a workflow booked it, as when the courier answered at once.
    const card = await bot.fake.waitFor('chat.postMessage', (c) =>
      JSON.stringify(c.body.blocks).includes('REF-77'),
    );
    expect(JSON.stringify(card.body.blocks)).toContain('Booked by a workflow');
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
  });

  it('fails on inputs the Booking schema refuses, naming each input, and on an unknown sender profile', async () => {
    bot = await startTestBot({ backend });
    const bad = await bot.step({
      callbackId: ids.stepBook,
      inputs: { ...bookInputs, weight_kg: 'heavy', receiver_phone: '12', pickup_date: 'someday' },
    });
    expect(bad.completion.method).toBe('functions.completeError');
    const error = String(bad.completion.body.error);
    expect(error).toMatch(/weight_kg: Package weight/);
    expect(error).toMatch(/receiver_phone: Receiver phone/);
    expect(error).toMatch(/pickup_date: /);
    // A barangay of another city: refused naming it and where it really is, as a form and a CSV row are.
    const elsewhere = await bot.step({
      callbackId: ids.stepBook,
      inputs: {
        ...bookInputs,
        receiver_city: 'Makati',
        receiver_province: 'Metro Manila',
        receiver_postal: '',
      },
    });
    expect(String(elsewhere.completion.body.error)).toMatch(
      /receiver_barangay: Receiver barangay "Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/,
    );
    const profile = await bot.step({
      callbackId: ids.stepBook,
      inputs: { ...bookInputs, sender_profile: 'nobody' },
    });
    expect(String(profile.completion.body.error)).toMatch(/^sender_profile: Unknown sender profile "nobody"/);
    // Today is 2026-11-23 in the courier's time zone (the harness's clock, Asia/Manila).
    for (const past of ['1990-01-01', '2026-11-22']) {
      const { completion } = await bot.step({
        callbackId: ids.stepBook,
        inputs: { ...bookInputs, pickup_date: past },
      });
      expect(completion.method).toBe('functions.completeError');
      expect(String(completion.body.error)).toBe(
        'pickup_date: Pickup date must be today (2026-11-23) or later',
      );
    }
    expect(bot.sandbox.received).toEqual([]);
  });

  it('without a sender profile: one line naming SENDER_PROFILES_FILE, and a warning at start-up', async () => {
    bot = await startTestBot({ backend, profiles: [] });
    const warned = bot.logs.filter((line) => line.includes('SENDER_PROFILES_FILE'));
    expect(warned.map((line) => JSON.parse(line))).toMatchObject([{ level: 40 }]);
    for (const inputs of [bookInputs, { ...bookInputs, sender_profile: 'pasig-warehouse' }]) {
      const failed = await bot.step({ callbackId: ids.stepBook, inputs });
      expect(failed.completion.method).toBe('functions.completeError');
      expect(failed.completion.body.error).toBe(
        "sender_profile: the team's sender profile is needed to book from a workflow, and none is set up: set SENDER_PROFILES_FILE",
      );
    }
    expect(bot.sandbox.received).toEqual([]);
  });

  it('its card keeps "Booked by a workflow" when an update, a status or an owner redraws it', async () => {
    bot = await startTestBot({ backend });
    const { completion } = await bot.step({ callbackId: ids.stepBook, inputs: bookInputs });
    const trackingNumber = outputsOf(completion).tracking_number;
    const redrawn = async (count: number) => {
      await bot?.idle();
      const calls = bot?.fake.callsTo('chat.update').filter((c) => c.body.channel === 'CORDERS') ?? [];
      expect(calls).toHaveLength(count);
      return JSON.stringify(calls.at(-1)?.body.blocks);
    };
    await bot.clickInMessage(ids.waybillUpdate, trackingNumber, { channelId: 'CORDERS' });
    await bot.submit(await bot.openedView(), { 'consignee.phone': '0918 765 4321' });
    const updated = await redrawn(1);
    expect(updated).toContain('0918 765 4321');
    expect(updated).toContain('Booked by a workflow');
    await bot.command('/waybill', `status ${trackingNumber} delivered`, { channel_id: 'CORDERS' });
    expect(await redrawn(2)).toContain('Booked by a workflow');
    await bot.command('/waybill', `assign ${trackingNumber} <@UOTHER|rico>`, { channel_id: 'CORDERS' });
    expect(await redrawn(3)).toContain('Booked by a workflow');
  });

  it('checks the user the step names may book', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' }, backend });
    const { completion } = await bot.step({
      callbackId: ids.stepBook,
      inputs: { ...bookInputs, requested_by: 'UINTRUDER' },
    });
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toContain('not on the list of people who may book waybills');
    expect(bot.sandbox.received).toEqual([]);
  });
});

describe('record_status', () => {
  /** A booking made by the book step, with its card in CORDERS. */
  async function booked(running: TestBot): Promise<string> {
    const { completion } = await running.step({ callbackId: ids.stepBook, inputs: bookInputs });
    return outputsOf(completion).tracking_number;
  }

  it('records a status in the words /waybill status takes, on the card and its thread, once under a delivery again', async () => {
    bot = await startTestBot();
    const trackingNumber = await booked(bot);
    const inputs = {
      tracking_number: trackingNumber,
      status: 'FAILED wrong addr',
      note: 'gate <locked> & dark',
      recorded_by: 'UDISPATCH',
    };
    const first = await bot.step({ callbackId: ids.stepStatus, inputs }, { eventId: 'EvSTATUS1' });
    expect(first.completion.method, String(first.completion.body.error)).toBe('functions.completeSuccess');
    expect(outputsOf(first.completion)).toEqual({ status: 'Failed attempt (wrong address)' });
    const history = await bot.deps.store.statuses.history(trackingNumber);
    expect(history.map((entry) => [entry.status, entry.reason, entry.note, entry.userId])).toEqual([
      ['failed_attempt', 'wrong_address', 'gate <locked> & dark', 'UDISPATCH'],
    ]);
    // The card edited to show it, a line in its thread, the note escaped.
    const edited = bot.fake.callsTo('chat.update').at(-1);
    expect(edited?.body.channel).toBe('CORDERS');
    expect(JSON.stringify(edited?.body.blocks)).toContain('gate &lt;locked&gt; &amp; dark');
    // A redrawn card keeps every line it had.
    expect(JSON.stringify(edited?.body.blocks)).toContain('Booked by a workflow');
    const thread = bot.fake.callsTo('chat.postMessage').filter((call) => call.body.thread_ts !== undefined);
    expect(thread).toHaveLength(1);

    const again = await bot.step(
      { callbackId: ids.stepStatus, inputs },
      { eventId: 'EvSTATUS1', retryNum: 1 },
    );
    expect(outputsOf(again.completion)).toEqual({ status: 'Failed attempt (wrong address)' });
    expect(await bot.deps.store.statuses.history(trackingNumber)).toHaveLength(1);
    const audit = await bot.deps.store.audit.list({ trackingNumber, operation: 'status' });
    expect(audit.map((entry) => entry.userId)).toEqual(['UDISPATCH']);
  });

  it('fails on a status it cannot read, a missing reason note and an unknown tracking number, naming the input', async () => {
    bot = await startTestBot();
    const trackingNumber = await booked(bot);
    const run = async (inputs: Record<string, unknown>) =>
      String(
        (
          await bot?.step({
            callbackId: ids.stepStatus,
            inputs: { tracking_number: trackingNumber, recorded_by: 'UDISPATCH', ...inputs },
          })
        )?.completion.body.error,
      );
    expect(await run({ status: 'teleported' })).toMatch(
      /^status: "teleported" names no status: write the status one of `picked up`/,
    );
    expect(await run({ status: 'cancelled' })).toMatch(/^note: Say how it was cancelled/);
    expect(await run({ status: 'delivered', tracking_number: 'WB999999' })).toBe(
      'tracking_number: I have no record of waybill `WB999999` in a conversation where you may update waybills: check the number, or ask in the conversation it was booked in.',
    );
    expect(await bot.deps.store.statuses.history(trackingNumber)).toEqual([]);
  });

  it('checks the user the step names may update waybills', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    const trackingNumber = await booked(bot);
    const { completion } = await bot.step({
      callbackId: ids.stepStatus,
      inputs: { tracking_number: trackingNumber, status: 'delivered', recorded_by: 'UINTRUDER' },
    });
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toContain('not on the list of people who may update waybills');
    expect(await bot.deps.store.statuses.history(trackingNumber)).toEqual([]);
    const allowed = await bot.step({
      callbackId: ids.stepStatus,
      inputs: { tracking_number: trackingNumber, status: 'delivered', recorded_by: 'UDISPATCH' },
    });
    expect(outputsOf(allowed.completion)).toEqual({ status: 'Delivered' });
  });
});

describe('steps and ALLOWED_CHANNEL_IDS', () => {
  it('checks the channel a booking step names; a quote, which names none, on its user alone', async () => {
    bot = await startTestBot({ env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    const refused = await bot.step({ callbackId: ids.stepBook, inputs: bookInputs });
    expect(String(refused.completion.body.error)).toContain('booking are not enabled in this conversation');
    expect(bot.sandbox.received).toEqual([]);
    const allowed = await bot.step({
      callbackId: ids.stepBook,
      inputs: { ...bookInputs, channel_id: 'CDISPATCH' },
    });
    expect(outputsOf(allowed.completion).outcome).toBe('booked');
    const quoted = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
    expect(quoted.completion.method).toBe('functions.completeSuccess');
  });
});

describe('find_waybill', () => {
  const book = async (running: TestBot, inputs: Record<string, unknown>) =>
    outputsOf(
      (await running.step({ callbackId: ids.stepBook, inputs: { ...bookInputs, ...inputs } })).completion,
    ).tracking_number as string;

  it('finds bookings as /waybill find does, newest first, at most ten; the summary numbers and statuses only', async () => {
    bot = await startTestBot();
    const numbers: string[] = [];
    for (let i = 0; i < 11; i++) numbers.push(await book(bot, { item_description: `Scales ${i}` }));
    const other = await book(bot, { receiver_name: 'Juan Cruz', cod_amount: '' });
    const { completion } = await bot.step({
      callbackId: ids.stepFind,
      inputs: { query: 'maria cod', requested_by: 'UDISPATCH' },
    });
    expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
    const outputs = outputsOf(completion);
    expect(outputs.tracking_numbers).toEqual(numbers.slice(1).reverse());
    expect(outputs.tracking_numbers).not.toContain(other);
    expect(outputs.summary).toContain('`maria cod`');
    expect(outputs.summary).toContain(`${numbers[10]}: Booked`);
    // A workflow's outputs go wherever its author sends them: no receiver's name or city.
    expect(outputs.summary).not.toMatch(/Santos|Cebu/);

    const none = await bot.step({
      callbackId: ids.stepFind,
      inputs: { query: 'nobody <here>', requested_by: 'UDISPATCH' },
    });
    expect(outputsOf(none.completion)).toEqual({
      tracking_numbers: [],
      summary: 'No booking matches `nobody &lt;here&gt;`.',
    });
  });

  it('fails on a filter it cannot read, naming the query input', async () => {
    bot = await startTestBot();
    const { completion } = await bot.step({
      callbackId: ids.stepFind,
      inputs: { query: 'status:teleported', requested_by: 'UDISPATCH' },
    });
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toMatch(/^query: `status:` needs one of/);
  });

  it('checks the user the step names, and shows only bookings from ALLOWED_CHANNEL_IDS', async () => {
    const store = await openStore({ path: ':memory:', leaseRenewMs: 0 });
    try {
      bot = await startTestBot({ store, env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
      const outside = await book(bot, { channel_id: 'COTHER' });
      const refused = await bot.step({
        callbackId: ids.stepFind,
        inputs: { query: 'maria', requested_by: 'UINTRUDER' },
      });
      expect(refused.completion.method).toBe('functions.completeError');
      expect(String(refused.completion.body.error)).toContain(
        'not on the list of people who may look up waybills',
      );
      const all = await bot.step({
        callbackId: ids.stepFind,
        inputs: { query: 'maria', requested_by: 'UDISPATCH' },
      });
      expect(outputsOf(all.completion).tracking_numbers).toEqual([outside]);
      await bot.stop();

      // The same store under the channel rule: the booking made in COTHER is never found.
      bot = await startTestBot({ store, env: { ALLOWED_CHANNEL_IDS: 'CORDERS' } });
      const inside = await book(bot, {});
      const { completion } = await bot.step({
        callbackId: ids.stepFind,
        inputs: { query: 'maria', requested_by: 'UDISPATCH' },
      });
      expect(outputsOf(completion).tracking_numbers).toEqual([inside]);
    } finally {
      await bot?.stop();
      bot = undefined;
      await store.close();
    }
  });
});

describe('steps the bot does not provide, and malformed step events', () => {
  it('ends a step it does not know with completeError naming the step, never leaving it hanging', async () => {
    bot = await startTestBot();
    const { response, completion } = await bot.step({
      callbackId: 'steal_all',
      inputs: { requested_by: 'UDISPATCH' },
    });
    expect(response.status).toBe(200);
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toContain('steal_all');
    expect(completion.token).toMatch(/^xwfp-/);
    expect(bot.sandbox.received).toEqual([]);
  });

  it('answers 400 to a step event without its execution id or its function, as to any malformed request', async () => {
    bot = await startTestBot();
    const step = functionExecutedEvent({ callbackId: ids.stepQuote, inputs: quoteInputs });
    const { function_execution_id: _, ...noExecution } = step;
    for (const event of [
      noExecution,
      { ...step, function: null },
      { ...step, function: { callback_id: 7 } },
    ]) {
      const response = await bot.event(event);
      expect(response.status, JSON.stringify(event).slice(0, 80)).toBe(400);
    }
    expect(bot.fake.callsTo('functions.completeSuccess')).toEqual([]);
    expect(bot.sandbox.received).toEqual([]);
    // Still serving.
    const { completion } = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
    expect(completion.method).toBe('functions.completeSuccess');
  });
});
