/**
 * Socket Mode over a real loopback WebSocket: `/quote` with errors acknowledged inline, `/book` to the card
 * with a double click, the Home tab, a re-sent envelope ignored, an envelope Bolt cannot route acknowledged
 * and logged, envelopes no listener handles acknowledged and their senders told, a `disconnect` from Slack
 * followed by a reconnect.
 */
// Socket Mode, the manifest's default, end to end: envelopes over a real loopback WebSocket, acknowledged on it.
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { blockActionsPayload, interactiveBody, slashCommandBody } from '../../fakes/slack-requests.js';
import { bookThroughModal, fillToReview } from '../support/booking-flow.js';
import { secrets, startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);

let bot: TestBot;

afterEach(async () => {
  await bot?.stop();
});

describe('Socket Mode', () => {
  it('connects with the app-level token and answers /quote: errors inline in the ack, then the price', async () => {
    bot = await startTestBot({ socketMode: true });
    const open = bot.fake.callsTo('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]?.token).toBe(secrets.appToken);

    const command = await bot.command('/quote', quoteCommandText);
    expect(command).toMatchObject({ status: 200, body: '' });
    const form = await bot.openedView();
    expect(form.callback_id).toBe(ids.quoteForm);

    const refused = await bot.submit(form, { ...quoteTyped, 'package.weight': '-2' });
    expect(refused.body.response_action).toBe('errors');
    expect(Object.keys(refused.body.errors)).toEqual(['package.weight']);

    const accepted = await bot.submit(form, quoteTyped);
    expect(accepted.body.response_action).toBe('update');
    await bot.idle();
    expect(bot.sandbox.received).toHaveLength(1);
    const posted = await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body).includes('PHP'));
    expect(posted.body.channel).toBe('CDISPATCH');
  });

  it('books through every step to the card, and a double click on Book books once', async () => {
    bot = await startTestBot({ socketMode: true });
    const review = await fillToReview(bot);
    await bot.submit(review);
    const again = await bot.submit(review);
    expect(again.status).toBe(200);
    await bot.idle();
    await bot.fake.waitFor('chat.postMessage', (c) => textOf(c.body.blocks).includes('Booked `WB000001`'));
    expect(bot.sandbox.received).toHaveLength(1);
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({ version: 1 });
  });

  it('draws the Home tab from an app_home_opened event', async () => {
    bot = await startTestBot({ socketMode: true });
    await bookThroughModal(bot);
    const response = await bot.event({
      type: 'app_home_opened',
      user: 'UDISPATCH',
      channel: 'DHOME',
      tab: 'home',
    });
    expect(response.status).toBe(200);
    await bot.idle();
    const publish = await bot.fake.waitFor('views.publish', (c) =>
      textOf(c.body).includes('Bookings today (1)'),
    );
    expect(publish.body.user_id).toBe('UDISPATCH');
  });

  it('ignores an envelope Slack re-sends (retry_attempt) after the first was received', async () => {
    bot = await startTestBot({ socketMode: true });
    const body = slashCommandBody({
      command: '/quote',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
    });
    const socket = bot.socket;
    if (!socket) throw new Error('no Socket Mode connection');
    await socket.deliver(body);
    const retry = await socket.deliver(body, {
      headers: { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'timeout' },
    });
    expect(retry.status).toBe(200);
    await bot.idle();
    expect(bot.fake.callsTo('views.open')).toHaveLength(1);
    expect(bot.logs.some((line) => line.includes('Slack retry of a request already received'))).toBe(true);
  });

  it('acknowledges an envelope Bolt cannot route (a click without `user`), so Slack does not send it again, and logs it', async () => {
    bot = await startTestBot({ socketMode: true });
    const from = bot.logs.length;
    const { user: _user, ...withoutUser } = blockActionsPayload({
      actionId: ids.bookRebook,
      value: 'WB000001',
    });
    const response = await bot.socket?.deliver(interactiveBody(withoutUser));
    expect(response).toMatchObject({ status: 200, body: '' });
    expect(bot.logs.slice(from).some((line) => line.includes('a Slack request could not be processed'))).toBe(
      true,
    );
  });

  // Bolt's Socket Mode receiver has no unhandled-request timeout at all: these were never acknowledged.
  it('acknowledges envelopes no listener handles (a stale button, an unknown command) and says they are out of date', async () => {
    bot = await startTestBot({ socketMode: true });
    const stale = await bot.socket?.deliver(
      interactiveBody(
        blockActionsPayload({ actionId: 'no_such_button', user: 'UDISPATCH', channelId: 'CDISPATCH' }),
      ),
    );
    expect(stale).toMatchObject({ status: 200, body: '' });
    const told = await bot.fake.waitFor('chat.postEphemeral');
    expect(String(told.body.text)).toContain('from an older version of the bot');
    const command = await bot.socket?.deliver(slashCommandBody({ command: '/nope', fake: bot.fake }));
    expect(command?.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('`/nope` is not a command this bot knows'),
    });
  });

  it('reconnects when Slack asks it to (disconnect: refresh_requested) and goes on answering', async () => {
    bot = await startTestBot({ socketMode: true });
    const socket = bot.socket;
    if (!socket) throw new Error('no Socket Mode connection');
    socket.disconnect('refresh_requested');
    await socket.waitForConnection(2);
    expect(bot.fake.callsTo('apps.connections.open')).toHaveLength(2);
    await bot.command('/quote', quoteCommandText);
    expect((await bot.openedView()).callback_id).toBe(ids.quoteForm);
  });
});
