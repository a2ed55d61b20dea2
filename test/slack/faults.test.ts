/** Courier and Slack faults, retries, re-deliveries, shutdown with calls in flight (told in their modal) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import { slashCommandBody } from '../../fakes/slack-requests.js';
import { shutdown } from '../../src/lifecycle.js';
import { tellAbandoned } from '../../src/slack/booking/index.js';
import { type Attempt, openStore } from '../../src/store/index.js';
import type { SandboxFault } from '../../src/waybill/sandbox/server.js';
import { bookThroughModal, fillToReview } from '../support/booking-flow.js';
import { secrets, startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

afterEach(async () => {
  await bot.stop();
});

const quoteTyped = {
  paymentMethod: 'PREPAID',
  'shipper.street': '1 A St',
  'shipper.city': 'Makati',
  'shipper.country': 'PH',
  'consignee.street': '2 B St',
  'consignee.city': 'Cebu City',
  'consignee.country': 'PH',
  'package.type': 'BOX',
  'package.weight': '2',
};

const rejection = JSON.stringify({
  ResponseCode: '422',
  ResponseDetail: 'Route not served',
  remarks: 'no route',
});

/** Each courier fault, what the dispatcher must read, and whether a booking's outcome is unknown. */
const upstreamFaults: [string, SandboxFault, string, boolean][] = [
  ['slower than the timeout', { latencyMs: 1500 }, 'did not answer within', true],
  ['HTTP 500', { status: 500 }, 'HTTP error 500', true],
  [
    '502 with an HTML body',
    { status: 502, body: '<html><h1>Bad Gateway</h1></html>' },
    'HTTP error 502',
    true,
  ],
  ['a non-JSON body', { body: 'not json at all', contentType: 'text/plain' }, 'could not be read', true],
  ['a dropped connection', { drop: true }, 'lost', true],
  [
    'a ResponseCode other than 200',
    { status: 422, body: rejection, contentType: 'application/json' },
    'Route not served',
    false,
  ],
];

describe('courier faults on a quote', () => {
  it.each(upstreamFaults)(
    '%s: a clear message, an audit entry, and the form kept',
    async (_name, fault, words) => {
      bot = await startTestBot({ timeoutMs: 800 });
      bot.sandbox.setFaults(fault);
      await bot.command('/quote');
      const form = await bot.openedView();
      await bot.submit(form, quoteTyped);
      await bot.idle();
      const failed = await bot.updatedView(form.id, (v) => textOf(v.blocks).includes('No quote this time'));
      expect(textOf(failed.blocks)).toContain(words);
      expect((await bot.deps.store.audit.list({ operation: 'quote' }))[0]).toMatchObject({
        outcome: 'failed',
        userId: 'UDISPATCH',
      });
      bot.sandbox.setFaults(undefined);
      await bot.clickInView(failed, ids.quoteBack);
      const back = await bot.updatedView(form.id, (v) => v.callback_id === ids.quoteForm);
      expect(back.blocks.find((b) => b.block_id === 'package.weight').element.initial_value).toBe('2');
    },
  );
});

describe('courier faults on a booking', () => {
  it.each(upstreamFaults)(
    '%s: a clear message, an audit entry, never resent',
    async (_name, fault, words, unknown) => {
      bot = await startTestBot({ timeoutMs: 800 });
      const review = await fillToReview(bot);
      bot.sandbox.setFaults(fault);
      await bot.submit(review);
      await bot.idle();
      const outcome = await bot.updatedView(review.id, (v) => v.callback_id === ids.bookingOutcome);
      const shown = textOf(outcome.blocks);
      expect(shown).toContain(unknown ? 'outcome unknown' : words);
      expect(shown.includes(ids.bookingRetry)).toBe(!unknown);
      expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({
        outcome: unknown ? 'unknown' : 'failed',
        trackingNumber: 'WB000001',
      });
      // The draft is kept: the booking can still be reviewed (and, when not sent, changed).
      const draftId = JSON.parse(review.private_metadata ?? '{}').draftId;
      expect((await bot.deps.store.drafts.get(draftId))?.data).toMatchObject({ parcels: 3 });
      bot.sandbox.setFaults(undefined);
      const again = await bot.submit(review);
      expect(textOf(again.body.view)).toContain(unknown ? 'outcome unknown' : 'Not booked');
      await bot.idle();
      expect(bot.sandbox.received.filter((r) => r.operation === 'book').length).toBe(1);
    },
  );
});

describe('credentials the courier echoes back', () => {
  /** Every log line and everything sent to Slack. */
  const written = () => [
    ...bot.logs,
    ...bot.fake.calls.map((c) => c.rawBody),
    ...bot.fake.responseUrlPosts.map((p) => p.rawBody),
  ];

  it('our token reaches no log line, not even the part before the cut of an error excerpt', async () => {
    bot = await startTestBot();
    // Placed so that the 200-character excerpt of the error body cuts through the token.
    const gateway = `<html><body>${'x'.repeat(182)} Bearer ${secrets.upstreamToken} echoed</body></html>`;
    const review = await fillToReview(bot);
    bot.sandbox.injectNext({ status: 502, body: gateway });
    await bot.submit(review);
    await bot.idle();
    await bot.updatedView(review.id, (v) => v.callback_id === ids.bookingOutcome);
    for (const text of written()) {
      expect(text).not.toContain(secrets.upstreamToken.slice(0, 9));
      expect(text).not.toMatch(/Bearer (?!\[redac)/);
    }
    // The excerpt is still logged, scrubbed.
    expect(bot.logs.some((line) => line.includes('HTTP 502') && line.includes('xxxx Bearer [redac'))).toBe(
      true,
    );
  });

  it('nor does a Bearer or Slack token of anyone else, in the logs or the reason the dispatcher is shown', async () => {
    bot = await startTestBot();
    const strangers = JSON.stringify({
      ResponseCode: '401',
      ResponseDetail: 'token xoxb-9-8-STRANGERbot refused, send Bearer STRANGERbearer',
      remarks: 'xapp-1-A9-7-STRANGERapp',
    });
    await bot.command('/quote');
    const form = await bot.openedView();
    bot.sandbox.injectNext({ status: 401, body: strangers, contentType: 'application/json' });
    await bot.submit(form, quoteTyped);
    await bot.idle();
    const failed = await bot.updatedView(form.id, (v) => textOf(v.blocks).includes('No quote this time'));
    expect(textOf(failed.blocks)).toContain('token [redacted] refused, send Bearer [redacted]');
    for (const text of written()) expect(text).not.toContain('STRANGER');
  });
});

describe('Slack Web API faults', () => {
  it('waits out a rate limit (429 with Retry-After) and then posts', async () => {
    bot = await startTestBot({ slackRetries: 2 });
    bot.fake.respond('chat.postMessage', { status: 429, retryAfter: 1 }, { times: 1 });
    await bot.command('/quote');
    const form = await bot.openedView();
    await bot.submit(form, quoteTyped);
    await bot.idle();
    const posts = bot.fake.callsTo('chat.postMessage');
    expect(posts.map((p) => p.response?.status)).toEqual([429, 200]);
    // Retry-After: 1 was honoured before the second attempt.
    expect((posts[1]?.receivedAt ?? 0) - (posts[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(900);
    const result = await bot.updatedView(form.id, (v) => textOf(v.blocks).includes('Total'));
    expect(textOf(result.blocks)).toContain('Posted in <#CDISPATCH>');
  });

  it('delivers a booking card to the dispatcher when the bot cannot post in the channel', async () => {
    bot = await startTestBot();
    const review = await fillToReview(bot);
    bot.fake.respond('chat.postMessage', { ok: false, error: 'not_in_channel' }, { times: 1 });
    bot.fake.respond('response_url', { status: 404, body: 'expired_url' });
    await bot.submit(review);
    await bot.idle();
    const ephemeral = await bot.fake.waitFor('chat.postEphemeral');
    expect(textOf(ephemeral.body.blocks)).toContain('Booked `WB000001`');
    expect(await bot.deps.store.bookings.get('WB000001')).toBeDefined();
  });

  it('still posts the booking card when the modal was closed (views.update not_found)', async () => {
    bot = await startTestBot();
    const review = await fillToReview(bot);
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await bot.submit(review);
    await bot.close(review);
    await bot.idle();
    const card = await bot.fake.waitFor('chat.postMessage');
    expect(textOf(card.body.blocks)).toContain('Booked `WB000001`');
  });

  it('asks to try again when /book meets an expired trigger_id', async () => {
    bot = await startTestBot();
    bot.fake.respond('views.open', { ok: false, error: 'expired_trigger_id' });
    await bot.command('/book');
    const post = await bot.fake.waitForResponseUrlPost();
    expect(String(post.body.text)).toContain('type `/book` again');
  });

  it('does not process a Slack retry of a request it already received', async () => {
    bot = await startTestBot();
    const body = slashCommandBody({
      command: '/quote',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
    });
    await postToApp(bot.url, secrets.signingSecret, body);
    const retry = await postToApp(bot.url, secrets.signingSecret, body, {
      headers: { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' },
    });
    expect(retry.status).toBe(200);
    await bot.idle();
    expect(bot.fake.callsTo('views.open')).toHaveLength(1);
    expect(bot.logs.some((line) => line.includes('Slack retry of a request already received'))).toBe(true);
  });
});

describe('the process', () => {
  it('keeps drafts and bookings across a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'waybill-bot-')), 'bot.sqlite');
    bot = await startTestBot({ store: await openStore({ path, leaseRenewMs: 0 }) });
    const review = await fillToReview(bot);
    await bot.submit(review);
    await bot.idle();
    await bot.stop();
    await bot.deps.store.close();
    const reopened = await openStore({ path, leaseRenewMs: 0 });
    bot = await startTestBot({ store: reopened });
    expect(await reopened.bookings.get('WB000001')).toMatchObject({
      trackingRefNo: 'SBX00000001',
      version: 1,
    });
    const replay = await bot.submit(review);
    expect(textOf(replay.body.view)).toContain('Booked `WB000001`');
    await bot.stop();
    await reopened.close();
    bot = await startTestBot();
  });

  /**
   * Sends with the courier answering after `latencyMs`, and shuts down `graceMs` into the call;
   * dispatchers of calls still running are told through the bot's Slack client.
   */
  async function shutDownMidCall(send: () => Promise<unknown>, latencyMs: number, graceMs: number) {
    bot.sandbox.setFaults({ latencyMs });
    await send();
    const told: Attempt[] = [];
    // How many calls were still running when the open connections were cut.
    let runningAtDrop: number | undefined;
    await shutdown({
      stopReceiving: async () => {},
      dropConnections: () => {
        runningAtDrop = bot.deps.inFlight.size;
      },
      inFlight: bot.deps.inFlight,
      store: { ...bot.deps.store, close: async () => {} },
      closeUpstream: async () => {},
      logger: bot.deps.logger,
      graceMs,
      tellAbandoned: async (attempts) => {
        told.push(...attempts);
        await tellAbandoned(bot.app.client, attempts, { logger: bot.deps.logger, env: bot.deps.waybill.env });
      },
    });
    return { told, runningAtDrop };
  }

  it('on shutdown lets a call already sent finish', async () => {
    bot = await startTestBot();
    const review = await fillToReview(bot);
    const { told, runningAtDrop } = await shutDownMidCall(() => bot.submit(review), 300, 5000);
    expect(told).toEqual([]);
    expect(runningAtDrop).toBe(0);
    expect(await bot.deps.store.bookings.get('WB000001')).toBeDefined();
    bot.sandbox.setFaults(undefined);
    expect(textOf((await bot.submit(review)).body.view)).toContain('Booked `WB000001`');
  });

  it.each([
    [
      'a booking',
      'book',
      async () => {
        const review = await fillToReview(bot);
        return () => bot.submit(review);
      },
      '`WB000001` was being booked',
    ],
    [
      'an update',
      'update',
      async () => {
        await bookThroughModal(bot);
        await bot.command('/waybill', 'update WB000001');
        const form = await bot.openedView();
        return () => bot.submit(form, { codAmount: '1800' });
      },
      'update of `WB000001`',
    ],
  ])(
    'on shutdown records %s still running after the grace period as outcome unknown, with its waybill, and tells its dispatcher in the modal',
    async (_name, operation, prepare, words) => {
      bot = await startTestBot();
      const { told, runningAtDrop } = await shutDownMidCall(await prepare(), 1000, 50);
      expect(runningAtDrop).toBe(1);
      const about = { operation, trackingNumber: 'WB000001', userId: 'UDISPATCH' };
      expect(told).toMatchObject([{ state: 'unknown', ...about }]);
      expect((await bot.deps.store.audit.list({ operation }))[0]).toMatchObject({
        outcome: 'unknown',
        ...about,
      });
      // The modal it was sent from is still open: it says so there, not in a message.
      const viewId = told[0]?.viewId ?? '';
      const shown = await bot.updatedView(viewId, (view) => textOf(view.blocks).includes('outcome unknown'));
      expect(textOf(shown.blocks)).toContain(words);
      expect(bot.fake.callsTo('chat.postEphemeral')).toEqual([]);
      await bot.idle();
    },
  );
});
