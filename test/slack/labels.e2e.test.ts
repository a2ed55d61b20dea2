/**
 * Labels and the pickup manifest end to end on both backends: Print labels on the card and `/waybill label`
 * (pages, barcodes decoded, the current record, a reprint, the card out of reach), a CSV import's labels in
 * file order (also while Slack answers 429 to the upload: shared once), Slack refusing every upload (told to
 * try again); ZPL (`LABEL_FORMAT=zpl`, 300 dpi) from the card, parsed and its barcodes decoded, `pdf` or
 * `zpl` asked by command, both files with `both` (each one's unprintable characters named with its mark), an
 * import's labels as one ZPL file in file order; Send to printer beside the ZPL file, a loopback printer
 * receiving that file once, and one that refuses, never answers or resets told plainly, the click
 * acknowledged first; no label for an unknown outcome, a refusal or an unknown number, access; `/waybill
 * manifest` and the Home tab's Pickup list, each of its files shared once when an upload fails; characters
 * the font cannot draw named to the person printing, escaped.
 */
// Parcel labels and the pickup manifest end to end: Print labels on the card, /waybill label and manifest, the Home tab's Pickup list; PDFs read back as a machine reads them.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { sampleBooking, sampleParty } from '../../fakes/label-bookings.js';
import type { CompletedUpload } from '../../fakes/slack-fake.js';
import { TEST_MARK } from '../../src/labels/label.js';
import { UNPRINTABLE_MARK } from '../../src/labels/pdf.js';
import { storedBooking } from '../../src/slack/booking/index.js';
import { printerOffer as offerOfPrinters } from '../../src/slack/labels/blocks.js';
import { zonedDateAndTime } from '../../src/waybill/dates.js';
import { DECODING_MS, readPdf } from '../labels/read-pdf.js';
import { readZpl, renderZplLabel, type ZplLabel } from '../labels/read-zpl.js';
import { describeEachBackend, type TestBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import { bookThroughModal, fillToReview } from '../support/booking-flow.js';
import {
  renderPoolPerFile,
  startTestBot,
  type TestBot,
  type TestBotOptions,
} from '../support/bot-harness.js';
import { bulkFile, bulkRow } from '../support/bulk-file.js';
import { until } from '../support/replicas.js';
import { checkedImport } from '../support/slack-driver.js';

let bot: TestBot;
// The labels are made by one worker for the whole file: no test here is about the pool.
const render = renderPoolPerFile();

afterEach(async () => {
  await bot?.stop();
});

/** The bytes of an upload the bot completed. */
function bytesOf(upload: CompletedUpload | undefined): Buffer {
  const bytes = upload && bot.fake.uploads.get(upload.fileId)?.bytes;
  if (!bytes) throw new Error('no such upload');
  return bytes;
}

async function uploaded(count: number): Promise<CompletedUpload[]> {
  await bot.idle();
  await bot.fake.waitFor('files.completeUploadExternal', undefined, { count });
  return bot.fake.uploadsCompleted();
}

/** What the person was told through the click's or command's response_url, last first. */
const told = () =>
  bot.fake.responseUrlPosts.map((p) => String((p.body as { text?: string }).text ?? '')).reverse();

/** A booking typed through the modal whose courier call ends as `fault` makes it: its audit entry. */
async function bookWithFault(fault: 'unknown' | 'refused') {
  bot.sandbox.injectNext(
    fault === 'unknown'
      ? { dropAfterProcessing: true }
      : {
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            ResponseCode: '400',
            ResponseDetail: 'Invalid request',
            remarks: 'Bad postal code',
          }),
        },
  );
  await bot.submit(await fillToReview(bot));
  await bot.idle();
  const [entry] = await bot.deps.store.audit.list({ operation: 'book', limit: 1 });
  expect(entry?.outcome).toBe(fault === 'unknown' ? 'unknown' : 'failed');
  return entry;
}

function booted(
  backend: TestBackend | undefined,
  env: Record<string, string> = {},
  options: Pick<TestBotOptions, 'slackRateLimitWaitMs'> = {},
) {
  beforeEach(async () => {
    bot = await startTestBot({
      ...(backend ? { backend } : {}),
      env,
      timeoutMs: 800,
      render: render(),
      ...options,
    });
    await bookThroughModal(bot);
    // The card's place is stored just after Slack took the card: printing goes to its thread from then on.
    await until('the card recorded', async () => (await bot.deps.store.bookings.get('WB000001'))?.cardTs);
  });
}

describeEachBackend(import.meta.filename, 'labels', (backend) => {
  booted(backend);

  /** The booking card of WB000001, and its ts. */
  function cardOf() {
    const card = bot.fake
      .callsTo('chat.postMessage')
      .find((c) => JSON.stringify(c.body.blocks).includes(ids.labelsPrint));
    return {
      channelId: String(card?.body.channel),
      messageTs: String((card?.response?.body as { ts?: string } | undefined)?.ts),
    };
  }

  it(
    "Print labels on the card: one page per parcel in the card's thread, each parcel's number, the booking's QR",
    async () => {
      const card = cardOf();
      const known = await storedBooking(bot.deps, 'WB000001');
      const children = known?.booking.childWaybills.map((c) => c.trackingNumber) ?? [];
      expect(children).toHaveLength(3);

      await bot.clickInMessage(ids.labelsPrint, 'WB000001', card);
      const [first] = await uploaded(1);
      expect(first).toMatchObject({
        channelId: card.channelId,
        threadTs: card.messageTs,
        filename: 'labels-WB000001.pdf',
      });
      expect(first?.initialComment).toContain('Printed by <@UDISPATCH>: 3 labels for `WB000001`');
      const pages = await readPdf(bytesOf(first));
      expect(pages.map((p) => [p.width, p.height])).toEqual([
        [288, 432],
        [288, 432],
        [288, 432],
      ]);
      expect(pages.map((p) => p.barcodes)).toEqual(
        children.map((number) => [
          { format: 'QRCode', text: 'WB000001' },
          { format: 'Code128', text: number },
        ]),
      );
      expect(pages[0]?.text).toContain('Maria Santos');
      expect(pages[0]?.text).toContain('COD PHP 1,500.00');
      expect(pages[0]?.text).toContain(TEST_MARK);
      expect((await bot.deps.store.audit.list({ operation: 'label' }))[0]).toMatchObject({
        userId: 'UDISPATCH',
        trackingNumber: 'WB000001',
      });
    },
    DECODING_MS,
  );

  it(
    'after an update, /waybill label by someone else: the current record, said to be a reprint',
    async () => {
      const card = cardOf();
      await bot.clickInMessage(ids.labelsPrint, 'WB000001', card);
      await uploaded(1);
      await bot.command('/waybill', 'update WB000001');
      await bot.submit(await bot.openedView(), { 'consignee.name': 'Ni\u00f1a Pe\u00f1afrancia' });
      await bot.idle();
      await bot.command('/waybill', 'label WB000001', { user_id: 'UOTHER' });
      const [, second] = await uploaded(2);
      expect(second).toMatchObject({ channelId: card.channelId, threadTs: card.messageTs });
      expect(second?.initialComment).toMatch(
        /\*Reprinted\* by <@UOTHER>: 3 labels for `WB000001` \(first printed by <@UDISPATCH> on <!date\^/,
      );
      const reprinted = await readPdf(bytesOf(second), () => false);
      expect(reprinted[0]?.text).toContain('Ni\u00f1a Pe\u00f1afrancia');
      expect(reprinted[0]?.text).not.toContain('Maria Santos');
    },
    DECODING_MS,
  );

  it('the card out of reach: the PDF comes to the person in a DM, saying why', async () => {
    bot.fake.respond('files.completeUploadExternal', { ok: false, error: 'not_in_channel' }, { times: 1 });
    await bot.clickInMessage(ids.labelsPrint, 'WB000001');
    await bot.idle();
    const [dm] = await uploaded(2);
    expect(dm?.channelId).toMatch(/^D/);
    expect(dm?.initialComment).toContain("The card's thread could not be reached");
    expect((await readPdf(bytesOf(dm), () => false)).length).toBe(3);
  });
});

/** A booking stored as the bot stores one, without the courier: another shipper's, picked up at `pickupAt`. */
async function storeBooking(trackingNumber: string, pickupAt: Date, changes: Record<string, unknown> = {}) {
  const booking = sampleBooking(trackingNumber, {
    pickupAt: pickupAt.toISOString(),
    expectedDeliveryAt: new Date(pickupAt.getTime() + 86_400_000).toISOString(),
    ...changes,
  });
  await bot.deps.store.bookings.insert({
    trackingNumber,
    trackingRefNo: `REF-${trackingNumber}`,
    record: booking,
    channelId: 'CDISPATCH',
    bookedBy: 'UDISPATCH',
    bookedAt: bot.deps.now(),
    pickupAt: booking.pickupAt,
  });
}

const csvRows = (upload: CompletedUpload | undefined) =>
  parse(bytesOf(upload).toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];

describeEachBackend(import.meta.filename, 'pickup manifest', (backend) => {
  booted(backend);

  it(
    '/waybill manifest <day> from a channel: a PDF and a CSV there, agreeing; unknown ones apart, cancelled and returned ones named as left out and in no total, refused and other days not there',
    async () => {
      const first = await storedBooking(bot.deps, 'WB000001');
      const pickupAt = first?.booking.pickupAt ?? new Date(0);
      const day = zonedDateAndTime(pickupAt, 'Asia/Manila').date;
      await storeBooking('WB000777', pickupAt, {
        shipperCode: '',
        shipper: sampleParty('Zo\u00eb Ch\u00e2teau Bakery', 'Naga'),
      });
      await storeBooking('WB000888', new Date(pickupAt.getTime() + 86_400_000));
      const unknown = await bookWithFault('unknown');
      const refused = await bookWithFault('refused');
      // Of the day, but not handed over: cancelled with the courier, and one returned to sender.
      await storeBooking('WB000601', pickupAt);
      await storeBooking('WB000602', pickupAt);
      await bot.deps.store.statuses.record({
        trackingNumber: 'WB000601',
        status: 'cancelled',
        userId: 'UDISPATCH',
      });
      await bot.deps.store.statuses.record({
        trackingNumber: 'WB000602',
        status: 'returned',
        userId: 'UDISPATCH',
      });

      const ack = await bot.command('/waybill', `manifest ${day}`);
      expect(JSON.stringify(ack.body)).toContain(
        `Making the pickup list of ${day}: a PDF and a CSV file, shared in this channel`,
      );
      const [pdf, csv] = await uploaded(2);
      expect(pdf).toMatchObject({ channelId: 'CDISPATCH', filename: `pickup-${day}.pdf` });
      expect(csv).toMatchObject({ channelId: 'CDISPATCH', filename: `pickup-${day}.csv` });
      expect(pdf?.initialComment).toContain(
        `Pickup list of ${day}, for <@UDISPATCH>: 2 bookings to hand over, 4 parcels`,
      );
      expect(pdf?.initialComment).toContain('1 booking to check with the courier');
      expect(pdf?.initialComment).toContain(
        '2 bookings of the day left out, not handed over (cancelled with the courier, returned to sender)',
      );

      const rows = csvRows(csv);
      const numbers = (section: string) =>
        rows.filter((r) => r.section === section).map((r) => r.tracking_number);
      expect(numbers('booked').sort()).toEqual(['WB000001', 'WB000777']);
      expect(numbers('check with the courier')).toEqual([unknown?.trackingNumber]);
      expect(rows.map((r) => r.tracking_number)).not.toContain(refused?.trackingNumber);
      expect(rows.map((r) => r.tracking_number)).not.toContain('WB000888');
      expect(rows.filter((r) => r.section === 'left out').map((r) => [r.tracking_number, r.why])).toEqual([
        ['WB000601', 'Cancelled with the courier'],
        ['WB000602', 'Returned to sender'],
      ]);
      const total = rows.find((r) => r.section === 'total');
      expect(total).toMatchObject({ bookings: '2', parcels: '4', cod_amount: '3000.00' });

      // The sheet the rider signs: a barcode for what is handed over and what to check, none for what is left out.
      const pages = await readPdf(bytesOf(pdf));
      const lines = rows
        .filter((r) => r.tracking_number !== '' && r.section !== 'left out')
        .map((r) => ({ format: 'Code128', text: r.tracking_number }));
      expect(pages.flatMap((p) => p.barcodes)).toEqual(lines);
      const text = pages.map((p) => p.text).join('\n');
      expect(text).toContain('Zo\u00eb Ch\u00e2teau Bakery');
      expect(text).toContain('Check with the courier before hand-over');
      expect(text).toContain('Left out: not handed over');
      expect(text).toMatch(/WB000601\s+[^\n]*: Cancelled with the courier/);
      expect(text).toMatch(/WB000602\s+[^\n]*: Returned to sender/);
      expect(text).toMatch(
        new RegExp(`Total: 2 bookings\\s+4\\s+${(total?.weight_kg ?? '').replace('.', '\\.')}\\s+3,000\\.00`),
      );
    },
    DECODING_MS,
  );

  it('from a DM and from the Home tab (today): to the person; a day it cannot read is said plainly', async () => {
    const today = zonedDateAndTime(bot.deps.now(), 'Asia/Manila').date;
    await storeBooking('WB000777', bot.deps.now());
    const bad = await bot.command('/waybill', 'manifest 23/11/2026');
    expect(JSON.stringify(bad.body)).toContain('write the day like `/waybill manifest 2026-11-23`');
    await bot.command('/waybill', 'manifest', { channel_id: 'D0DM00001' });
    const [pdf, csv] = await uploaded(2);
    expect(pdf?.channelId).toMatch(/^D/);
    expect(csv?.channelId).toBe(pdf?.channelId);
    expect(pdf?.filename).toBe(`pickup-${today}.pdf`);
    expect(
      csvRows(csv)
        .filter((r) => r.section === 'booked')
        .map((r) => r.tracking_number),
    ).toContain('WB000777');

    await bot.clickInHome(ids.labelsManifest);
    const [, , fromHome] = await uploaded(4);
    expect(fromHome).toMatchObject({ channelId: pdf?.channelId, filename: `pickup-${today}.pdf` });

    // Asked in the bookings' channel, which the bot may not post in: both files to the person, saying why.
    bot.fake.respond('files.completeUploadExternal', { ok: false, error: 'not_in_channel' }, { times: 1 });
    await bot.command('/waybill', 'manifest', { channel_id: 'CDISPATCH' });
    // Seven calls to files.completeUploadExternal, the refused one not among the files shared.
    const [, , , , notThere, csvToo] = await uploaded(7);
    expect(notThere).toMatchObject({ channelId: pdf?.channelId, filename: `pickup-${today}.pdf` });
    expect(notThere?.initialComment).toContain('could not share it in <#CDISPATCH>, so it comes to you here');
    expect(csvToo).toMatchObject({ channelId: pdf?.channelId, filename: `pickup-${today}.csv` });

    // Asked in another channel: it lists bookings of CDISPATCH, so it never goes public there.
    await bot.command('/waybill', 'manifest', { channel_id: 'CPRIVATE' });
    const [, , , , , , elsewhere] = await uploaded(9);
    expect(elsewhere).toMatchObject({ channelId: pdf?.channelId, filename: `pickup-${today}.pdf` });
    expect(elsewhere?.initialComment).toContain('It lists bookings of other conversations too');
  });
});

describe('pickup manifest, an upload failing', () => {
  booted(undefined);

  it('the second upload refused: the PDF stays in the channel, only the CSV comes by DM, saying why', async () => {
    let asked = 0;
    bot.fake.respond('files.getUploadURLExternal', () =>
      ++asked === 2 ? { ok: false, error: 'internal_error' } : undefined,
    );
    const today = zonedDateAndTime(bot.deps.now(), 'Asia/Manila').date;
    await bot.command('/waybill', 'manifest');
    await bot.idle();
    const shared = await uploaded(2);
    expect(asked).toBe(3);
    expect(shared.map((u) => [u.filename, u.channelId?.[0]])).toEqual([
      [`pickup-${today}.pdf`, 'C'],
      [`pickup-${today}.csv`, 'D'],
    ]);
    expect(shared[1]?.initialComment).toContain(
      'could not share it in <#CDISPATCH>, so it comes to you here',
    );
  });
});

describe('labels and the manifest with characters the font cannot draw', () => {
  beforeEach(async () => {
    bot = await startTestBot({ render: render() });
  });

  it('the person printing is told which characters show as the mark, escaped', async () => {
    // U+0FB2 joins the character before it: "<" and "&" with it make characters the font lacks.
    await storeBooking('WB000779', bot.deps.now(), {
      consignee: sampleParty('Ana \u{1F46A} <\u0FB2 &\u0FB2', 'Cebu City'),
    });
    const note = `:warning: The label font cannot print these characters, so they show as ${UNPRINTABLE_MARK}: \u{1F46A}  &lt;\u0FB2  &amp;\u0FB2`;
    await bot.command('/waybill', 'label WB000779');
    const [labels] = await uploaded(1);
    expect(labels?.initialComment).toContain(note);
    const [page] = await readPdf(bytesOf(labels), () => false);
    expect(page?.text).toContain(`Ana ${UNPRINTABLE_MARK} ${UNPRINTABLE_MARK} ${UNPRINTABLE_MARK}`);

    await bot.command('/waybill', 'manifest');
    const [, manifest, csv] = await uploaded(3);
    expect(manifest?.filename).toMatch(/\.pdf$/);
    expect(manifest?.initialComment).toContain(note);
    // The CSV keeps the name as typed: only paper lacks the glyphs.
    expect(csvRows(csv).find((r) => r.tracking_number === 'WB000779')?.receiver).toBe(
      'Ana \u{1F46A} <\u0FB2 &\u0FB2',
    );
  });
});

/** A file of four rows imported, the second refused by the courier: its card's ts, its key and rows. */
async function importWithRefusal() {
  const names = ['Ana Cruz', 'Ben Refused', 'Ni\u00f1a Pe\u00f1afrancia', 'Cora Diaz'];
  const file = bot.fake.addFile({
    name: 'orders.csv',
    content: bulkFile(...names.map((name) => bulkRow(name))),
  });
  const summary = await checkedImport(bot, file.id);
  bot.sandbox.injectNext(
    {},
    {
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ ResponseCode: '400', ResponseDetail: 'Invalid request', remarks: 'No' }),
    },
  );
  await bot.submit(summary);
  await bot.idle();
  const card = await bot.fake.waitFor('chat.postMessage', (c) =>
    JSON.stringify(c.body).includes('Bulk booking'),
  );
  const cardTs = String((card.response?.body as { ts?: string } | undefined)?.ts);
  const blocks = JSON.stringify(card.body.blocks);
  expect(blocks).toContain(ids.labelsBulk);
  const fileHash = /"action_id":"labels_bulk","text":\{[^}]*\},"value":"([^"]+)"/.exec(blocks)?.[1] ?? '';
  const rows = await bot.deps.store.imports.rows(fileHash);
  expect(rows.map((r) => r.state)).toEqual(['booked', 'failed', 'booked', 'booked']);
  return { cardTs, fileHash, booked: rows.filter((r) => r.state === 'booked').map((r) => r.trackingNumber) };
}

describe('labels of a CSV import', () => {
  beforeEach(async () => {
    bot = await startTestBot({ slackRetries: 4, render: render() });
  });

  it("an import's labels need the permission to look its bookings up: asked where the person may not, nothing is printed", async () => {
    const { cardTs, fileHash } = await importWithRefusal();
    // The same store, with the import's conversation (CDISPATCH) no longer listed.
    const strict = await startTestBot({
      store: bot.deps.store,
      render: render(),
      env: { ALLOWED_CHANNEL_IDS: 'CELSEWHERE' },
    });
    try {
      await strict.clickInMessage(ids.labelsBulk, fileHash, { channelId: 'CELSEWHERE', messageTs: cardTs });
      await strict.idle();
      expect(strict.fake.uploadsCompleted()).toEqual([]);
      expect(JSON.stringify(strict.fake.responseUrlPosts.map((post) => post.body))).toContain(
        'in a conversation where you may look up waybills',
      );
      expect(await strict.deps.store.audit.list({ operation: 'label' })).toEqual([]);
    } finally {
      await strict.stop();
    }
  });

  it(
    "the import's card offers one PDF of every booked row's labels, in file order, refused rows left out; Slack's 429 to both upload steps waited out, the PDF shared once",
    async () => {
      const { cardTs, fileHash, booked: bookedNumbers } = await importWithRefusal();
      const before = bot.fake.uploadsCompleted().length;
      const tooMany = { status: 429, retryAfter: 1 };
      bot.fake.respond('files.getUploadURLExternal', tooMany, { times: 1 });
      bot.fake.respond('files.completeUploadExternal', tooMany, { times: 1 });
      await bot.clickInMessage(ids.labelsBulk, fileHash, { channelId: 'CDISPATCH', messageTs: cardTs });
      const labels = (await uploaded(before + 1)).at(-1);
      expect(labels).toMatchObject({
        channelId: 'CDISPATCH',
        threadTs: cardTs,
        filename: 'labels-orders.pdf',
      });
      expect(labels?.initialComment).toContain(
        '3 labels for the 3 booked rows of *orders.csv*, in file order',
      );
      const pages = await readPdf(bytesOf(labels));
      expect(pages.map((p) => p.barcodes.find((b) => b.format === 'Code128')?.text)).toEqual(bookedNumbers);
      expect(pages.map((p) => p.barcodes.find((b) => b.format === 'QRCode')?.text)).toEqual(bookedNumbers);
      expect(pages[1]?.text).toContain('Ni\u00f1a Pe\u00f1afrancia');
      expect(pages.map((p) => p.text).join('')).not.toContain('Ben Refused');
      // Each 429 waited out and the step sent again: one PDF in the thread, each row's print audited once.
      await bot.idle();
      const refused = bot.fake.calls.filter((c) => c.response?.status === 429).map((c) => c.method);
      expect(refused.sort()).toEqual(['files.completeUploadExternal', 'files.getUploadURLExternal']);
      expect(bot.fake.uploadsCompleted().filter((u) => u.filename === 'labels-orders.pdf')).toHaveLength(1);
      expect(bot.fake.callsTo('conversations.open')).toEqual([]);
      const audited = await bot.deps.store.audit.list({ operation: 'label' });
      expect(audited.map((a) => a.trackingNumber).sort()).toEqual([...bookedNumbers].sort());
    },
    DECODING_MS,
  );
});

describe('labels refused', () => {
  // A 429 goes straight to the client's retries (none here), as after the bot's own waits in production.
  booted(undefined, {}, { slackRateLimitWaitMs: 0 });

  it('no label for an unknown outcome, a refusal or an unknown number, in plain words, escaped', async () => {
    // Said in the command's answer itself: never "Printing…" first for something with no labels.
    const unknown = await bookWithFault('unknown');
    const unknownAck = await bot.command('/waybill', `label ${unknown?.trackingNumber}`);
    expect(unknownAck.body.text).toContain('the courier never answered whether it is booked');

    const refused = await bookWithFault('refused');
    const refusedAck = await bot.command('/waybill', `label ${refused?.trackingNumber}`);
    expect(refusedAck.body.text).toContain('the courier refused this booking');

    const ack = await bot.command('/waybill', 'label <@U1>&x');
    expect(ack.body.text).toBe(
      'No labels for `&lt;@U1&gt;&amp;X`: I have no booking with that number in a conversation where you may look up waybills.',
    );
    await bot.idle();
    expect(told()).toEqual([]);
    expect(bot.fake.uploadsCompleted()).toEqual([]);
  });

  it("Slack answering 429 to every upload, past the client's retries: the card's thread, then a DM tried, and the person told privately, where they asked, that Slack refused and to try again", async () => {
    bot.fake.respond('files.getUploadURLExternal', { status: 429, retryAfter: 0 });
    await bot.command('/waybill', 'label WB000001');
    await bot.idle();
    expect(bot.fake.callsTo('files.getUploadURLExternal')).toHaveLength(2);
    expect(bot.fake.callsTo('conversations.open')).toHaveLength(1);
    expect(bot.fake.uploadsCompleted()).toEqual([]);
    const [privately, ...more] = bot.fake.callsTo('chat.postEphemeral');
    expect(more).toEqual([]);
    expect(privately?.body).toMatchObject({ user: 'UDISPATCH', channel: 'CDISPATCH' });
    expect(privately?.body.text).toContain(
      "Slack did not accept the bot's request while making the labels of `WB000001`, so it was not finished; try again in a moment.",
    );
  });
});

describe('labels and access', () => {
  booted(undefined, { ALLOWED_USER_IDS: 'UDISPATCH' });

  it('printing needs the permission to look waybills up, on the card and by command', async () => {
    await bot.clickInMessage(ids.labelsPrint, 'WB000001', { user: 'UOUTSIDER' });
    const response = await bot.command('/waybill', 'label WB000001', { user_id: 'UOUTSIDER' });
    expect(JSON.stringify(response.body)).toContain('not on the list of people who may look up waybills');
    await bot.command('/waybill', 'manifest', { user_id: 'UOUTSIDER' });
    await bot.idle();
    expect(bot.fake.uploadsCompleted()).toEqual([]);
    expect(await bot.deps.store.audit.list({ operation: 'label' })).toEqual([]);
  });
});

/** The labels of a ZPL upload, parsed. */
const zplOf = (upload: CompletedUpload | undefined) => readZpl(bytesOf(upload).toString('utf8'));

describe('ZPL labels (LABEL_FORMAT=zpl, LABEL_DPI=300)', () => {
  booted(undefined, { LABEL_FORMAT: 'zpl', LABEL_DPI: '300' });

  it(
    "Print labels on the card: one ZPL file in the card's thread, a 4x6 label at 300 dpi per parcel, its barcodes decoded",
    async () => {
      const children = (await storedBooking(bot.deps, 'WB000001'))?.booking.childWaybills ?? [];
      const card = bot.fake
        .callsTo('chat.postMessage')
        .find((c) => JSON.stringify(c.body).includes(ids.labelsPrint));
      const messageTs = String((card?.response?.body as { ts?: string } | undefined)?.ts);
      await bot.clickInMessage(ids.labelsPrint, 'WB000001', {
        channelId: String(card?.body.channel),
        messageTs,
      });
      const uploads = await uploaded(1);
      expect(uploads).toHaveLength(1);
      expect(uploads[0]).toMatchObject({ threadTs: messageTs, filename: 'labels-WB000001.zpl' });
      expect(uploads[0]?.initialComment).toContain('Printed by <@UDISPATCH>: 3 labels for `WB000001`');
      const labels = zplOf(uploads[0]);
      expect(labels.map((l) => [l.encoding, l.width, l.length])).toEqual(Array(3).fill(['28', 1200, 1800]));
      expect(labels.map((l) => l.fields.find((f) => f.kind === 'code128')?.data)).toEqual(
        children.map((c) => c.trackingNumber),
      );
      const { page } = await renderZplLabel(labels[2] as ZplLabel, 300);
      expect(page.barcodes).toEqual([
        { format: 'QRCode', text: 'WB000001' },
        { format: 'Code128', text: children[2]?.trackingNumber },
      ]);
      expect(page.text).toContain('Maria Santos');
      expect(page.text).toContain(TEST_MARK);
    },
    DECODING_MS,
  );

  it('/waybill label <number> pdf: the PDF only; a format it does not know is said at once', async () => {
    const ack = await bot.command('/waybill', 'label WB000001 PDF');
    expect(ack.body.text).toContain('the PDF comes in the booking card');
    const [pdf] = await uploaded(1);
    expect(pdf?.filename).toBe('labels-WB000001.pdf');
    expect(await readPdf(bytesOf(pdf), () => false)).toHaveLength(3);
    const refused = await bot.command('/waybill', 'label WB000001 <png>');
    expect(refused.body.text).toBe(
      'To print labels, write `/waybill label WB000001`, or add `pdf` or `zpl` for that format.',
    );
    await bot.idle();
    expect(bot.fake.uploadsCompleted()).toHaveLength(1);
  });
});

describe('labels as PDF and ZPL (LABEL_FORMAT=both)', () => {
  beforeEach(async () => {
    bot = await startTestBot({ env: { LABEL_FORMAT: 'both' }, render: render() });
  });

  it('/waybill label: the PDF, then the ZPL file; what font 0 cannot print named with its own mark, escaped', async () => {
    await storeBooking('WB000779', bot.deps.now(), {
      consignee: sampleParty('Ana \u{1F46A} <\u0FB2 Zo\u00eb', 'Cebu City'),
    });
    const ack = await bot.command('/waybill', 'label WB000779');
    expect(ack.body.text).toContain('the PDF and the ZPL file come');
    const [pdf, zpl] = await uploaded(2);
    expect([pdf?.filename, zpl?.filename]).toEqual(['labels-WB000779.pdf', 'labels-WB000779.zpl']);
    expect(pdf?.initialComment).toContain('Printed by <@UDISPATCH>: 1 label for `WB000779`');
    expect(zpl?.initialComment).toBe(
      ':warning: The label font cannot print these characters, so they show as ?: \u{1F46A}  &lt;\u0FB2',
    );
    const text = zplOf(zpl)[0]?.fields.flatMap((f) => (f.kind === 'text' ? f.lines : [])) ?? [];
    expect(text).toContain('Ana ? ? Zo\u00eb');
    const [audit] = await bot.deps.store.audit.list({ operation: 'label' });
    expect(audit?.detail).toMatch(/^1 page\(s\) as pdf and zpl to D/);
  });

  it("an import's labels: the PDF and one ZPL file with every booked row's labels, in file order", async () => {
    const { cardTs, fileHash, booked } = await importWithRefusal();
    const before = bot.fake.uploadsCompleted().length;
    await bot.clickInMessage(ids.labelsBulk, fileHash, { channelId: 'CDISPATCH', messageTs: cardTs });
    const [pdf, zpl] = (await uploaded(before + 2)).slice(-2);
    expect([pdf?.filename, zpl?.filename]).toEqual(['labels-orders.pdf', 'labels-orders.zpl']);
    expect(zpl).toMatchObject({ channelId: 'CDISPATCH', threadTs: cardTs });
    const labels = zplOf(zpl);
    expect(labels.map((l) => l.fields.find((f) => f.kind === 'code128')?.data)).toEqual(booked);
    expect(labels.map((l) => l.fields.find((f) => f.kind === 'qr')?.data)).toEqual(
      booked.map((n) => `MA,${n}`),
    );
    expect(JSON.stringify(labels[1])).toContain('Ni\u00f1a Pe\u00f1afrancia');
  });
});

/**
 * A printer's raw port on loopback. `takes`: reads the file and closes once it has it; `silent`:
 * reads, never closes; `resets`: resets the connection at the first bytes.
 */
async function loopbackPrinter(behaviour: 'takes' | 'silent' | 'resets') {
  const received: Buffer[] = [];
  const connections = new Set<Socket>();
  // Half-open allowed: our end of the connection is closed only when the behaviour says so.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    connections.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      if (behaviour === 'resets') socket.resetAndDestroy();
      else chunks.push(chunk);
    });
    socket.on('end', () => {
      received.push(Buffer.concat(chunks));
      if (behaviour === 'takes') socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    received,
    connections,
    close: () => {
      for (const socket of connections) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The Send to printer message in a thread, and its element. */
async function printerOffer() {
  const offer = await bot.fake.waitFor('chat.postMessage', (c) =>
    JSON.stringify(c.body.blocks ?? '').includes(ids.labelsSendToPrinter),
  );
  const [, actions] = offer.body.blocks as { elements?: Record<string, unknown>[] }[];
  return { offer, element: actions?.elements?.[0] ?? {} };
}

describe('Send to printer (LABEL_PRINTER)', () => {
  let printer: Awaited<ReturnType<typeof loopbackPrinter>>;
  beforeEach(async () => {
    printer = await loopbackPrinter('takes');
    bot = await startTestBot({
      env: { LABEL_FORMAT: 'zpl', LABEL_PRINTER: printer.address },
      render: render(),
    });
    await bookThroughModal(bot);
    await until('the card recorded', async () => (await bot.deps.store.bookings.get('WB000001'))?.cardTs);
  });
  afterEach(async () => {
    await printer.close();
  });

  it('beside the ZPL file in the thread; the printer receives that file once; the person is told', async () => {
    const card = bot.fake
      .callsTo('chat.postMessage')
      .find((c) => JSON.stringify(c.body).includes(ids.labelsPrint));
    const messageTs = String((card?.response?.body as { ts?: string } | undefined)?.ts);
    await bot.clickInMessage(ids.labelsPrint, 'WB000001', { channelId: 'CDISPATCH', messageTs });
    const [zpl] = await uploaded(1);
    const { offer, element } = await printerOffer();
    expect(offer.body).toMatchObject({ channel: 'CDISPATCH', thread_ts: messageTs });
    expect(element).toMatchObject({ type: 'button', text: { text: 'Send to printer' } });
    await bot.clickInMessage(ids.labelsSendToPrinter, String(element.value), {
      messageTs: String((offer.response?.body as { ts?: string } | undefined)?.ts),
    });
    await bot.idle();
    await until('the person told', async () => told()[0]);
    expect(told()[0]).toBe(':printer: Sent 3 labels to *printer*.');
    expect(printer.received).toEqual([bytesOf(zpl)]);
    expect(readZpl(printer.received[0]?.toString('utf8') ?? '')).toHaveLength(3);
  });
});

describe('Send to printer (LABEL_PRINTERS): a printer that refuses, one that never answers, one that cuts the connection', () => {
  const printers: Awaited<ReturnType<typeof loopbackPrinter>>[] = [];
  afterEach(async () => {
    await Promise.all(printers.splice(0).map((p) => p.close()));
  });

  it('each told plainly, and acknowledged at once while the printer is still waited for', async () => {
    const [silent, resets, gone] = await Promise.all([
      loopbackPrinter('silent'),
      loopbackPrinter('resets'),
      loopbackPrinter('takes'),
    ]);
    printers.push(silent, resets);
    await gone.close();
    bot = await startTestBot({
      render: render(),
      env: {
        LABEL_FORMAT: 'zpl',
        LABEL_PRINTERS: `desk=${gone.address},warehouse=${silent.address},back=${resets.address}`,
        LABEL_PRINTER_TIMEOUT_MS: '1500',
      },
    });
    await storeBooking('WB000779', bot.deps.now());
    await bot.command('/waybill', 'label WB000779');
    await uploaded(1);
    const { offer, element } = await printerOffer();
    expectWithinSlackLimits(offer.body);
    // At its largest: 20 printers of 30-character names, for an import's labels (a SHA-256 in hex).
    expectWithinSlackLimits(
      offerOfPrinters(
        Array.from({ length: 20 }, (_, i) => ({ name: `printer-${i}`.padEnd(30, 'x') })),
        { kind: 'f', ref: 'f'.repeat(64) },
      ),
    );
    const options = (element.options as { text: { text: string }; value: string }[]) ?? [];
    expect(element.type).toBe('static_select');
    expect(options.map((o) => o.text.text)).toEqual(['desk', 'warehouse', 'back']);
    const expected = [
      `:warning: The labels did not reach *desk*: ${gone.address} refused the connection: is it a printer's raw port (usually 9100)?`,
      `:warning: The labels did not reach *warehouse*: ${silent.address} did not take the labels within 1.5 s: is it on, and is the address right?`,
      `:warning: The labels did not reach *back*: ${resets.address} closed the connection before it had the whole file: nothing may have printed.`,
    ];
    for (const [i, option] of options.entries()) {
      const ack = await bot.selectInMessage(ids.labelsSendToPrinter, option.value);
      expect(ack.status).toBe(200);
      // The silent printer's click acknowledged before its time-out ran out: its outcome not told yet.
      if (i === 1) expect(told()).toHaveLength(1);
      await bot.idle();
      await until('the person told', async () => told().length === i + 1 || undefined);
      expect(told()[0]).toBe(expected[i]);
    }
    // The silent printer had the whole file, once, but never said so; the other none.
    expect(silent.received.map((file) => readZpl(file.toString('utf8')).length)).toEqual([1]);
    expect(resets.received).toEqual([]);
  });
});
