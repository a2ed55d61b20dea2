/**
 * Owners on both backends: the card's owner and people picker, Take it and Assign (`users_select`) with the
 * cards, thread lines, audit row and the new owner's DM; `/waybill assign` (a mention, any case, the same
 * owner, no mention, an unknown number escaped); owners no reminder could reach refused; the Home tab and the export's `owner`; two replicas handing
 * one booking over at once; access refused.
 */
// Owners of bookings, on both backends: the card shows the owner, Take it and Assign (a people picker) on it,
// /waybill assign, the audit, the Home tab and the export; two replicas handing one booking over at once; access.
import { expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { ownerBlockId } from '../../src/slack/booking/index.js';
import type { Store } from '../../src/store/index.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import { bookThroughModal, botsPerTest, exportedToday, openedHome } from '../support/booking-flow.js';
import type { TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const { started, booked } = botsPerTest();

const ownerLines = (bot: TestBot) =>
  bot.fake.callsTo('chat.postMessage').filter((c) => String(c.body.text).startsWith(':bust_in_silhouette:'));

/** The people picker on a card (CDISPATCH's unless told), `picked` chosen by `user`. */
async function assignOnCard(bot: TestBot, picked: string, user = 'UDISPATCH') {
  const card = await bot.deps.store.bookings.get('WB000001');
  return bot.pickUserInMessage(ids.ownerAssign, ownerBlockId('WB000001'), picked, {
    user,
    messageTs: card?.cardTs ?? '1.000001',
  });
}

describeEachBackend(import.meta.filename, 'owners of bookings', (backend) => {
  it('the card shows its booker as owner; Take it hands it over: the store, both cards, a thread line each, the audit, the clicker told', async () => {
    const bot = await started({ backend, env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    await bookThroughModal(bot);
    const posted = bot.fake
      .callsTo('chat.postMessage')
      .find((c) => textOf(c.body.blocks).includes('Booked `WB000001`'));
    expect(textOf(posted?.body.blocks)).toContain(':bust_in_silhouette: Owner <@UDISPATCH>');
    const picker = JSON.parse(textOf(posted?.body.blocks))
      .flatMap((b: { elements?: unknown[] }) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === ids.ownerAssign);
    expect(picker).toMatchObject({ type: 'users_select', initial_user: 'UDISPATCH' });
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UDISPATCH');
    // Shown privately, the card offers Take it to anyone but its owner.
    const takeIt = `"action_id":"${ids.ownerTake}"`;
    expect(textOf((await bot.command('/waybill', 'show WB000001')).body.blocks)).not.toContain(takeIt);
    expect(
      textOf((await bot.command('/waybill', 'show WB000001', { user_id: 'UBEN' })).body.blocks),
    ).toContain(takeIt);
    bot.fake.reset();

    const card = await bot.deps.store.bookings.get('WB000001');
    await bot.clickInMessage(ids.ownerTake, 'WB000001', { user: 'UBEN', messageTs: card?.cardTs ?? '' });
    const told = await bot.fake.waitFor('response_url');
    expect(told.body.text).toBe("`WB000001` is now <@UBEN>'s (it was <@UDISPATCH>'s).");
    await bot.idle();

    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UBEN');
    const edits = bot.fake.callsTo('chat.update');
    expect(edits.map((c) => [c.body.channel, c.body.ts])).toEqual([
      ['CDISPATCH', card?.cardTs],
      ['CAUDIT', card?.auditCardTs],
    ]);
    expect(textOf(edits[0]?.body.blocks)).toContain('Owner <@UBEN>');
    expect(textOf(edits[0]?.body.blocks)).toContain('"initial_user":"UBEN"');
    expect(ownerLines(bot).map((c) => [c.body.channel, c.body.thread_ts, c.body.text])).toEqual([
      ['CDISPATCH', card?.cardTs, ':bust_in_silhouette: `WB000001` taken by <@UBEN>'],
      ['CAUDIT', card?.auditCardTs, ':bust_in_silhouette: `WB000001` taken by <@UBEN>'],
    ]);
    // Whoever takes it needs no DM about it.
    expect(bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'UBEN')).toEqual([]);
    const audit = await bot.deps.store.audit.list({ operation: 'assign' });
    expect(audit).toMatchObject([
      { userId: 'UBEN', trackingNumber: 'WB000001', outcome: 'ok', detail: 'owner UDISPATCH to UBEN' },
    ]);

    // Taking it again changes nothing, and says so.
    bot.fake.reset();
    await bot.clickInMessage(ids.ownerTake, 'WB000001', { user: 'UBEN', messageTs: card?.cardTs ?? '' });
    expect((await bot.fake.waitFor('response_url')).body.text).toBe(
      "`WB000001` is <@UBEN>'s already: nothing changed.",
    );
    await bot.idle();
    expect(bot.fake.callsTo('chat.update')).toEqual([]);
    expect(await bot.deps.store.audit.list({ operation: 'assign' })).toHaveLength(1);
  });

  it('Assign on the card: the person picked becomes the owner and gets a DM; the card keeps every button within Block Kit limits', async () => {
    const bot = await booked({ backend });
    await assignOnCard(bot, 'UANA');
    expect((await bot.fake.waitFor('response_url')).body.text).toBe(
      "`WB000001` is now <@UANA>'s (it was <@UDISPATCH>'s).",
    );
    await bot.idle();
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UANA');
    const dm = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'UANA');
    expect(dm.map((c) => c.body.text)).toEqual([
      '<@UDISPATCH> assigned `WB000001` to you: you are its owner now.',
    ]);
    expect(ownerLines(bot)[0]?.body.text).toBe(
      ':bust_in_silhouette: `WB000001` assigned to <@UANA> by <@UDISPATCH>',
    );
    const edited = bot.fake.callsTo('chat.update')[0]?.body;
    for (const id of [ids.waybillUpdate, ids.statusOpen, ids.bookRebook, ids.labelsPrint, ids.ownerTake])
      expect(textOf(edited?.blocks)).toContain(id);
    expectWithinSlackLimits(edited);

    // A picker's value that is no member ID is never written into a mention: refused, nothing changed.
    bot.fake.reset();
    await assignOnCard(bot, 'U1><!channel>');
    expect((await bot.fake.waitFor('response_url')).body.text).toContain('Write `/waybill assign');
    await bot.idle();
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UANA');
    expect(bot.fake.callsTo('chat.update')).toEqual([]);
  });

  it('/waybill assign with a mention, in any case; the same owner again, no mention, an unknown number: told, nothing changed', async () => {
    const bot = await booked({ backend });
    const assigned = await bot.command('/waybill', 'ASSIGN WB000001 <@UANA|ana>');
    expect(assigned.body).toMatchObject({
      response_type: 'ephemeral',
      text: "`WB000001` is now <@UANA>'s (it was <@UDISPATCH>'s).",
    });
    await bot.idle();
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UANA');
    expect(bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'UANA')).toHaveLength(1);

    const again = await bot.command('/waybill', 'assign WB000001 <@UANA>');
    expect(again.body.text).toBe("`WB000001` is <@UANA>'s already: nothing changed.");
    for (const notAMention of ['@ana', '<@u1&x>', '<#C1|general>']) {
      const answer = await bot.command('/waybill', `assign WB000001 ${notAMention}`);
      expect(answer.body.text, notAMention).toContain('Write `/waybill assign <tracking number> @person`');
    }
    const hostile = await bot.command('/waybill', 'assign <b>&x <@UBEN>');
    expect(hostile.body.text).toMatch(/^I have no record of waybill `&lt;B&gt;&amp;X` in a conversation/);
    const alone = await bot.command('/waybill', 'assign');
    expect(alone.body.text).toContain('/waybill assign <tracking number> @person');
    await bot.idle();
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UANA');
    expect(await bot.deps.store.audit.list({ operation: 'assign' })).toHaveLength(1);
  });

  it('an owner no reminder could reach (a bot, deactivated, another organisation’s, unknown) is refused on every way in', async () => {
    const bot = await booked({ backend });
    // Each member as users.info answers for them, and why they are refused.
    const people: [string, unknown, string][] = [
      ['U0BOT', { id: 'U0BOT', team_id: 'T0001', is_bot: true, deleted: false }, 'is a bot'],
      ['U0GONE', { id: 'U0GONE', team_id: 'T0001', is_bot: false, deleted: true }, 'has been deactivated'],
      ['W0EXTERNAL', { id: 'W0EXTERNAL', team_id: 'T0OTHER' }, 'belongs to another organisation'],
      ['U0NOBODY', undefined, 'is not a member Slack knows'],
    ];
    bot.fake.respond('users.info', (body) => {
      const person = people.find(([id]) => id === body.user);
      if (!person) return undefined;
      return person[1] ? { ok: true, user: person[1] } : { ok: false, error: 'user_not_found' };
    });
    for (const [id, , reason] of people) {
      const answer = await bot.command('/waybill', `assign WB000001 <@${id}>`);
      expect(answer.body.text).toBe(
        `<@${id}> ${reason}, so the bot could never remind them of \`WB000001\`: nothing changed. Assign it to a person in this workspace.`,
      );
    }
    const posts = bot.fake.responseUrlPosts.length;
    await assignOnCard(bot, 'U0BOT');
    const picked = await bot.fake.waitForResponseUrlPost(undefined, { count: posts + 1 });
    expect(picked.body.text).toContain('<@U0BOT> is a bot');
    await bot.idle();
    expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UDISPATCH');
    expect(await bot.deps.store.audit.list({ operation: 'assign' })).toEqual([]);
    // A person of this workspace still can.
    const ana = await bot.command('/waybill', 'assign WB000001 <@UANA>');
    expect(ana.body.text).toContain("is now <@UANA>'s");
  });

  it('the Home tab and the export show each booking’s owner', async () => {
    const bot = await booked({ backend });
    await bot.command('/waybill', 'assign WB000001 <@UANA|ana>');
    await bot.idle();
    expect(await openedHome(bot)).toContain('owner <@UANA>');
    const { rows } = await exportedToday(bot);
    expect(rows.map((row) => [row.operation, row.tracking_number, row.owner])).toEqual([
      ['book', 'WB000001', 'UANA'],
    ]);
  });

  it('two replicas handing one booking over at the same moment: each change recorded with the owner it replaced', async () => {
    const stores: Store[] = [await backend.open({ replicaId: 'a' }), await backend.open({ replicaId: 'b' })];
    const a = await booked({ store: stores[0] });
    const b = await started({ store: stores[1], env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    const people = ['U01', 'U02', 'U03', 'U04', 'U05', 'U06'];
    await Promise.all(
      people.map((person, i) => (i % 2 ? a : b).command('/waybill', `assign WB000001 <@${person}>`)),
    );
    await Promise.all([a.idle(), b.idle()]);
    const changes = (await a.deps.store.audit.list({ operation: 'assign' })).map((e) =>
      String(e.detail).split(' '),
    );
    // One chain from the booker: every owner replaced once, the last one the owner now.
    const replaced = changes.map(([, from]) => from);
    expect(new Set(replaced).size).toBe(people.length);
    expect(replaced).toContain('UDISPATCH');
    const owner = (await a.deps.store.bookings.get('WB000001'))?.ownerId;
    expect([...people, 'UDISPATCH'].filter((p) => !replaced.includes(p))).toEqual([owner]);
  });
});

it('assigning or taking a booking needs the update permission: the button, the picker and the command are refused', async () => {
  const bot = await booked({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
  const card = await bot.deps.store.bookings.get('WB000001');
  await bot.clickInMessage(ids.ownerTake, 'WB000001', { user: 'UINTRUDER', messageTs: card?.cardTs ?? '' });
  await assignOnCard(bot, 'UINTRUDER', 'UINTRUDER');
  const refused = await bot.command('/waybill', 'assign WB000001 <@UINTRUDER>', { user_id: 'UINTRUDER' });
  expect(refused.body.text).toContain('not on the list of people who may update waybills');
  await bot.idle();
  expect((await bot.deps.store.bookings.get('WB000001'))?.ownerId).toBe('UDISPATCH');
  expect(bot.fake.callsTo('chat.update')).toEqual([]);
  // Each refusal in the audit log, as the update it would have been.
  const refusals = await bot.deps.store.audit.list({ userId: 'UINTRUDER' });
  expect(refusals.map((r) => `${r.operation} ${r.outcome}`)).toEqual(Array(3).fill('update refused'));
});
