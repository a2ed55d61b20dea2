/**
 * `/waybill statuses file`, the courier's own status export, on both backends: the file uploaded as Slack
 * serves it, its columns asked once (guessed, kept in the database) and not asked again for the same
 * headers; each row recorded as the person would (its card told), already so, conflicts (a delivery over
 * our later return, an older date), two rows for one parcel, unknown and other conversations' bookings
 * refused alike, unreadable rows with their row numbers; an unreadable file.
 */
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { describeEachBackend } from '../store/backends.js';
import { botsPerTest, copyOfFirst } from '../support/booking-flow.js';
import type { TestBot, View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { booked } = botsPerTest();

/** `/waybill statuses file` and the file chosen: the modal's id and what Slack got as the ack. */
async function sendFile(bot: TestBot, name: string, content: string) {
  const file = bot.fake.addFile({ name, content });
  const ack = await bot.command('/waybill', 'statuses file');
  expect(ack.status).toBe(200);
  const modal = await bot.openedView();
  expect(modal.callback_id).toBe(ids.statusesFile);
  const noFile = await bot.submit(modal, { file: null });
  expect(noFile.body).toMatchObject({ response_action: 'errors', errors: { file: expect.any(String) } });
  const read = await bot.submit(modal, { file: file.id });
  expect(textOf(read.body.view)).toContain('Reading the file');
  return modal;
}

const columnsAsked = (bot: TestBot, modal: View) =>
  bot.updatedView(modal.id, (view) => view.callback_id === ids.statusesFileColumns);
const outcome = async (bot: TestBot, modal: View) =>
  textOf((await bot.updatedView(modal.id, (view) => textOf(view).includes(' read: '))).blocks);

const header = 'AWB,Status Date,Last Status,Remarks,COD';
const file = [
  header,
  'WB000001,2026-11-20 09:00,Delivered,Received by guard,0',
  'WB000002,2026-11-20 15:00,Delivered,,0',
  'WB000002,2026-11-20 08:00,Picked up,,0',
  'WB000003,2020-01-01 10:00,Delivered,,0',
  'WB000004,2020-01-01 10:00,In transit,,0',
  'WB000005,2026-11-20 10:00,delivered,,0',
  'WB000006,11/20/2026 2:05 PM,Undelivered,Not home,0',
  'WB000009,2026-11-20 10:00,Delivered,,0',
  'WB999999,2026-11-20 10:00,Delivered,,0',
  'WB000007,2026-11-20 10:00,Lost <in> space,,0',
  'WB000008,yesterday,Delivered,,0',
].join('\r\n');

describeEachBackend(import.meta.filename, "the courier's status file", (backend) => {
  it('asks the columns once, records each row as the person would, and lists what it did not record', async () => {
    const bot = await booked({ backend, env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    for (const tn of ['WB000002', 'WB000003', 'WB000004', 'WB000005', 'WB000006', 'WB000007', 'WB000008'])
      await copyOfFirst(bot, tn);
    await copyOfFirst(bot, 'WB000009', { channelId: 'COTHER' });
    const record = (trackingNumber: string, status: string) =>
      bot.deps.store.statuses.record({ trackingNumber, userId: 'UDISPATCH', status });
    await record('WB000003', 'returned');
    await record('WB000004', 'picked_up');
    await record('WB000005', 'delivered');

    const modal = await sendFile(bot, 'portal-export.csv', file);
    const columns = await columnsAsked(bot, modal);
    // The usual names guessed; the choices are the file's headers.
    const initial = (block: string) =>
      columns.blocks.find((b) => b.block_id === block)?.element.initial_option?.text.text;
    expect(['trackingNumber', 'status', 'at', 'remarks'].map(initial)).toEqual([
      'AWB',
      'Last Status',
      'Status Date',
      'Remarks',
    ]);
    const same = await bot.submit(columns, { status: '0' });
    expect(same.body).toMatchObject({ response_action: 'errors', errors: { status: expect.any(String) } });
    const ack = await bot.submit(columns);
    expect(textOf(ack.body.view)).toContain('Reading the file');
    await bot.idle();
    const shown = await outcome(bot, modal);

    expect(shown).toContain(
      '*portal-export.csv* read: 2 unreadable, 2 in conflict, not recorded, 2 unknown or not yours to update, 1 superseded by a later row, 3 recorded, 1 already so.',
    );
    expect(shown).toMatch(
      /Row 5 `WB000003`: the file says delivered, but we recorded Returned to sender later/,
    );
    expect(shown).toMatch(/Row 6 `WB000004`: the file's date is older than our latest status \(Picked up\)/);
    expect(shown).toMatch(/Row 4 `WB000002`: row 3 is later/);
    expect(shown).toContain('Row 9 `WB000009`: no booking of ours you may update');
    expect(shown).toContain('Row 10 `WB999999`: no booking of ours you may update');
    expect(shown).toContain('Row 11 `WB000007`: status \\"Lost &lt;in&gt; space\\" is not a status we know');
    expect(shown).toContain('Row 12 `WB000008`: Status Date \\"yesterday\\" is not a date');

    const latest = async (tn: string) => {
      const entry = await bot.deps.store.statuses.latest(tn);
      return entry && [entry.status, entry.reason, entry.note];
    };
    expect(await latest('WB000001')).toEqual(['delivered', undefined, 'Received by guard']);
    // When the courier says it happened (09:00 in Manila), not when the file was read.
    expect((await bot.deps.store.statuses.latest('WB000001'))?.at.toISOString()).toBe(
      '2026-11-20T01:00:00.000Z',
    );
    expect(await latest('WB000002')).toEqual(['delivered', undefined, undefined]);
    expect(await latest('WB000003')).toEqual(['returned', undefined, undefined]);
    expect(await latest('WB000004')).toEqual(['picked_up', undefined, undefined]);
    expect((await bot.deps.store.statuses.history('WB000005')).length).toBe(1);
    expect(await latest('WB000006')).toEqual(['failed_attempt', 'not_at_home', 'Not home']);
    expect(await latest('WB000009')).toBeUndefined();
    // Each recorded status is told on its card and its audit copy (the copies carry WB000001's cards); no other.
    const lines = bot.fake
      .callsTo('chat.postMessage')
      .filter((call) => call.body.thread_ts && textOf(call.body).includes(':memo:'));
    expect(lines.map((call) => String(call.body.text))).toEqual(
      [
        ':memo: `WB000001` Delivered, recorded by <@UDISPATCH>: Received by guard',
        ':memo: `WB000002` Delivered, recorded by <@UDISPATCH>',
        ':memo: `WB000006` Failed attempt (not at home), recorded by <@UDISPATCH>: Not home',
      ].flatMap((line) => [line, line]),
    );

    // The same headers again: not asked; the statuses are already so.
    // WB000006's delivery after its failed attempt (14:05) is no conflict, though the first file was read later.
    const again = await sendFile(
      bot,
      'next.csv',
      [header, 'WB000002,2026-11-21 09:00,Delivered,,0', 'WB000006,2026-11-20 16:00,Delivered,,0'].join('\n'),
    );
    await bot.idle();
    expect(await outcome(bot, again)).toContain('*next.csv* read: 1 recorded, 1 already so.');
    expect(await latest('WB000006')).toEqual(['delivered', undefined, undefined]);
    expect(
      bot.fake
        .callsTo('views.update')
        .filter((c) => c.body.view_id === again.id && textOf(c.body).includes(ids.statusesFileColumns)),
    ).toEqual([]);

    // Other headers: asked again.
    const other = await sendFile(bot, 'other.csv', 'Tracking No,Event\nWB000007,picked up\n');
    await bot.submit(await columnsAsked(bot, other));
    await bot.idle();
    expect(await outcome(bot, other)).toContain('1 recorded');
    expect(await latest('WB000007')).toEqual(['picked_up', undefined, undefined]);
  });

  it('says why a file cannot be read, and records nothing', async () => {
    const bot = await booked({ backend });
    const modal = await sendFile(bot, 'empty.csv', `${header}\n`);
    await bot.idle();
    const said = textOf(
      await bot.updatedView(modal.id, (view) => textOf(view).includes('Nothing was recorded')),
    );
    expect(said).toContain('The file has no rows: only a header');
  });
});
