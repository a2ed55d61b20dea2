/**
 * Who may do what, on every entry point (shortcuts and the channel chosen for a global one included); user
 * groups; `/waybill` verbs read in any case by the guard and the command, an unknown word named (with the
 * verbs it is close to) before the help.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { fillToReview } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

afterEach(async () => {
  await bot.stop();
});

const refusals = async () =>
  (await bot.deps.store.audit.list()).filter((entry) => entry.outcome === 'refused');

describe('who may quote, book and update', () => {
  it('refuses a user who is not listed, privately, and records it', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UBOSS' } });
    const response = await bot.command('/quote', 'weight=2');
    expect(response.body).toMatchObject({ response_type: 'ephemeral' });
    expect(response.body.text).toContain('not on the list of people who may quote');
    expect(bot.fake.callsTo('views.open')).toHaveLength(0);
    expect(await refusals()).toMatchObject([{ userId: 'UDISPATCH', operation: 'quote' }]);
    const allowed = await bot.command('/quote', '', { user_id: 'UBOSS' });
    expect(allowed.status).toBe(200);
    await bot.fake.waitFor('views.open');
  });

  it('lets in members of a listed user group, read through the Web API and cached', async () => {
    bot = await startTestBot({ env: { ALLOWED_USERGROUP_IDS: 'SDISPATCH' } });
    bot.fake.respond('usergroups.users.list', { ok: true, users: ['UDISPATCH'] });
    await bot.command('/book');
    await bot.fake.waitFor('views.open');
    await bot.command('/book');
    await bot.fake.waitFor('views.open', undefined, { count: 2 });
    const stranger = await bot.command('/book', '', { user_id: 'USTRANGER' });
    expect(stranger.body.text).toContain('may book');
    expect(bot.fake.callsTo('usergroups.users.list')).toHaveLength(1);
    expect(bot.fake.callsTo('usergroups.users.list')[0]?.body.usergroup).toBe('SDISPATCH');
  });

  it('refuses through a user group Slack cannot read (fails closed)', async () => {
    bot = await startTestBot({ env: { ALLOWED_USERGROUP_IDS: 'SDISPATCH' } });
    bot.fake.respond('usergroups.users.list', { ok: false, error: 'missing_scope' });
    const response = await bot.command('/quote');
    expect(response.body.text).toContain('not on the list');
  });

  it('refuses in a conversation that is not listed', async () => {
    bot = await startTestBot({ env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    const response = await bot.command('/quote', '', { channel_id: 'CRANDOM' });
    expect(response.body.text).toContain('not enabled in this conversation');
    expect(await refusals()).toMatchObject([
      { operation: 'quote', detail: expect.stringContaining('CRANDOM') },
    ]);
  });

  it('is enforced on the submission, each step and each button, not only the command', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    await bot.command('/quote');
    const quoteForm = await bot.openedView();
    const submitted = await bot.submit(quoteForm, { 'package.weight': '1' }, 'UINTRUDER');
    expect(submitted.body.response_action).toBe('update');
    expect(textOf(submitted.body.view)).toContain('not on the list');

    const review = await fillToReview(bot);
    const confirm = await bot.submit(review, {}, 'UINTRUDER');
    expect(textOf(confirm.body.view)).toContain('not on the list of people who may book');

    await bot.clickInMessage(ids.waybillUpdate, 'WB000001', { user: 'UINTRUDER' });
    const notice = await bot.fake.waitFor('chat.postEphemeral');
    expect(notice.body).toMatchObject({ user: 'UINTRUDER', channel: 'CDISPATCH' });
    expect(String(notice.body.text)).toContain('may update');

    await bot.idle();
    expect(bot.sandbox.received).toHaveLength(0);
    expect((await refusals()).map((r) => r.operation).sort()).toEqual(['book', 'quote', 'update']);
  });

  it('is enforced on the shortcuts, the Rebook button and /waybill rebook', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    const refusedModals = () =>
      bot.fake.callsTo('views.open').filter((c) => textOf(c.body.view).includes('Not allowed'));

    await bot.messageShortcut('pls book 1 box to Maria Santos, 0918 555 0202', { user: 'UINTRUDER' });
    await bot.fake.waitFor('views.open');
    expect(textOf(refusedModals()[0]?.body.view)).toContain('not on the list of people who may book');

    await bot.globalShortcut(ids.quoteNew, 'UINTRUDER');
    await bot.fake.waitFor('views.open', undefined, { count: 2 });
    expect(textOf(refusedModals()[1]?.body.view)).toContain('may quote');

    const command = await bot.command('/waybill', 'rebook WB000001', { user_id: 'UINTRUDER' });
    expect(command.body.text).toContain('may book');

    await bot.clickInMessage(ids.bookRebook, 'WB000001', { user: 'UINTRUDER' });
    const notice = await bot.fake.waitFor('chat.postEphemeral');
    expect(notice.body).toMatchObject({ user: 'UINTRUDER', channel: 'CDISPATCH' });
    expect(String(notice.body.text)).toContain('may book');

    await bot.idle();
    expect(bot.fake.callsTo('views.open')).toHaveLength(2);
    expect((await refusals()).map((r) => r.operation).sort()).toEqual(['book', 'book', 'book', 'quote']);

    // The listed dispatcher gets the form.
    await bot.messageShortcut('pls book 1 box to Maria Santos, 0918 555 0202');
    const opened = await bot.fake.waitFor('views.open', undefined, { count: 3 });
    expect((opened.body.view as { callback_id: string }).callback_id).toBe(ids.bookingStep);
  });

  it('checks the channel chosen for a global shortcut, and the channel of a message shortcut', async () => {
    bot = await startTestBot({ env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    // A global shortcut comes from no conversation: the choice of one is what is checked.
    await bot.globalShortcut(ids.bookNew);
    const destination = await bot.openedView();
    expect(destination.callback_id).toBe(ids.bookingDestination);
    const elsewhere = await bot.submit(destination, { destination: 'CRANDOM' });
    expect(elsewhere.body.response_action).toBe('update');
    expect(textOf(elsewhere.body.view)).toContain('not enabled in this conversation');
    const here = await bot.submit(destination, { destination: 'CDISPATCH' });
    expect(here.body.view.callback_id).toBe(ids.bookingStep);

    await bot.messageShortcut('pls book 1 box', { channelId: 'CRANDOM' });
    const refused = await bot.fake.waitFor('views.open', undefined, { count: 2 });
    expect(textOf(refused.body.view)).toContain('not enabled in this conversation');
    expect((await refusals()).map((r) => r.detail)).toEqual([
      expect.stringContaining('CRANDOM'),
      expect.stringContaining('CRANDOM'),
    ]);
  });

  it('leaves help open to everyone', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UBOSS' } });
    const response = await bot.command('/waybill', 'help');
    expect(response.body.text).toContain('What this bot does');
  });

  it('reads help the same way in the guard and the command: `/book help x` is help, and opens nothing', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UBOSS' } });
    const answers = {
      '/book': await bot.command('/book', 'help x'),
      '/quote': await bot.command('/quote', 'HELP weight=2'),
      '/waybill': await bot.command('/waybill', 'help update WB000001'),
    };
    expect(answers['/book'].body.text).toContain('*/book* books a waybill in steps');
    expect(answers['/quote'].body.text).toContain('*/quote* opens a form');
    expect(answers['/waybill'].body.text).toContain('What this bot does');
    for (const answer of Object.values(answers)) expect(answer.body.response_type).toBe('ephemeral');
    await bot.idle();
    expect(bot.fake.callsTo('views.open')).toHaveLength(0);
    expect(await refusals()).toEqual([]);
    // Anything else an outsider types is an operation, and refused.
    const booking = await bot.command('/book', 'helpx');
    expect(booking.body.text).toContain('not on the list of people who may book');
  });

  it('reads /waybill verbs in any case, in the guard and the command; an unknown word is named before the help', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    // Capitalised as a phone types it: the lookup itself, and the permission it needs.
    const shown = await bot.command('/waybill', 'Show WB000001');
    expect(shown.body.text).toMatch(
      /^I have no record of waybill `WB000001` in a conversation where you may look up/,
    );
    const outsider = await bot.command('/waybill', 'STATUS WB000001 delivered', { user_id: 'UINTRUDER' });
    expect(outsider.body.text).toContain('not on the list of people who may update waybills');

    const nonsense = await bot.command('/waybill', 'nonsense WB000001');
    expect(nonsense.body.text).toMatch(/^`nonsense` is not a \/waybill command\.\n\n\*What this bot does\*/);
    const typos = {
      shwo: 'did you mean `show`?',
      Lable: 'did you mean `label`?',
      stat: 'did you mean `status` or `statuses`?',
      remitance: 'did you mean `remittance`?',
    };
    for (const [word, guess] of Object.entries(typos)) {
      const answer = await bot.command('/waybill', `${word} WB000001`);
      expect(answer.body.text, word).toContain(`\`${word}\` is not a /waybill command; ${guess}`);
      expect(answer.body.text, word).toContain('What this bot does');
    }
    // What was typed comes back escaped, and cut when long.
    const hostile = await bot.command('/waybill', `<!channel>&${'x'.repeat(80)}`);
    expect(hostile.body.text).toMatch(/^`&lt;!channel&gt;&amp;x+\u2026` is not a \/waybill command/);
    expect(await refusals()).toHaveLength(1);
  });
});
