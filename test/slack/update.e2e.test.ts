/**
 * `/waybill` and updates, on SQLite and PostgreSQL: exact Update body, thread reply, edited card, unknown
 * number, no change, concurrent edits, a changed update after a rejection, after an unknown outcome (Resolve,
 * also submitted at once on two replicas), two dispatchers at once, closed modals.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { describeEachBackend, type TestBackend } from '../store/backends.js';
import { bookThroughModal } from '../support/booking-flow.js';
import { secrets, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

/** Each test starts from one booked waybill, WB000001, on the backend's database. */
function bookedBeforeEach(backend: TestBackend) {
  beforeEach(async () => {
    bot = await startTestBot({ backend, env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    await bookThroughModal(bot);
    bot.fake.reset();
  });

  afterEach(async () => {
    await bot.stop();
    const leaked = bot.logs.filter((line) => Object.values(secrets).some((secret) => line.includes(secret)));
    expect(leaked).toEqual([]);
  });
}

/** The Update body the courier must get: the booking as sent, in the Update shape, with these changes. */
function expectedUpdateBody(changes: Record<string, string>) {
  const booked = bot.sandbox.received.find((r) => r.operation === 'book')?.body as Record<string, unknown>;
  const {
    OperatorContactNumber,
    shipperCode,
    warehouseName,
    childWaybills,
    handlingInstructions,
    ...shared
  } = booked;
  return { ...shared, handlingInstruction: handlingInstructions, ...changes };
}

async function openByButton(user = 'UDISPATCH'): Promise<View> {
  const opened = bot.fake.callsTo('views.open').length;
  await bot.clickInMessage(ids.waybillUpdate, 'WB000001', { user });
  const call = await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  const answer = call.response?.body as { view: { id: string; hash: string } };
  return { ...(call.body.view as View), id: answer.view.id, hash: answer.view.hash };
}

/** The courier's answer refusing an update, with its reason. */
const rejectionWith = (remarks: string) =>
  JSON.stringify({ ResponseCode: '400', ResponseDetail: 'Invalid request', remarks });

const twoChanges = { 'consignee.phone': '0918 765 4321', codAmount: '1800' };

// The whole flow on each store backend: SQLite, and PostgreSQL when TEST_DATABASE_URL is set.
describeEachBackend(import.meta.filename, 'updating a waybill', (backend) => {
  bookedBeforeEach(backend);

  it('through the card button: sends the complete record, threads exactly the changes, edits the card', async () => {
    const form = await openByButton();
    expect(form.callback_id).toBe(ids.updateForm);
    const initial = (path: string) => form.blocks.find((b) => b.block_id?.split('#')[0] === path)?.element;
    expect(initial('consignee.phone').initial_value).toBe('0917 123 4567');
    expect(initial('pickupAt.time').initial_time).toBe('10:00');
    expect(form.blocks.some((b) => b.block_id?.startsWith('shipperCode'))).toBe(false);

    const ack = await bot.submit(form, twoChanges);
    expect(textOf(ack.body.view)).toContain('Updating');
    await bot.idle();

    const update = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(update).toHaveLength(1);
    expect(update[0]?.body).toStrictEqual(
      expectedUpdateBody({ consigneeContact: '0918 765 4321', codAmount: '1800.00' }),
    );

    const card = await bot.deps.store.bookings.get('WB000001');
    const replies = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts);
    expect(replies.map((c) => [c.body.channel, c.body.thread_ts])).toEqual([
      ['CDISPATCH', card?.cardTs],
      ['CAUDIT', card?.auditCardTs],
    ]);
    const reply = String(replies[0]?.body.text);
    expect(reply).toContain('<@UDISPATCH> updated `WB000001`');
    expect(reply.split('\n').slice(1)).toEqual([
      '• *COD amount*: `1500.00` → `1800.00`',
      '• *Receiver phone*: `0917 123 4567` → `0918 765 4321`',
    ]);

    const edits = bot.fake.callsTo('chat.update');
    expect(edits.map((c) => [c.body.channel, c.body.ts])).toEqual([
      ['CDISPATCH', card?.cardTs],
      ['CAUDIT', card?.auditCardTs],
    ]);
    expect(textOf(edits[0]?.body.blocks)).toContain('PHP 1,800.00');
    expect(textOf(edits[0]?.body.blocks)).toContain('0918 765 4321');
    expect(textOf(edits[0]?.body.blocks)).toContain('Last updated by <@UDISPATCH>');

    expect(card).toMatchObject({ version: 2, updatedBy: 'UDISPATCH' });
    expect(card?.record).toMatchObject({ codAmount: '1800.00', consignee: { phone: '0918 765 4321' } });
    // Booking-only fields and parcels are kept in the record.
    expect(card?.record).toMatchObject({
      shipperCode: 'ACME-PSG',
      operatorContactNumber: '+63 917 555 0100',
    });
    expect(card?.record).toHaveProperty('childWaybills.length', 3);
    expect((await bot.deps.store.audit.list({ operation: 'update' }))[0]).toMatchObject({
      outcome: 'ok',
      userId: 'UDISPATCH',
    });
  });

  it('through /waybill update <tracking number>', async () => {
    await bot.command('/waybill', 'update WB000001');
    const form = await bot.openedView();
    await bot.submit(form, { 'package.weight': '5', handlingInstructions: 'Keep upright' });
    await bot.idle();
    const update = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(update[0]?.body).toStrictEqual(
      expectedUpdateBody({ PackageWeight: '5', handlingInstruction: 'Keep upright' }),
    );
  });

  it('refuses a tracking number it does not know, saying how to proceed', async () => {
    const response = await bot.command('/waybill', 'update WB999999');
    expect(response.body.response_type).toBe('ephemeral');
    expect(response.body.text).toContain('no record of waybill `WB999999`');
    expect(response.body.text).toContain('complete record');
    expect(bot.fake.callsTo('views.open')).toHaveLength(0);
  });

  it('says so when nothing changed, and calls nobody', async () => {
    const form = await openByButton();
    const ack = await bot.submit(form);
    expect(ack.body.response_action).toBe('errors');
    expect(Object.values(ack.body.errors)).toEqual(['Nothing changed: edit a field, or close this window.']);
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(0);
  });

  it('validates like a booking, inline', async () => {
    const form = await openByButton();
    const ack = await bot.submit(form, { 'consignee.country': 'PHL', codAmount: '12.345' });
    expect(Object.values(ack.body.errors)).toEqual([
      'COD amount must be an amount with at most two decimals, e.g. 1500.00',
      'Receiver country must be a two-letter country code, e.g. PH',
    ]);
  });

  it('tells the second of two editors that the record changed, and shows the new values', async () => {
    const first = await openByButton('UFIRST');
    const second = await openByButton('USECOND');
    await bot.submit(first, { 'consignee.phone': '0918 111 1111' }, 'UFIRST');
    await bot.idle();
    const ack = await bot.submit(second, { codAmount: '999' }, 'USECOND');
    expect(ack.body.response_action).toBe('update');
    const refreshed = ack.body.view as View;
    expect(textOf(refreshed.blocks)).toContain('<@UFIRST> changed this waybill since you opened it');
    const phone = refreshed.blocks.find((b) => b.block_id?.startsWith('consignee.phone#'));
    expect(phone.element.initial_value).toBe('0918 111 1111');
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await bot.deps.store.bookings.get('WB000001'))?.record).toMatchObject({ codAmount: '1500.00' });
  });

  async function failedUpdate(): Promise<View> {
    const form = await openByButton();
    bot.sandbox.injectNext({ status: 400, body: rejectionWith('locked for dispatch') });
    await bot.submit(form, twoChanges);
    await bot.idle();
    return bot.updatedView(form.id, (v) => textOf(v.blocks).includes('Not updated'));
  }

  it('keeps the form on an upstream failure', async () => {
    const failed = await failedUpdate();
    expect(textOf(failed.blocks)).toContain('locked for dispatch');
    expect((await bot.deps.store.bookings.get('WB000001'))?.version).toBe(1);
    expect((await bot.deps.store.audit.list({ operation: 'update' }))[0]).toMatchObject({
      outcome: 'failed',
    });
    expect(bot.fake.callsTo('chat.update')).toHaveLength(0);

    await bot.clickInView(failed, ids.updateBack);
    const back = await bot.updatedView(failed.id, (v) => v.callback_id === ids.updateForm);
    expect(back.blocks.find((b) => b.block_id?.startsWith('consignee.phone#')).element.initial_value).toBe(
      '0918 765 4321',
    );
    expect(back.blocks.find((b) => b.block_id?.startsWith('codAmount#')).element.initial_value).toBe('1800');
  });

  it('sends the same changes again on Try again, once however often it is clicked', async () => {
    const failed = await failedUpdate();
    await Promise.all([bot.clickInView(failed, ids.updateRetry), bot.clickInView(failed, ids.updateRetry)]);
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(2);
    await bot.updatedView(failed.id, (v) => textOf(v.blocks).includes('Updated `WB000001`'));
    expect((await bot.deps.store.bookings.get('WB000001'))?.record).toMatchObject({ codAmount: '1800.00' });
  });

  it('sends a changed update after a rejection, from Back to the form', async () => {
    const failed = await failedUpdate();
    await bot.clickInView(failed, ids.updateBack);
    const back = await bot.updatedView(failed.id, (v) => v.callback_id === ids.updateForm);
    const ack = await bot.submit(back, { ...twoChanges, codAmount: '1700' });
    expect(textOf(ack.body.view)).toContain('Updating');
    expect(textOf(ack.body.view)).not.toContain('locked for dispatch');
    await bot.idle();
    const updates = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.body).toStrictEqual(
      expectedUpdateBody({ consigneeContact: '0918 765 4321', codAmount: '1700.00' }),
    );
    await bot.updatedView(failed.id, (v) => textOf(v.blocks).includes('Updated `WB000001`'));
    expect((await bot.deps.store.bookings.get('WB000001'))?.record).toMatchObject({ codAmount: '1700.00' });
  });

  it('sends the same update submitted twice (a double click) once', async () => {
    const form = await openByButton();
    await Promise.all([bot.submit(form, twoChanges), bot.submit(form, twoChanges)]);
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await bot.deps.store.bookings.get('WB000001'))?.version).toBe(2);
  });

  /** An update the courier applied but whose answer never arrived: outcome unknown. */
  async function unknownUpdate(): Promise<{ form: View; unknown: View }> {
    const form = await openByButton();
    bot.sandbox.injectNext({ dropAfterProcessing: true });
    await bot.submit(form, twoChanges);
    await bot.idle();
    return {
      form,
      unknown: await bot.updatedView(form.id, (v) => textOf(v.blocks).includes('outcome unknown')),
    };
  }

  /** Resolve, in the unknown update's modal: the form in its place. */
  async function resolveForm(unknown: View): Promise<View> {
    const button = unknown.blocks
      .flatMap((b) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ids.resolveUpdateOpen);
    await bot.clickInView(unknown, ids.resolveUpdateOpen, button?.value);
    return bot.updatedView(unknown.id, (v) => v.callback_id === ids.resolveUpdateForm);
  }

  it('Resolve "the courier has it": the update recorded without a courier call, the card edited, its thread told, who decided audited', async () => {
    const { unknown } = await unknownUpdate();
    const form = await resolveForm(unknown);
    const ack = await bot.submit(form, { verdict: 'booked' });
    expect(textOf(ack.body.view)).toContain('Updated `WB000001`');
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    const card = await bot.deps.store.bookings.get('WB000001');
    expect(card).toMatchObject({ version: 2, updatedBy: 'UDISPATCH' });
    expect(card?.record).toMatchObject({ codAmount: '1800.00' });
    expect(textOf(bot.fake.callsTo('chat.update').at(-1)?.body.blocks)).toContain('PHP 1,800.00');
    const thread = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === card?.cardTs);
    expect(String(thread.at(-1)?.body.text)).toContain('<@UDISPATCH> updated `WB000001`');
    expect((await bot.deps.store.audit.list({ operation: 'resolve' }))[0]).toMatchObject({
      userId: 'UDISPATCH',
      outcome: 'updated',
    });
    // Resolved once: the same form submitted again is told.
    const again = await bot.submit(form, { verdict: 'notBooked' });
    expect(again.body.errors.verdict).toContain('known already by <@UDISPATCH>');
  });

  it('Resolve "the courier does not have it": recorded as not sent, Try again sends it once', async () => {
    const { unknown } = await unknownUpdate();
    const form = await resolveForm(unknown);
    const notSent = bot.ackedView(await bot.submit(form, { verdict: 'notBooked' }), unknown.id);
    expect(textOf(notSent.blocks)).toContain(ids.updateRetry);
    expect((await bot.deps.store.bookings.get('WB000001'))?.version).toBe(1);
    await Promise.all([bot.clickInView(notSent, ids.updateRetry), bot.clickInView(notSent, ids.updateRetry)]);
    await bot.idle();
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(2);
    expect((await bot.deps.store.bookings.get('WB000001'))?.version).toBe(2);
    expect((await bot.deps.store.audit.list({ operation: 'resolve' }))[0]).toMatchObject({
      outcome: 'not updated',
    });
  });

  it('Resolve submitted at the same moment on two replicas, one saying the courier has it, the other not: one answer counts, the other told', async () => {
    const { unknown } = await unknownUpdate();
    const form = await resolveForm(unknown);
    const other = await startTestBot({ backend, sandbox: bot.sandbox });
    try {
      const acks = await Promise.all([
        bot.submit(form, { verdict: 'booked' }),
        other.submit(form, { verdict: 'notBooked' }, 'UOTHER'),
      ]);
      await Promise.all([bot.idle(), other.idle()]);
      expect(acks.map((ack) => ack.body.response_action).sort()).toEqual(['errors', 'update']);
      const loser = acks.find((ack) => ack.body.response_action === 'errors');
      expect(loser?.body.errors.verdict).toMatch(
        /Someone resolved it meanwhile\.|is known already by <@U(DISPATCH|OTHER)>/,
      );
      const audits = await bot.deps.store.audit.list({ operation: 'resolve' });
      expect(audits).toHaveLength(1);
      const updated = audits[0]?.outcome === 'updated';
      expect((await bot.deps.store.bookings.get('WB000001'))?.version).toBe(updated ? 2 : 1);
      expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
      // The card's thread told of the update once, by whichever replica recorded it.
      const told = [
        ...bot.fake.callsTo('chat.postMessage'),
        ...other.fake.callsTo('chat.postMessage'),
      ].filter((c) => c.body.channel === 'CDISPATCH' && String(c.body.text).includes('updated `WB000001`'));
      expect(told).toHaveLength(updated ? 1 : 0);
    } finally {
      await other.stop();
    }
  });

  it('after an unknown outcome, sends a different update by someone else', async () => {
    await unknownUpdate();
    expect((await bot.deps.store.audit.list({ operation: 'update' }))[0]).toMatchObject({
      outcome: 'unknown',
    });
    const other = await openByButton('USECOND');
    const ack = await bot.submit(other, { codAmount: '999' }, 'USECOND');
    expect(textOf(ack.body.view)).toContain('Updating');
    await bot.idle();
    const updates = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.body).toStrictEqual(expectedUpdateBody({ codAmount: '999.00' }));
    const done = await bot.updatedView(other.id, (v) => textOf(v.blocks).includes('Updated `WB000001`'));
    // Whatever the first update did at the courier, the complete record just sent replaces it.
    expect(textOf(done.blocks)).toContain('<@UDISPATCH>');
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({ version: 2, updatedBy: 'USECOND' });
  });

  it('after an unknown outcome, sends the same update again only once the dispatcher confirms', async () => {
    const { form, unknown } = await unknownUpdate();
    const button = unknown.blocks
      .flatMap((b) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ids.updateSendChecked);
    expect(button?.text.text).toContain('Send again');
    // Slack asks "are you sure?" before it sends the click.
    expect(button?.confirm?.text.text).toContain('Check with the courier');
    const replay = await bot.submit(form, twoChanges);
    expect(textOf(replay.body.view)).toContain('outcome unknown');
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);

    await Promise.all([
      bot.clickInView(unknown, ids.updateSendChecked),
      bot.clickInView(unknown, ids.updateSendChecked),
    ]);
    await bot.idle();
    const updates = bot.sandbox.received.filter((r) => r.operation === 'update');
    expect(updates).toHaveLength(2);
    expect(updates[1]?.body).toStrictEqual(updates[0]?.body);
    await bot.updatedView(unknown.id, (v) => textOf(v.blocks).includes('Updated `WB000001`'));
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({
      version: 2,
      updatedBy: 'UDISPATCH',
    });
  });

  it('tells the second of two dispatchers sending at once who is sending, then shows the new values', async () => {
    const first = await openByButton('UFIRST');
    const second = await openByButton('USECOND');
    let release = () => {};
    bot.sandbox.injectNext({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
    await bot.submit(first, { 'consignee.phone': '0918 111 1111' }, 'UFIRST');
    const ack = await bot.submit(second, { codAmount: '999' }, 'USECOND');
    const busy = textOf(ack.body.view);
    expect(busy).toContain('<@UFIRST> is sending an update of `WB000001`');
    expect(busy).toContain('Yours was not sent');
    release();
    await bot.idle();
    const refreshed = await bot.updatedView(second.id, (v) => v.callback_id === ids.updateForm);
    expect(textOf(refreshed.blocks)).toContain('<@UFIRST> changed this waybill');
    const phone = refreshed.blocks.find((b) => b.block_id?.startsWith('consignee.phone#'));
    expect(phone.element.initial_value).toBe('0918 111 1111');
    expect(bot.sandbox.received.filter((r) => r.operation === 'update')).toHaveLength(1);
    expect((await bot.deps.store.bookings.get('WB000001'))?.record).toMatchObject({ codAmount: '1500.00' });

    // From the refreshed form, the second dispatcher's change goes out on top of the first.
    await bot.submit(refreshed, { codAmount: '999' }, 'USECOND');
    await bot.idle();
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({
      version: 3,
      record: { codAmount: '999.00', consignee: { phone: '0918 111 1111' } },
    });
  });

  it.each([
    ['rejected', { status: 400, body: rejectionWith('<!channel> locked & <https://evil.example|held>') }],
    ['of unknown outcome', { dropAfterProcessing: true }],
  ])('tells the dispatcher of an update %s in a message when its modal was closed', async (_name, fault) => {
    const form = await openByButton();
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    bot.sandbox.injectNext(fault);
    await bot.submit(form, twoChanges);
    await bot.close(form);
    await bot.idle();
    const told = await bot.fake.waitFor('chat.postEphemeral');
    expect(told.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
    const said = `${told.body.text} ${textOf(told.body.blocks)}`;
    expect(said).toContain('WB000001');
    expect(said).toContain('/waybill update WB000001');
    if ('status' in fault) {
      expect(said).toContain('&lt;!channel&gt; locked &amp; &lt;https://evil.example|held&gt;');
      expect(said).not.toContain('<!channel>');
      expect(said).not.toContain('<https://evil');
    } else {
      expect(said).toContain('outcome unknown');
    }
  });

  it('shows the last-known record, just to the one who asked', async () => {
    const response = await bot.command('/waybill', 'show WB000001');
    expect(response.body.response_type).toBe('ephemeral');
    expect(textOf(response.body.blocks)).toContain('SBX00000001');
    const help = await bot.command('/waybill', '');
    expect(help.body.text).toContain('/waybill update <tracking number>');
  });

  it('finds the booking by its number in any case, with a # or stray spaces', async () => {
    for (const typed of ['show wb000001', 'show  #Wb000001 ', 'SHOW # WB000001']) {
      const response = await bot.command('/waybill', typed);
      expect(textOf(response.body.blocks), typed).toContain('SBX00000001');
    }
    const opened = bot.fake.callsTo('views.open').length;
    await bot.command('/waybill', 'update wb000001');
    const form = await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
    expect(textOf(form.body.view)).toContain('WB000001');
  });
});
