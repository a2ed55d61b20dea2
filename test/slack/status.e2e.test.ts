/**
 * Parcel statuses end to end on both backends: Record status on the card (its modal, the card edited in
 * place, one thread line per card, the audit row, the same status again changing nothing), inline errors,
 * `/waybill status` and `/waybill show`'s history, the status words dispatchers type (any case,
 * abbreviations, a reason alone; the choices named when ambiguous), notes escaped everywhere, the export's
 * status columns, two replicas at once, access refused.
 */
// Parcel statuses recorded by dispatchers: from the card's button and its modal, from /waybill status,
// on both backends, two replicas at once, access refused, everything typed escaped.
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { Store } from '../../src/store/index.js';
import { describeEachBackend } from '../store/backends.js';
import { botsPerTest, exportedToday, openedHome } from '../support/booking-flow.js';
import type { TestBot, View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { started, booked } = botsPerTest();

/** Record status on the card: the modal Slack opened, as it holds it. */
async function openStatusModal(bot: TestBot, user = 'UDISPATCH'): Promise<View> {
  const opened = bot.fake.callsTo('views.open').length;
  const card = await bot.deps.store.bookings.get('WB000001');
  await bot.clickInMessage(ids.statusOpen, 'WB000001', { user, messageTs: card?.cardTs ?? '1.000001' });
  const call = await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  const answer = call.response?.body as { view: { id: string; hash: string } };
  return { ...(call.body.view as View), id: answer.view.id, hash: answer.view.hash };
}

const threadLines = (bot: TestBot) =>
  bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts && textOf(c.body).includes(':memo:'));

describeEachBackend(import.meta.filename, 'recording a parcel status', (backend) => {
  it('from the card: the modal, the card edited in place, one thread line per card, an audit row; the same status again changes nothing', async () => {
    const bot = await booked({ backend });
    const card = await bot.deps.store.bookings.get('WB000001');
    const modal = await openStatusModal(bot);
    expect(modal.callback_id).toBe(ids.statusForm);
    expect(modal.title).toMatchObject({ text: 'Record status' });
    const statusSelect = modal.blocks.find((b) => b.block_id === 'status').element;
    expect(statusSelect.options.map((o: { text: { text: string } }) => o.text.text)).toEqual([
      'Picked up',
      'In transit',
      'Out for delivery',
      'Delivered',
      'Failed attempt',
      'Returned to sender',
      'Cancelled with the courier',
    ]);

    const ack = await bot.submit(modal, { status: 'delivered' });
    expect(textOf(ack.body.view)).toContain('Recorded for `WB000001`');
    expect(textOf(ack.body.view)).toContain('recorded by <@UDISPATCH>');
    await bot.idle();

    const edits = bot.fake.callsTo('chat.update');
    expect(edits.map((c) => [c.body.channel, c.body.ts])).toEqual([
      ['CDISPATCH', card?.cardTs],
      ['CAUDIT', card?.auditCardTs],
    ]);
    const edited = textOf(edits[0]?.body.blocks);
    expect(edited).toContain('*Delivered* · <!date^');
    expect(edited).toContain('recorded by <@UDISPATCH>');
    expect(edited).not.toMatch(/tracked/i);
    // The card keeps every button, Record status among them.
    expect(edited).toContain(ids.statusOpen);
    expect(edited).toContain(ids.waybillUpdate);

    expect(threadLines(bot).map((c) => [c.body.channel, c.body.thread_ts])).toEqual([
      ['CDISPATCH', card?.cardTs],
      ['CAUDIT', card?.auditCardTs],
    ]);
    expect(String(threadLines(bot)[0]?.body.text)).toBe(
      ':memo: `WB000001` Delivered, recorded by <@UDISPATCH>',
    );
    const [audit] = await bot.deps.store.audit.list({ operation: 'status' });
    expect(audit).toMatchObject({
      userId: 'UDISPATCH',
      trackingNumber: 'WB000001',
      outcome: 'ok',
      detail: 'recorded Delivered',
    });
    // No courier call of any kind.
    expect(bot.sandbox.received.filter((r) => r.operation !== 'book')).toEqual([]);

    // The same status again, by someone else: nothing written, nothing posted, and they are told.
    bot.fake.reset();
    const again = await openStatusModal(bot, 'UOTHER');
    const second = await bot.submit(again, { status: 'delivered' }, 'UOTHER');
    expect(textOf(second.body.view)).toContain('is already *Delivered*: nothing changed');
    await bot.idle();
    expect(bot.fake.callsTo('chat.update')).toEqual([]);
    expect(threadLines(bot)).toEqual([]);
    expect(await bot.deps.store.statuses.history('WB000001')).toHaveLength(1);
    expect(await bot.deps.store.audit.list({ operation: 'status' })).toHaveLength(1);
  });

  it('a failed attempt needs its reason, Other and a cancellation a note: said inline, on the field', async () => {
    const bot = await booked({ backend });
    const modal = await openStatusModal(bot);
    const noReason = await bot.submit(modal, { status: 'failed_attempt' });
    expect(noReason.body).toEqual({
      response_action: 'errors',
      errors: { reason: 'Say why the attempt failed.' },
    });
    const otherNoNote = await bot.submit(modal, { status: 'failed_attempt', reason: 'other' });
    expect(otherNoNote.body.errors).toEqual({ note: 'Say what happened: the reason is Other.' });
    const cancelled = await bot.submit(modal, { status: 'cancelled' });
    expect(cancelled.body.errors.note).toContain('Say how it was cancelled with the courier');
    const reasonOnDelivered = await bot.submit(modal, { status: 'delivered', reason: 'refused' });
    expect(reasonOnDelivered.body.errors).toEqual({ reason: 'A reason goes with a failed attempt only.' });
    expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
  });

  it('/waybill status, then /waybill show: the history, newest first, notes and reasons escaped everywhere', async () => {
    const bot = await booked({ backend });
    const picked = await bot.command('/waybill', 'status WB000001 picked-up');
    // The receiver named, so a mistyped tracking number shows.
    expect(picked.body.text).toContain('Recorded for `WB000001` (Maria Santos): *Picked up*');
    const hostile = 'Guard said <!channel> & <@U0BOSS> <http://x|here>';
    const failed = await bot.command('/waybill', `status WB000001 failed attempt not-at-home ${hostile}`);
    const escaped = 'Guard said &lt;!channel&gt; &amp; &lt;@U0BOSS&gt; &lt;http://x|here&gt;';
    expect(failed.body.text).toContain('*Failed attempt (not at home)*');
    expect(failed.body.text).toContain(escaped);
    expect(failed.body.text).not.toContain('<!channel>');
    await bot.idle();

    const history = await bot.deps.store.statuses.history('WB000001');
    expect(history.map((e) => [e.seq, e.status, e.reason, e.note])).toEqual([
      [1, 'picked_up', undefined, undefined],
      [2, 'failed_attempt', 'not_at_home', hostile],
    ]);
    const lines = threadLines(bot).filter((c) => c.body.channel === 'CDISPATCH');
    expect(String(lines[1]?.body.text)).toBe(
      `:memo: \`WB000001\` Failed attempt (not at home), recorded by <@UDISPATCH>: ${escaped}`,
    );
    const lastEdit = bot.fake.callsTo('chat.update').at(-1);
    expect(String(textOf(lastEdit?.body.blocks))).toContain('Failed attempt (not at home)');
    expect(String(textOf(lastEdit?.body))).not.toContain('<!channel>');

    const shown = await bot.command('/waybill', 'show WB000001');
    const blocks = textOf(shown.body.blocks);
    expect(blocks).toContain('*Status history*');
    expect(blocks.indexOf('Failed attempt (not at home)')).toBeLessThan(blocks.lastIndexOf('*Picked up*'));
    expect(blocks).not.toContain('<!channel>');
    expect(shown.body.blocks.length).toBeLessThanOrEqual(50);

    // A status that cannot be read, or an unknown waybill: told how, nothing recorded.
    const typo = await bot.command('/waybill', 'status WB000001 deliverd');
    expect(typo.body.text).toContain('Write `/waybill status <tracking number> <status> [note]`');
    const unknown = await bot.command('/waybill', 'status WB999999 delivered');
    expect(unknown.body.text).toBe(
      'I have no record of waybill `WB999999` in a conversation where you may update waybills: check the number, or ask in the conversation it was booked in.',
    );
    expect(await bot.deps.store.statuses.history('WB000001')).toHaveLength(2);
  });

  it('the export carries each line’s status, when it was recorded and by whom', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 delivered');
    await bot.idle();
    const { today, rows } = await exportedToday(bot);
    expect(rows[0]).toMatchObject({
      operation: 'book',
      tracking_number: 'WB000001',
      status: 'Delivered',
      status_recorded_by: 'UDISPATCH',
    });
    expect(rows[0]?.status_at).toMatch(new RegExp(`^${today} \\d\\d:\\d\\d`));
  });

  it('the Home tab shows each booking’s latest status and its Record status opens the same modal', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'status WB000001 returned back & <forth>');
    await bot.idle();
    const tab = await openedHome(bot);
    expect(tab).toContain('*Returned to sender* · <!date^');
    expect(tab).toContain('recorded by <@UDISPATCH>');
    expect(tab).toContain('back &amp; &lt;forth&gt;');
    const opened = bot.fake.callsTo('views.open').length;
    await bot.clickInHome(ids.statusOpen, 'WB000001');
    const modal = await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
    expect((modal.body.view as View).callback_id).toBe(ids.statusForm);
    expect(textOf(modal.body.view)).toContain('Now: *Returned to sender*');
  });

  it('two replicas, two people at the same moment: both recorded in order, every card shows the later one', async () => {
    const stores: Store[] = [await backend.open({ replicaId: 'a' }), await backend.open({ replicaId: 'b' })];
    const a = await booked({ store: stores[0] });
    const b = await started({ store: stores[1], env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    await Promise.all([
      a.command('/waybill', 'status WB000001 in-transit', { user_id: 'UANA' }),
      b.command('/waybill', 'status WB000001 delivered', { user_id: 'UBEN' }),
    ]);
    await Promise.all([a.idle(), b.idle()]);
    const history = await a.deps.store.statuses.history('WB000001');
    expect(history.map((e) => e.seq)).toEqual([1, 2]);
    expect(new Set(history.map((e) => e.userId))).toEqual(new Set(['UANA', 'UBEN']));
    const later = history[1];
    const label = later?.status === 'delivered' ? '*Delivered*' : '*In transit*';
    // The last edit Slack received, from whichever replica, shows the later status.
    const edits = [...a.fake.callsTo('chat.update'), ...b.fake.callsTo('chat.update')]
      .filter((c) => c.body.channel === 'CDISPATCH')
      .sort((x, y) => x.receivedAt - y.receivedAt);
    expect(textOf(edits.at(-1)?.body.blocks)).toContain(label);
    expect(textOf(edits.at(-1)?.body.blocks)).toContain(`recorded by <@${later?.userId}>`);
  });
});

it('recording a status needs the update permission: the button, the modal and the command are refused', async () => {
  const bot = await booked({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
  const modal = await openStatusModal(bot);
  const refusedClick = await bot.clickInMessage(ids.statusOpen, 'WB000001', { user: 'UINTRUDER' });
  expect(refusedClick.status).toBe(200);
  const refusedSubmit = await bot.submit(modal, { status: 'delivered' }, 'UINTRUDER');
  expect(textOf(refusedSubmit.body.view)).toContain('not on the list of people who may update waybills');
  const refusedCommand = await bot.command('/waybill', 'status WB000001 delivered', { user_id: 'UINTRUDER' });
  expect(refusedCommand.body.text).toContain('not on the list of people who may update waybills');
  await bot.idle();
  expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
  expect(bot.fake.callsTo('chat.update')).toEqual([]);
  const refusals = await bot.deps.store.audit.list({ userId: 'UINTRUDER' });
  expect(refusals.map((r) => [r.operation, r.outcome])).toEqual([
    ['update', 'refused'],
    ['update', 'refused'],
    ['update', 'refused'],
  ]);
});

it('/waybill status reads the words dispatchers type, any case; only ambiguous words get the usage, naming the choices', async () => {
  const bot = await booked({});
  // Each differs from the one before, so each is recorded.
  const typed: [string, [string, string | undefined, string | undefined]][] = [
    ['Failed not at home', ['failed_attempt', 'not_at_home', undefined]],
    ['PICKED UP from the hub', ['picked_up', undefined, 'from the hub']],
    ['failed attempt refused', ['failed_attempt', 'refused', undefined]],
    ['In Transit', ['in_transit', undefined, undefined]],
    ['failed wrong addr gate locked', ['failed_attempt', 'wrong_address', 'gate locked']],
    ['RTS', ['returned', undefined, undefined]],
    ['not at home', ['failed_attempt', 'not_at_home', undefined]],
    ['return to sender', ['returned', undefined, undefined]],
    ['failed rider had a flat tyre', ['failed_attempt', 'other', 'rider had a flat tyre']],
    ['returned', ['returned', undefined, undefined]],
    ['refused', ['failed_attempt', 'refused', undefined]],
    ['canceled by phone', ['cancelled', undefined, 'by phone']],
    ['Delivered', ['delivered', undefined, undefined]],
  ];
  for (const [words] of typed) {
    const answer = await bot.command('/waybill', `status WB000001 ${words}`);
    expect(answer.body.text, words).toContain('Recorded for `WB000001`');
  }
  const history = await bot.deps.store.statuses.history('WB000001');
  expect(history.map((e) => [e.status, e.reason, e.note])).toEqual(typed.map(([, entry]) => entry));

  // `re` begins both a status and a reason: the choices named, then how to write it; nothing recorded.
  const ambiguous = await bot.command('/waybill', 'status WB000001 re');
  expect(ambiguous.body.text).toContain(
    '`re` could be `returned` (Returned to sender) or `refused` (Failed attempt (refused))',
  );
  expect(ambiguous.body.text).toContain('Write `/waybill status <tracking number> <status> [note]`');
  const failedOnly = await bot.command('/waybill', 'status WB000001 failed');
  expect(failedOnly.body.text).toContain('Say why the attempt failed.');
  expect(failedOnly.body.text).toContain('`not at home`, `refused`, `wrong address`, `other`');
  expect(await bot.deps.store.statuses.history('WB000001')).toHaveLength(typed.length);
});
