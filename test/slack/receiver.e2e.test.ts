/**
 * The receiver's record end to end on both backends: statuses recorded on an earlier booking to the same
 * phone typed another way, the review's line and required confirmation for cash on delivery (refused inline
 * without it), the card (also redrawn) and audit log naming who confirmed, prepaid without one, the rules
 * off, a receiver flagged while the review is open, Try again after a refusal keeping the confirmed call, a
 * workflow's booking keeping its record, a bookings file's check flagging its row, the export's column and
 * the digest's count.
 */
// The receiver's record before booking, through signed Slack requests on both backends: statuses recorded
// on an earlier booking to the same phone (typed another way), the review's line and its required
// confirmation for cash on delivery, the card and audit log saying who confirmed, the export and digest.
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { RECEIVER_CONFIRM_BLOCK } from '../../src/slack/booking/receiver-line.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import { botsPerTest, exportedToday, next, receiver, shipment } from '../support/booking-flow.js';
import type { TestBot } from '../support/bot-harness.js';
import { bulkFile, bulkRow } from '../support/bulk-file.js';
import type { View } from '../support/slack-driver.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { booked } = botsPerTest();

/** /book to the review: the usual shipment (with `changes`), the usual receiver at `phone`, the Pasig profile, no parcels. */
async function toReview(bot: TestBot, phone: string, changes: Record<string, string> = {}): Promise<View> {
  await bot.command('/book');
  const second = await next(bot, await bot.openedView(), { ...shipment, ...changes });
  const third = await next(bot, second, { ...receiver, 'consignee.phone': phone });
  await bot.selectInView(third, ids.bookingProfile, 'pasig-warehouse');
  const sender = await bot.updatedView(third.id, (v) => textOf(v.blocks).includes('Acme Pasig Warehouse'));
  const review = await next(bot, await next(bot, sender, {}), {});
  expect(review.callback_id).toBe(ids.bookingReview);
  return review;
}

/** The card of a booking as first posted to its channel. */
async function cardOf(bot: TestBot, trackingNumber: string): Promise<string> {
  const posted = await bot.fake.waitFor(
    'chat.postMessage',
    (c) => c.body.channel === 'CDISPATCH' && textOf(c.body.blocks).includes(`Booked \`${trackingNumber}\``),
  );
  return textOf(posted.body.blocks);
}

const hasCheckbox = (view: View) => view.blocks.some((b) => b.block_id === RECEIVER_CONFIRM_BLOCK);

describeEachBackend(import.meta.filename, "the receiver's record", (backend) => {
  it('a returned and refused COD parcel flags the receiver: the review shows the counts and needs the call confirmed; booked with it, the card and audit log say who', async () => {
    const bot = await booked({ backend });
    // WB000001 went to 0917 123 4567: refused once, then returned to sender.
    await bot.command('/waybill', 'status WB000001 failed attempt refused');
    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();

    const review = await toReview(bot, '+63 917 123 4567');
    const shown = textOf(review.blocks);
    expect(shown).toContain(
      "*Receiver's record*: 1 earlier parcel: 1 failed attempt, 1 returned, 1 COD refused",
    );
    expect(shown).toContain('*Flagged*: 1 returned or refused of the last 5 parcels');
    expect(hasCheckbox(review)).toBe(true);
    expectWithinSlackLimits({ type: 'modal', ...review });

    // Confirm booking without the box: refused on the box, nothing sent (the one booking is WB000001).
    const refused = await bot.submit(review);
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: { [RECEIVER_CONFIRM_BLOCK]: expect.stringContaining('I called the receiver') },
    });
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);

    await bot.submit(review, { [RECEIVER_CONFIRM_BLOCK]: 'called' });
    await bot.idle();
    const card = await cardOf(bot, 'WB000002');
    expect(card).toContain(
      "Receiver's record when booked: 1 earlier parcel: 1 failed attempt, 1 returned, 1 COD refused · :warning: flagged; <@UDISPATCH>: “I called the receiver and they expect this parcel”",
    );
    expect(await bot.deps.store.audit.list({ operation: 'receiver' })).toMatchObject([
      {
        userId: 'UDISPATCH',
        trackingNumber: 'WB000002',
        outcome: 'confirmed',
        detail:
          'I called the receiver and they expect this parcel: 1 earlier parcel: 1 failed attempt, 1 returned, 1 COD refused',
      },
    ]);

    // A status recorded on it redraws the card: the record stays.
    bot.fake.reset();
    await bot.command('/waybill', 'status WB000002 picked-up');
    await bot.idle();
    const redrawn = await bot.fake.waitFor('chat.update', (c) => c.body.channel === 'CDISPATCH');
    expect(textOf(redrawn.body.blocks)).toContain("Receiver's record when booked: 1 earlier parcel");
    expect(textOf(redrawn.body.blocks)).toContain('<@UDISPATCH>: “I called the receiver');
  });

  it('a prepaid booking to a flagged receiver shows the record but needs no confirmation; the export and digest count flagged bookings', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 failed attempt not-at-home');
    await bot.command('/waybill', 'status WB000001 failed attempt wrong-address');
    await bot.idle();

    const review = await toReview(bot, '(0917) 123-4567', { paymentMethod: 'PREPAID', codAmount: '' });
    expect(textOf(review.blocks)).toContain("*Receiver's record*: 1 earlier parcel: 2 failed attempts");
    expect(textOf(review.blocks)).toContain('*Flagged*: 2 failed attempts in the last 5 parcels');
    expect(hasCheckbox(review)).toBe(false);
    await bot.submit(review);
    await bot.idle();
    expect(await cardOf(bot, 'WB000002')).toContain(
      "Receiver's record when booked: 1 earlier parcel: 2 failed attempts · :warning: flagged",
    );
    expect(await bot.deps.store.audit.list({ operation: 'receiver' })).toMatchObject([
      { userId: 'UDISPATCH', trackingNumber: 'WB000002', outcome: 'flagged' },
    ]);

    const { rows } = await exportedToday(bot);
    const flagged = rows.map((row) => [row.tracking_number, row.receiver_flagged]);
    expect(flagged).toEqual([
      ['WB000001', ''],
      ['WB000002', 'yes'],
    ]);
    const digest = textOf((await bot.command('/waybill', 'digest')).body.blocks);
    expect(digest).toContain('*2 bookings*');
    expect(digest).toContain('1 booking to flagged receivers');
  });

  it('a receiver with no earlier parcel, or another phone: no line, nothing to confirm; with the rules off (0), counts only', async () => {
    const bot = await booked({
      backend,
      env: { RECEIVER_RISK_RETURNS: '0', RECEIVER_RISK_FAILED: '0' },
    });
    const other = await toReview(bot, '0918 765 4321');
    expect(textOf(other.blocks)).not.toContain("Receiver's record");
    expect(hasCheckbox(other)).toBe(false);
    await bot.close(other);

    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();
    const review = await toReview(bot, '0917 123 4567');
    expect(textOf(review.blocks)).toContain("*Receiver's record*: 1 earlier parcel: 1 returned");
    expect(textOf(review.blocks)).not.toContain('Flagged');
    expect(hasCheckbox(review)).toBe(false);
    await bot.submit(review);
    await bot.idle();
    // WB000002 went to the closed form.
    expect(await cardOf(bot, 'WB000003')).toContain(
      "Receiver's record when booked: 1 earlier parcel: 1 returned",
    );
    expect(await bot.deps.store.audit.list({ operation: 'receiver' })).toEqual([]);
  });

  it('a receiver flagged while the review is open: Confirm booking draws it again with the box, then books with it ticked', async () => {
    const bot = await booked({ backend });
    const review = await toReview(bot, '0917 123 4567');
    expect(textOf(review.blocks)).toContain("*Receiver's record*: 1 earlier parcel");
    expect(hasCheckbox(review)).toBe(false);
    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();

    const again = await bot.submit(review);
    expect(again.body.response_action).toBe('update');
    const redrawn = bot.ackedView(again, review.id);
    expect(textOf(redrawn.blocks)).toContain("*Receiver's record*: 1 earlier parcel: 1 returned");
    expect(hasCheckbox(redrawn)).toBe(true);
    await bot.submit(redrawn, { [RECEIVER_CONFIRM_BLOCK]: 'called' });
    await bot.idle();
    expect(await cardOf(bot, 'WB000002')).toContain('<@UDISPATCH>: “I called the receiver');
  });

  it('Try again after the courier refused a flagged COD booking: the confirmed call holds, booked once', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();
    const review = await toReview(bot, '0917 123 4567');
    bot.sandbox.setFaults({
      status: 422,
      body: JSON.stringify({ ResponseCode: '422', ResponseDetail: 'Route not served' }),
      contentType: 'application/json',
    });
    await bot.submit(review, { [RECEIVER_CONFIRM_BLOCK]: 'called' });
    await bot.idle();
    const failed = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Not booked'));
    bot.sandbox.setFaults(undefined);
    await bot.clickInView(failed, ids.bookingRetry);
    await bot.idle();
    expect(await cardOf(bot, 'WB000002')).toContain('<@UDISPATCH>: “I called the receiver');
    // WB000001, the refused attempt and the booking.
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(3);
    expect(await bot.deps.store.audit.list({ operation: 'receiver' })).toMatchObject([
      { trackingNumber: 'WB000002', outcome: 'confirmed', userId: 'UDISPATCH' },
    ]);
  });

  it("a workflow's booking to a flagged receiver keeps the record on its card and in the audit log, flagged, with nobody to confirm", async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();
    const { completion } = await bot.step({
      callbackId: ids.stepBook,
      executionId: 'Fx0RECEIVER1',
      inputs: {
        receiver_name: 'Maria Santos',
        receiver_phone: '+63 917 123 4567',
        receiver_address: '88 Rizal Ave',
        receiver_barangay: 'Lahug',
        receiver_city: 'Cebu City',
        receiver_province: 'Cebu',
        cod_amount: '1500.00',
        weight_kg: 2.5,
        item_description: 'Kitchen scales',
        channel_id: 'CDISPATCH',
        requested_by: 'UDISPATCH',
      },
    });
    expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
    expect(await cardOf(bot, 'WB000002')).toContain(
      "Receiver's record when booked: 1 earlier parcel: 1 returned · :warning: flagged",
    );
    expect(await bot.deps.store.audit.list({ operation: 'receiver' })).toMatchObject([
      { trackingNumber: 'WB000002', outcome: 'flagged', userId: 'UDISPATCH' },
    ]);
  });

  it('a bookings file: the check step flags the COD row to a flagged receiver and counts it; booked with the rest, it keeps its record', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 returned');
    await bot.idle();

    const file = bot.fake.addFile({
      name: 'orders.csv',
      content: bulkFile(
        bulkRow('Ana Cruz', { phone: '+63 917 123 4567' }),
        bulkRow('Ben Uy', { phone: '0918 765 4321' }),
      ),
    });
    await bot.command('/book', 'import');
    const modal = await bot.openedView();
    await bot.submit(modal, { file: file.id });
    await bot.idle();
    const summary = await bot.updatedView(modal.id, (view) => view.callback_id === ids.bulkConfirm);
    const shown = textOf(summary.blocks);
    expect(shown).toContain('2 rows ready to book');
    expect(shown).toContain(':warning: *1 COD row goes to flagged receivers*');
    expect(shown).toContain(
      '• Row 2: 1 earlier parcel: 1 returned (1 returned or refused of the last 5 parcels)',
    );
    expect(shown).not.toContain('Row 3');
    expectWithinSlackLimits({ type: 'modal', ...summary });

    await bot.submit(summary);
    await bot.idle();
    await bot.updatedView(summary.id, (view) => textOf(view).includes(':checkered_flag:'));
    expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(3);
    const audit = await bot.deps.store.audit.list({ operation: 'receiver' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'flagged', detail: '1 earlier parcel: 1 returned' });
    const checks = await bot.deps.store.receivers.checksOf([audit[0]?.trackingNumber ?? '']);
    expect([...checks.values()]).toEqual([
      { parcels: 1, delivered: 0, failed: 0, returned: 1, refused: 0, flagged: true },
    ]);
  });
});
