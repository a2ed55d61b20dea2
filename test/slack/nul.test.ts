/**
 * A NUL character in command text, a button's value, a modal's `private_metadata` or a form's input, on
 * SQLite and PostgreSQL, over HTTP and Socket Mode: refused (an expired form, an error on the input), nothing
 * stored, no error.
 */
// A NUL character in what a request names (a tracking number, a draft id, an attempt key, a note), on
// both backends: PostgreSQL refuses one in text, so each is refused before any listener, as Slack never
// sends one; typed into a form, it is bad input, said on the input.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { AppResponse } from '../../fakes/slack-requests.js';
import { nulInputText } from '../../src/slack/guards/malformed.js';
import { viewMetadata } from '../../src/slack/kit/ids.js';
import { describeEachBackend } from '../store/backends.js';
import { bookThroughModal } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

const NUL = '\u0000';

const bots: TestBot[] = [];
afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
});

/** A bot with WB000001 booked, on this backend, over HTTP or Socket Mode. */
async function booked(options: Parameters<typeof startTestBot>[0]): Promise<TestBot> {
  const bot = await startTestBot({ unhandledRequestTimeoutMs: 600_000, ...options });
  bots.push(bot);
  await bookThroughModal(bot);
  return bot;
}

/** Requests whose fields name what the listener looks up: a tracking number, a note, an attempt key, a draft id. */
function nulInFields(bot: TestBot): Record<string, () => Promise<AppResponse>> {
  return {
    'show, tracking number': () => bot.command('/waybill', `show WB${NUL}001`),
    'update, tracking number': () => bot.command('/waybill', `update WB000001${NUL}`),
    'label, tracking number': () => bot.command('/waybill', `label WB${NUL}`),
    'status, tracking number': () => bot.command('/waybill', `status WB${NUL}1 delivered`),
    'status, note': () => bot.command('/waybill', `status WB000001 delivered gate${NUL}keeper`),
    'Update button': () => bot.clickInMessage(ids.waybillUpdate, `WB000001${NUL}`),
    'Record status button': () => bot.clickInMessage(ids.statusOpen, `WB${NUL}`),
    'Resolve button, attempt key': () => bot.clickInMessage(ids.resolveOpen, `key${NUL}`),
    'Resume on the Home tab, draft id': () => bot.clickInHome(ids.bookingResume, `draft${NUL}`),
  };
}

/** Forms submitted whose private_metadata (JSON) names a draft id and an attempt key holding a NUL. */
function nulInMetadata(bot: TestBot): Record<string, () => Promise<AppResponse>> {
  const submitted = (callbackId: string) => () =>
    bot.submit(
      {
        id: 'V0NUL',
        callback_id: callbackId,
        private_metadata: viewMetadata({ draftId: `d${NUL}`, attemptKey: `k${NUL}` }),
        blocks: [],
      },
      {},
    );
  return Object.fromEntries(
    [ids.quoteForm, ids.bookingStep, ids.updateForm, ids.statusForm, ids.resolveForm].map((id) => [
      id,
      submitted(id),
    ]),
  );
}

const errorLines = (bot: TestBot, from: number) =>
  bot.logs.slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

describeEachBackend(import.meta.filename, 'a NUL character in a request', (backend) => {
  it('in command text or a block action value: 400 and one warning; in private_metadata: an expired form; nothing stored', async () => {
    const bot = await booked({ backend });
    const from = bot.logs.length;
    const fields = Object.entries(nulInFields(bot));
    for (const [name, send] of fields) expect((await send()).status, name).toBe(400);
    // Metadata that is not ours is answered as any unreadable metadata is: the form has expired.
    for (const [name, send] of Object.entries(nulInMetadata(bot))) {
      const answer = await send();
      expect(answer.status, name).toBe(200);
      expect(answer.body.response_action, name).toBe('errors');
    }
    await bot.idle();
    expect(errorLines(bot, from)).toEqual([]);
    const refused = bot.logs.slice(from).filter((line) => line.includes('a NUL character in the request'));
    expect(refused).toHaveLength(fields.length);
    expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
    // Nothing the bot said repeats the character, and the booking still answers.
    expect(bot.fake.calls.filter((c) => c.rawBody.includes('\\u0000'))).toEqual([]);
    const shown = await bot.command('/waybill', 'show WB000001');
    expect(JSON.stringify(shown.body.blocks)).toContain('WB000001');
  });

  it('typed into a form: said on that input, nothing stored', async () => {
    const bot = await booked({ backend });
    const card = await bot.deps.store.bookings.get('WB000001');
    await bot.clickInMessage(ids.statusOpen, 'WB000001', { messageTs: card?.cardTs ?? '' });
    const modal = await bot.openedView();
    const answer = await bot.submit(modal, { status: 'delivered', note: `gate${NUL}keeper` });
    expect(answer.body).toEqual({ response_action: 'errors', errors: { note: nulInputText } });
    await bot.idle();
    expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
    const recorded = await bot.submit(modal, { status: 'delivered', note: 'gatekeeper' });
    expect(JSON.stringify(recorded.body)).toContain('Recorded for `WB000001`');
  });

  it('over Socket Mode: acknowledged, nothing recorded, no error', async () => {
    const bot = await booked({ backend, socketMode: true });
    const from = bot.logs.length;
    const ack = await bot.command('/waybill', `status WB000001 delivered gate${NUL}keeper`);
    expect(ack.status).toBe(200);
    await bot.idle();
    expect(errorLines(bot, from)).toEqual([]);
    expect(bot.logs.slice(from).some((line) => line.includes('a NUL character in the request'))).toBe(true);
    expect(await bot.deps.store.statuses.history('WB000001')).toEqual([]);
  });
});
