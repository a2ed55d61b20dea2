/**
 * COD remittance end to end on both backends: `/waybill remittance` and the Home tab's button, the file
 * downloaded with the bot's token, one file with every kind of line (card, totals of our bookings with
 * not-ours apart, problems first, escaping, results file in the thread), the outstanding list (a short or
 * zero payment stays on it), fees by booking day, a returned booking, `/waybill cod`'s ageing and its file,
 * the booking card edited, a re-import that changes nothing, a correcting file, `/waybill show`, its
 * permission; an unreadable file.
 */
// COD remittance end to end, on both backends: /waybill remittance and the Home tab's button, the file downloaded as Slack serves it, card, results file, outstanding list, booking cards, re-import, correction, permission.
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { zonedDateAndTime } from '../../src/waybill/dates.js';
import { describeEachBackend } from '../store/backends.js';
import { bookThroughModal } from '../support/booking-flow.js';
import {
  fixedNow,
  renderPoolPerFile,
  secrets,
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);
const DAY = 24 * 60 * 60 * 1000;

let bot: TestBot;
let clock = fixedNow.getTime();
// The CSV files are made by one worker for the whole file: no test here is about the pool.
const render = renderPoolPerFile();

/** `/waybill remittance` (or the Home tab's button), the file chosen, Reconcile: the modal's last word. */
async function reconcile(content: string, name: string, via: 'command' | 'home' = 'command'): Promise<View> {
  const file = bot.fake.addFile({ name, content });
  if (via === 'command') await bot.command('/waybill', 'remittance');
  else await bot.clickInHome(ids.remittanceOpen);
  const modal = await bot.openedView();
  expect(modal.callback_id).toBe(ids.remittanceImport);
  // From the Home tab there is no current conversation: the channel is chosen.
  const ack = await bot.submit(
    modal,
    via === 'home' ? { file: file.id, destination: 'CDISPATCH' } : { file: file.id },
  );
  expect(textOf(ack.body.view)).toContain('Reconciling');
  await bot.idle();
  return bot.updatedView(modal.id, (view) => /reconciled|Nothing/.test(textOf(view)));
}

/** A booking beside WB000001 (booked through the modal): a copy of its record with its own COD (and `more`), booked `daysAgo`. */
async function addBooking(
  trackingNumber: string,
  paymentMethod: string,
  codAmount: string,
  daysAgo: number,
  more: Record<string, unknown> = {},
) {
  const base = await bot.deps.store.bookings.get<Record<string, unknown>>('WB000001');
  if (!base) throw new Error('WB000001 was not booked');
  await bot.deps.store.bookings.insert({
    trackingNumber,
    trackingRefNo: `R-${trackingNumber}`,
    record: { ...base.record, trackingNumber, paymentMethod, codAmount, childWaybills: [], ...more },
    channelId: 'CDISPATCH',
    bookedBy: 'UDISPATCH',
    bookedAt: new Date(fixedNow.getTime() - daysAgo * DAY),
  });
}

/** A status recorded `daysAgo`, as the store stamps it with the bot's clock. */
async function recordedDaysAgo(trackingNumber: string, status: string, daysAgo: number, reason?: string) {
  clock = fixedNow.getTime() - daysAgo * DAY;
  await bot.deps.store.statuses.record({
    trackingNumber,
    status,
    userId: 'UDISPATCH',
    ...(reason ? { reason } : {}),
  });
  clock = fixedNow.getTime();
}

/** WB000001 booked through the modal, and bookings beside it of their own COD and age. */
async function seedBookings() {
  await bookThroughModal(bot);
  await addBooking('OLD-M', 'COD', '1500.00', 10);
  await addBooking('OLD-S', 'COD', '1500.00', 10);
  await addBooking('OLD-X', 'COD', '200.00', 10);
  await addBooking('NEW-X', 'COD', '300.00', 2);
  await addBooking('PRE', 'PREPAID', '0.00', 10);
}

/** 2.75 % and 12 % VAT on it, for bookings from 2026-11-18: OLD-* (2026-11-13) are before it. */
const feeRule = { COD_FEE_PERCENT: '2.75', COD_FEE_VAT_PERCENT: '12', COD_FEE_FROM: '2026-11-18' };

const firstFile = [
  'Tracking Number,Amount,Remitted At,Status',
  'WB000001,"PHP 1,500.00",2026-11-20,delivered',
  'OLD-M,"\u20b11,500",2026-11-20,delivered',
  'OLD-S,1400,2026-11-20,delivered',
  'PRE,50,,',
  'NOPE<&>,10,,',
  'WB000001,1500,,',
  'BAD,abc,,',
].join('\r\n');

describeEachBackend(import.meta.filename, 'COD remittance', (backend) => {
  // The store stamps statuses with the test's clock, so a status can be recorded days ago.
  const startTestBot = async (options: TestBotOptions = {}) => {
    const now = () => new Date(clock);
    return startBot({ store: await backend.open({ now }), render: render(), now, ...options });
  };

  afterEach(async () => {
    await bot?.stop();
  });

  it('one file with every kind of line, a re-import, a correcting file, the outstanding list and the cards', async () => {
    bot = await startTestBot();
    await seedBookings();
    await recordedDaysAgo('OLD-S', 'delivered', 10);
    await recordedDaysAgo('OLD-X', 'delivered', 9);
    const bookingCard = await bot.fake.waitFor('chat.postMessage', (c) =>
      textOf(c.body).includes('Booked `WB000001`'),
    );
    const cardTs = (bookingCard.response?.body as { ts?: string } | undefined)?.ts;

    const done = await reconcile(firstFile, 'remit-1.csv');
    expect(textOf(done.blocks)).toContain(
      'reconciled: 1 unreadable, 1 already remitted (paid twice), 1 not ours, 1 not COD (prepaid), 1 short, 2 matched',
    );
    // Read with the bot's own token.
    expect(bot.fake.downloads).toEqual([expect.objectContaining({ token: secrets.botToken })]);

    const card = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('COD remittance'));
    expect(card.body.channel).toBe('CDISPATCH');
    const shown = textOf(card.body.blocks);
    expect(shown).toContain('*Expected* PHP 4,500.00');
    expect(shown).toContain('*Remitted* PHP 5,950.00');
    expect(shown).toContain('*Difference* PHP 1,450.00');
    // The short payment is not hidden by the double payment netted against it.
    expect(shown).toContain('*Paid short* PHP -100.00   *Paid over* PHP 1,550.00');
    expect(shown).toContain('*Not ours* PHP 10.00 (1 line');
    // Problems first; everything typed escaped.
    expect(shown.indexOf(': unreadable')).toBeLessThan(shown.indexOf(': short'));
    expect(shown).toContain('NOPE&lt;&amp;&gt;');
    expect(shown).not.toContain('NOPE<&>');
    expect(String(card.body.text)).not.toContain('<&>');

    const remittanceTs = (card.response?.body as { ts?: string } | undefined)?.ts;
    const [results, outstanding] = bot.fake.uploadsCompleted();
    expect(results).toMatchObject({
      channelId: 'CDISPATCH',
      threadTs: remittanceTs,
      filename: 'remittance-results-remit-1.csv',
    });
    const rows = parse(results?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.line, r.tracking_number, r.amount, r.outcome, r.difference])).toEqual([
      ['2', 'WB000001', '1500.00', 'matched', '0.00'],
      ['3', 'OLD-M', '1500.00', 'matched', '0.00'],
      ['4', 'OLD-S', '1400.00', 'short', '-100.00'],
      ['5', 'PRE', '50.00', 'not cod', ''],
      ['6', 'NOPE<&>', '10.00', 'not ours', ''],
      ['7', 'WB000001', '1500.00', 'already remitted', '1500.00'],
      ['8', 'BAD', 'abc', 'problem', ''],
    ]);

    // COD overdue: delivered over 7 days ago, not paid in full (the short one with what is left). Not the
    // one not yet delivered (in the pipeline), the prepaid one, or the paid one.
    const list = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('COD overdue'));
    const listed = textOf(list.body.blocks);
    expect(listed).toContain(
      '*COD owed* (delivered or paid in part, not yet remitted): 2 bookings, PHP 300.00',
    );
    expect(listed).toContain('*Overdue* (owed, delivered more than 7 days ago): 2 bookings, PHP 300.00');
    expect(listed).toContain('*In the pipeline* (not yet delivered): 1 booking, PHP 300.00');
    expect(listed).toContain('`OLD-X` PHP 200.00 \u00b7');
    expect(listed).toContain('`OLD-S` PHP 100.00 still due of COD PHP 1,500.00');
    expect(listed).toContain('delivered 2026-11-13, 10 days ago');
    expect(listed).not.toMatch(/NEW-X|`PRE`|OLD-M/);
    expect(outstanding?.filename).toBe('cod-overdue.csv');
    expect(parse(outstanding?.text ?? '', { bom: true, columns: true })).toEqual([
      expect.objectContaining({ tracking_number: 'OLD-S', cod_amount: '1500.00', outstanding: '100.00' }),
      expect.objectContaining({ tracking_number: 'OLD-X', cod_amount: '200.00', outstanding: '200.00' }),
    ]);

    // The booking card, edited in place.
    const edited = await bot.fake.waitFor('chat.update', (c) => c.body.ts === cardTs);
    expect(textOf(edited.body.blocks)).toContain(
      'COD remitted PHP 1,500.00 \u00b7 remit-1.csv \u00b7 2026-11-20',
    );

    // The same content again, under another name: nothing changes, and the modal says so.
    const posts = bot.fake.callsTo('chat.postMessage').length;
    const again = await reconcile(firstFile, 'remit-1 (copy).csv', 'home');
    expect(textOf(again.blocks)).toContain('same content as *remit-1.csv*');
    expect(textOf(again.blocks)).toContain('Nothing changed');
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(posts);

    // A correcting file: the top-up settles OLD-S; OLD-M paid again is a double payment.
    const corrected = await reconcile(
      'tracking_number,amount\r\nOLD-S,100\r\nOLD-M,"1,500.00"\r\n',
      'remit-2 <!channel>.csv',
    );
    expect(textOf(corrected.blocks)).toContain('1 already remitted (paid twice), 1 matched');
    const history = await bot.deps.store.remittances.ofBookings(['OLD-S']);
    expect(history.map((h) => [h.fileName, h.amount, h.outcome])).toEqual([
      ['remit-1.csv', '1400.00', 'short'],
      ['remit-2 <!channel>.csv', '100.00', 'matched'],
    ]);
    const shownCard = await bot.command('/waybill', 'show OLD-S');
    expect(textOf(shownCard.body)).toContain('Remitted PHP 1,500.00 of PHP 1,500.00, difference PHP 0.00');
    expect(textOf(shownCard.body)).toContain('COD remitted PHP 100.00 \u00b7 remit-2 &lt;!channel&gt;.csv');
    expect(textOf(shownCard.body)).not.toContain('<!channel>');

    // The export gains what was remitted and the difference.
    const uploads = bot.fake.uploadsCompleted().length;
    const [booked] = await bot.deps.store.audit.list({ operation: 'book' });
    if (!booked) throw new Error('a booking expected');
    // The day as the export reads it, in the waybill's time zone (not UTC's, a day apart for hours of every day).
    const day = zonedDateAndTime(booked.at, bot.deps.waybill.timeZone).date;
    await bot.command('/waybill', `export ${day}`);
    await bot.idle();
    const exported = parse(bot.fake.uploadsCompleted()[uploads]?.text ?? '', { bom: true, columns: true });
    expect(exported).toEqual([
      expect.objectContaining({
        tracking_number: 'WB000001',
        cod_amount: '1500.00',
        cod_remitted: '1500.00',
        cod_difference: '0.00',
      }),
    ]);
  });

  /** The card, the results file's outcomes and the outstanding list of the file just reconciled. */
  async function reconciled(content: string, name: string) {
    await reconcile(content, name);
    const card = await bot.fake.waitFor('chat.postMessage', (c) =>
      textOf(c.body).includes(`COD remittance ${name}`),
    );
    const list = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('COD overdue'));
    const [results] = bot.fake.uploadsCompleted();
    const rows = parse(results?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    return {
      card: textOf(card.body.blocks),
      outcomes: rows.map((r) => [r.tracking_number, r.outcome]),
      list: textOf(list.body.blocks),
    };
  }

  it("totals our bookings' expected, remitted and difference, the not-ours lines' total apart", async () => {
    bot = await startTestBot();
    await seedBookings();
    const { card } = await reconciled(
      'tracking_number,amount\r\nOLD-M,"1,500.00"\r\nOLD-S,"1,000.00"\r\nWB000001,"1,600.00"\r\nNEVER,100.00\r\n',
      'mixed.csv',
    );
    expect(card).toContain('*Expected* PHP 4,500.00   *Remitted* PHP 4,100.00   *Difference* PHP -400.00');
    // The 100.00 over does not hide the 500.00 short.
    expect(card).toContain('*Paid short* PHP -500.00   *Paid over* PHP 100.00');
    expect(card).toContain('*Not ours* PHP 100.00 (1 line for tracking numbers we never booked)');
  });

  it('makes another currency and digits split by spaces problem lines, not pesos', async () => {
    bot = await startTestBot();
    await seedBookings();
    const { card, outcomes, list } = await reconciled(
      'tracking_number,amount\r\nOLD-M,USD 1500\r\nOLD-S,"EUR 1,500.00"\r\nWB000001,1 5 0 0\r\n',
      'foreign.csv',
    );
    expect(outcomes).toEqual([
      ['OLD-M', 'problem'],
      ['OLD-S', 'problem'],
      ['WB000001', 'problem'],
    ]);
    expect(card).toContain('amount \\"USD 1500\\" is not in PHP');
    expect(card).toContain('*Remitted* PHP 0.00');
    // Nothing was paid, nothing delivered: every COD booking is still in the pipeline in full.
    expect(list).toContain('*COD owed* (delivered or paid in part, not yet remitted): none');
    expect(list).toContain('*In the pipeline* (not yet delivered): 5 bookings, PHP 5,000.00');
  });

  it('keeps a booking paid 0 owed, and makes an amount over the limit a problem line', async () => {
    bot = await startTestBot();
    await seedBookings();
    const { outcomes, list, card } = await reconciled(
      `tracking_number,amount\r\nOLD-M,0\r\nOLD-S,${'9'.repeat(32)}\r\n`,
      'absurd.csv',
    );
    expect(outcomes).toEqual([
      ['OLD-M', 'short'],
      ['OLD-S', 'problem'],
    ]);
    expect(card).toContain('the most a booking may carry');
    // Paid (0 of it) by a file: the courier has it, so it is owed, from today; the others are in the pipeline.
    expect(list).toContain(
      '*COD owed* (delivered or paid in part, not yet remitted): 1 booking, PHP 1,500.00',
    );
    expect(list).toContain('*In the pipeline* (not yet delivered): 4 bookings, PHP 3,500.00');
  });

  it("judges each line against the net after the fee in force on the booking's day, as the booking cards do; a returned booking's fee apart; a returned booking is not owed", async () => {
    bot = await startTestBot({ env: { ...feeRule, RETURN_FEE: '60' } });
    await seedBookings();
    expect((await bot.command('/waybill', 'status OLD-X returned')).body.text).not.toMatch(
      /cannot|not allowed/i,
    );
    const { card, list } = await reconciled(
      [
        'tracking_number,amount,status',
        // 1,500.00 less 41.25 and 4.95 VAT: the net.
        'WB000001,"1,453.80",delivered',
        // The gross of 300.00: over by its fee of 8.25 and 0.99.
        'NEW-X,300.00,delivered',
        // Booked before the rule: no fee.
        'OLD-M,"1,500.00",delivered',
        // Came back: nothing collected, the return fee charged.
        'OLD-X,0,returned',
      ].join('\r\n'),
      'net.csv',
    );
    expect(card).toContain('1 over, 3 matched');
    // Gross − Fee = Net; the return fee apart, as no COD was collected on it.
    expect(card).toContain('*Gross* PHP 3,300.00 \u2212 *Fee* PHP 55.44 = *Net* PHP 3,244.56');
    expect(card).toContain('*Return fees* PHP 60.00 (returned parcels: no COD collected)');
    expect(card).toContain('*Expected* PHP 3,244.56   *Remitted* PHP 3,253.80   *Difference* PHP 9.24');
    expect(card).toContain(
      '`NEW-X` PHP 300.00: over, difference PHP 9.24 \u00b7 COD PHP 300.00, fee PHP 9.24, net PHP 290.76 (Over by the fee: the gross amount was paid)',
    );
    const [results] = bot.fake.uploadsCompleted();
    const rows = parse(results?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(
      rows.map((r) => [
        r.tracking_number,
        r.gross,
        r.fee,
        r.net,
        r.return_fee,
        r.amount,
        r.difference,
        r.outcome,
      ]),
    ).toEqual([
      ['WB000001', '1500.00', '46.20', '1453.80', '', '1453.80', '0.00', 'matched'],
      ['NEW-X', '300.00', '9.24', '290.76', '', '300.00', '9.24', 'over'],
      ['OLD-M', '1500.00', '0.00', '1500.00', '', '1500.00', '0.00', 'matched'],
      ['OLD-X', '0.00', '0.00', '0.00', '60.00', '0.00', '0.00', 'matched'],
    ]);
    // OLD-S is due in full (no fee before the rule), not yet delivered; OLD-X came back, so nothing was collected.
    expect(list).toContain('*COD owed* (delivered or paid in part, not yet remitted): none');
    expect(list).toContain('*In the pipeline* (not yet delivered): 1 booking, PHP 1,500.00');
    // Each booking card judges what was paid against the same net as the remittance card.
    expect(textOf((await bot.command('/waybill', 'show WB000001')).body)).toContain(
      'Remitted PHP 1,453.80 of net PHP 1,453.80 (COD PHP 1,500.00 \u2212 fee PHP 46.20), difference PHP 0.00',
    );
    expect(textOf((await bot.command('/waybill', 'show NEW-X')).body)).toContain(
      'Remitted PHP 300.00 of net PHP 290.76 (COD PHP 300.00 \u2212 fee PHP 9.24), difference PHP 9.24',
    );
  });

  it('raises a conflict when the courier pays as delivered a parcel our record says failed an attempt', async () => {
    bot = await startTestBot();
    await seedBookings();
    await recordedDaysAgo('OLD-S', 'failed_attempt', 1, 'refused');
    const { card } = await reconciled(
      'tracking_number,amount,status\r\nOLD-S,"1,500.00",delivered\r\nOLD-M,"1,500.00",delivered\r\n',
      'conflict.csv',
    );
    expect(card).toContain(':rotating_light: *1 line contradicts a status we recorded*');
    // Listed although matched, first; the other matched line is not.
    expect(card).toContain(
      ':rotating_light: line 2 `OLD-S` PHP 1,500.00: matched (Paid as delivered, but our last status is a failed attempt)',
    );
    expect(card).not.toContain('`OLD-M`');
  });

  it('/waybill cod: the COD owed by days since delivery and by sender, overdue and in the pipeline, privately, with the CSV file', async () => {
    bot = await startTestBot({ env: { ALLOWED_FINANCE_USER_IDS: 'UDISPATCH' } });
    await seedBookings();
    const base = await bot.deps.store.bookings.get<{ shipper: Record<string, unknown> }>('WB000001');
    const shipper = { ...base?.record.shipper, name: 'Tindahan <&> ni Nena' };
    await addBooking('AGED-20', 'COD', '100.00', 20, { shipper });
    await addBooking('AGED-40', 'COD', '250.00', 40, { shipper });
    // Delivered today: aged from today, not from its booking 10 days ago. Returned: nothing is owed.
    // Not delivered (WB000001, NEW-X): in the pipeline. Delivered "tomorrow" by a clock ahead: today.
    await bot.command('/waybill', 'status OLD-M delivered');
    await bot.command('/waybill', 'status OLD-X returned');
    await recordedDaysAgo('OLD-S', 'delivered', 10);
    await recordedDaysAgo('AGED-20', 'delivered', 20);
    await recordedDaysAgo('AGED-40', 'delivered', 40);
    await addBooking('AHEAD', 'COD', '50.00', 0);
    await recordedDaysAgo('AHEAD', 'delivered', -1);

    const ack = await bot.command('/waybill', 'cod');
    expect(ack.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Working out'),
    });
    const answer = await bot.fake.waitFor('response_url', (c) => textOf(c.body).includes('COD owed:'));
    expect(answer.body.response_type).toBe('ephemeral');
    const shown = textOf(answer.body.blocks);
    expect(String(answer.body.text)).toBe(
      'COD owed: 5 bookings, PHP 3,400.00; in the pipeline: 2 bookings, PHP 1,800.00',
    );
    expect(shown).toContain(
      '*COD owed* (delivered or paid in part, not yet remitted): 5 bookings, PHP 3,400.00 \u00b7 by days since delivery: 0\u20137 days PHP 1,550.00 (2) \u00b7 8\u201314 days PHP 1,500.00 (1) \u00b7 15\u201330 days PHP 100.00 (1) \u00b7 over 30 days PHP 250.00 (1)',
    );
    expect(shown).toContain('*Overdue* (owed, delivered more than 7 days ago): 3 bookings, PHP 1,850.00');
    expect(shown).toContain('*In the pipeline* (not yet delivered): 2 bookings, PHP 1,800.00');
    expect(shown).toContain(
      '*Tindahan &lt;&amp;&gt; ni Nena*: PHP 350.00 \u00b7 15\u201330 days PHP 100.00 (1) \u00b7 over 30 days PHP 250.00 (1)',
    );
    expect(shown).not.toMatch(/<&>|OLD-X/);
    expect(shown.indexOf('PHP 3,050.00')).toBeLessThan(shown.indexOf('Tindahan'));

    await bot.idle();
    const [file] = bot.fake.uploadsCompleted();
    expect(file?.filename).toBe('cod-owed.csv');
    const rows = parse(file?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.tracking_number, r.outstanding, r.since, r.days, r.age])).toEqual([
      ['AGED-20', '100.00', '2026-11-03', '20', '15\u201330 days'],
      ['AGED-40', '250.00', '2026-10-14', '40', 'over 30 days'],
      // Never a day after today.
      ['AHEAD', '50.00', '2026-11-23', '0', '0\u20137 days'],
      ['OLD-M', '1500.00', '2026-11-23', '0', '0\u20137 days'],
      ['OLD-S', '1500.00', '2026-11-13', '10', '8\u201314 days'],
    ]);
    expect(rows.find((r) => r.tracking_number === 'AGED-40')?.sender_name).toBe('Tindahan <&> ni Nena');

    expect((await bot.command('/waybill', 'cod', { user_id: 'USTRANGER' })).body.text).toContain(
      'may reconcile COD remittance files',
    );
  });

  it('one store, every surface: the Home tab, the digest, /waybill cod and the list after a file give the same COD figures; cards and the remittance card the same differences', async () => {
    bot = await startTestBot({ env: { ...feeRule, ALLOWED_FINANCE_USER_IDS: 'UDISPATCH' } });
    await seedBookings();
    await addBooking('TRANSIT', 'COD', '700.00', 3);
    await recordedDaysAgo('OLD-M', 'delivered', 9);
    await recordedDaysAgo('OLD-S', 'failed_attempt', 1, 'refused');
    await recordedDaysAgo('OLD-X', 'returned', 1);
    await recordedDaysAgo('NEW-X', 'in_transit', 1);
    await recordedDaysAgo('TRANSIT', 'picked_up', 1);
    await recordedDaysAgo('WB000001', 'delivered', 0);
    const { card } = await reconciled(
      // WB000001's net is 1,453.80 (1,500.00 less 41.25 and 4.95 VAT): 53.80 short. OLD-S, booked before
      // the fee, paid as delivered after our failed attempt. NEW-X's net of 290.76 paid exactly.
      'tracking_number,amount,status\r\nWB000001,"1,400.00",delivered\r\nOLD-S,"1,500.00",delivered\r\nNEW-X,290.76,delivered',
      'week.csv',
    );
    expect(card).toContain('*Paid short* PHP -53.80   *Paid over* PHP 0.00');
    expect(card).toContain('*1 line contradicts a status we recorded*');

    // By hand: owed WB000001's 53.80 (delivered today) and OLD-M's 1,500.00 (9 days, overdue);
    // in the pipeline TRANSIT's net, 700.00 less 19.25 and 2.31 VAT; OLD-X returned, the rest paid.
    const figures = (blocks: unknown) => /\*COD owed\*[^"]*/.exec(textOf(blocks))?.[0];
    const expected = [
      '*COD owed* (delivered or paid in part, not yet remitted): 2 bookings, PHP 1,553.80 \u00b7 by days since delivery: 0\u20137 days PHP 53.80 (1) \u00b7 8\u201314 days PHP 1,500.00 (1)',
      '*Overdue* (owed, delivered more than 7 days ago): 1 booking, PHP 1,500.00',
      '*In the pipeline* (not yet delivered): 1 booking, PHP 678.44',
    ].join('\n');
    const list = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('COD overdue'));
    const digest = await bot.command('/waybill', 'digest');
    await bot.command('/waybill', 'cod');
    const cod = await bot.fake.waitFor('response_url', (c) => textOf(c.body).includes('COD owed:'));
    await bot.idle();
    await bot.event({ type: 'app_home_opened', user: 'UDISPATCH', channel: 'DHOME', tab: 'home' });
    await bot.idle();
    const home = await bot.fake.waitFor('views.publish', (c) => textOf(c.body).includes('COD owed'));
    // As the blocks' JSON holds it.
    expect(figures(list.body.blocks)).toBe(JSON.stringify(expected).slice(1, -1));
    for (const surface of [digest.body.blocks, cod.body.blocks, home.body.view]) {
      expect(figures(surface)).toBe(figures(list.body.blocks));
    }
    // The owed figure is the file's bookings added up.
    const owedFile = bot.fake.uploadsCompleted().find((u) => u.filename === 'cod-owed.csv');
    const owedRows = parse(owedFile?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(owedRows.map((r) => [r.tracking_number, r.outstanding])).toEqual([
      ['OLD-M', '1500.00'],
      ['WB000001', '53.80'],
    ]);

    // Each booking card's difference is the remittance card's for its line.
    const [results] = bot.fake.uploadsCompleted();
    const rows = parse(results?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    for (const row of rows) {
      const shown = textOf((await bot.command('/waybill', `show ${row.tracking_number}`)).body);
      const difference = row.difference?.replace(
        /^(-?)(\d+)(\.\d\d)$/,
        (_, sign, whole, cents) => `${sign}${Number(whole).toLocaleString('en-US')}${cents}`,
      );
      expect(shown).toContain(`difference PHP ${difference}`);
    }
    expect(rows.map((r) => [r.tracking_number, r.difference])).toEqual([
      ['WB000001', '-53.80'],
      ['OLD-S', '0.00'],
      ['NEW-X', '0.00'],
    ]);
  });

  it('is refused to whoever may not, by ALLOWED_FINANCE_USER_IDS or, unset, by who may book from a file', async () => {
    bot = await startTestBot({ env: { ALLOWED_FINANCE_USER_IDS: 'UFIN' } });
    const refused = await bot.command('/waybill', 'remittance');
    expect(refused.body.text).toContain('may reconcile COD remittance files');
    await bot.clickInHome(ids.remittanceOpen, undefined, 'UFIN');
    expect((await bot.openedView()).callback_id).toBe(ids.remittanceImport);
    await bot.stop();

    bot = await startTestBot({ env: { ALLOWED_BULK_USER_IDS: 'UBULK' } });
    expect((await bot.command('/waybill', 'remittance')).body.text).toContain(
      'may reconcile COD remittance files',
    );
    await bot.clickInHome(ids.remittanceOpen, undefined, 'UBULK');
    const modal = await bot.openedView();
    expect(modal.callback_id).toBe(ids.remittanceImport);
    // The submission is checked too: someone else's gets the refusal, and no file is read.
    const file = bot.fake.addFile({ name: 'remit.csv', content: 'tracking_number,amount\r\nX,1\r\n' });
    const refusedSubmit = await bot.submit(modal, { file: file.id, destination: 'CDISPATCH' }, 'UDISPATCH');
    expect(textOf(refusedSubmit.body.view)).toContain('may reconcile COD remittance files');
    expect(bot.fake.downloads).toEqual([]);
    await bot.stop();

    // Members of a finance user group.
    bot = await startTestBot({ env: { ALLOWED_FINANCE_USERGROUP_IDS: 'SFINANCE' } });
    bot.fake.respond('usergroups.users.list', { ok: true, users: ['UDISPATCH'] });
    await bot.command('/waybill', 'remittance');
    expect((await bot.openedView()).callback_id).toBe(ids.remittanceImport);
    expect((await bot.command('/waybill', 'remittance', { user_id: 'USTRANGER' })).body.text).toContain(
      'may reconcile COD remittance files',
    );
  });
});

describe('a remittance file while Slack rate-limits its posts', () => {
  afterEach(async () => {
    await bot?.stop();
  });

  it('Slack answering 429 with Retry-After to the card and to the outstanding list: each waited out and posted once, with its file; the modal says where', async () => {
    bot = await startBot({ slackRetries: 4 });
    await seedBookings();
    const bookingCard = await bot.fake.waitFor('chat.postMessage', (c) =>
      textOf(c.body).includes('Booked `WB000001`'),
    );
    const cardTs = (bookingCard.response?.body as { ts?: string } | undefined)?.ts;
    // The remittance card and the outstanding list refused once each.
    const refusedOnce = new Set<string>();
    bot.fake.respond('chat.postMessage', (body) => {
      const kind = textOf(body).includes('COD overdue') ? 'list' : 'card';
      if (refusedOnce.has(kind)) return undefined;
      refusedOnce.add(kind);
      return { status: 429, retryAfter: 1 };
    });

    const done = await reconcile(firstFile, 'remit-1.csv');
    expect(textOf(done.blocks)).toContain('2 matched');
    expect(textOf(done.blocks)).toContain('<#CDISPATCH>');
    await bot.idle();
    const refused = bot.fake.calls.filter((c) => c.response?.status === 429).map((c) => c.method);
    expect(refused).toEqual(['chat.postMessage', 'chat.postMessage']);
    const posted = bot.fake.callsTo('chat.postMessage').filter((c) => c.response?.status === 200);
    const [card, ...others] = posted.filter((c) => textOf(c.body).includes('COD remittance'));
    expect(others).toEqual([]);
    expect(posted.filter((c) => textOf(c.body).includes('COD overdue'))).toHaveLength(1);
    // The results file in the thread of the card that was posted.
    expect(bot.fake.uploadsCompleted().map((u) => [u.filename, u.threadTs === undefined])).toEqual([
      ['remittance-results-remit-1.csv', false],
      ['cod-overdue.csv', false],
    ]);
    expect(bot.fake.uploadsCompleted()[0]?.threadTs).toBe(
      (card?.response?.body as { ts?: string } | undefined)?.ts,
    );
    const edits = bot.fake.callsTo('chat.update').filter((c) => c.body.ts === cardTs);
    expect(edits).toHaveLength(1);
    expect(textOf(edits[0]?.body.blocks)).toContain('COD remitted PHP 1,500.00');
    expect(await bot.deps.store.remittances.ofBookings(['OLD-M'])).toHaveLength(1);
  });
  it('Slack still answering 429 to every post after its retries: the modal says the card could not be posted, both files come by DM, the file recorded once', async () => {
    bot = await startBot({ slackRetries: 2, slackRateLimitWaitMs: 0 });
    await seedBookings();
    const before = bot.fake.callsTo('chat.postMessage').length;
    bot.fake.respond('chat.postMessage', { status: 429, retryAfter: 0 });
    const done = await reconcile(firstFile, 'remit-1.csv');
    expect(textOf(done.blocks)).toContain('The card could not be posted.');
    await bot.idle();
    // The card and the list, each tried three times: nothing posted.
    const tried = bot.fake.callsTo('chat.postMessage').slice(before);
    expect(tried.map((c) => c.response?.status)).toEqual(Array(6).fill(429));
    const files = bot.fake.uploadsCompleted();
    expect(files.map((u) => [u.filename, u.channelId?.startsWith('D')])).toEqual([
      ['remittance-results-remit-1.csv', true],
      ['cod-overdue.csv', true],
    ]);
    expect(files[0]?.initialComment).toContain('COD remittance');
    expect(await bot.deps.store.remittances.ofBookings(['OLD-M'])).toHaveLength(1);
  });
});

describe('a remittance file that cannot be read', () => {
  afterEach(async () => {
    await bot?.stop();
  });

  it('says why in the modal and records nothing', async () => {
    bot = await startBot();
    const missing = await reconcile('awb,amount\r\nWB1,1\r\n', 'wrong.csv');
    expect(textOf(missing.blocks)).toContain('\\"tracking_number\\" is missing');
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });
});
