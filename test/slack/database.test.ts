/**
 * Replicas sharing one database (a re-delivery to another replica, a gone replica's call told in its modal, a
 * typed tracking number reserved once); PostgreSQL lost and back through a proxy: each kind of request told
 * plainly (within Slack's 3 s when the database takes connections and never answers), a booking recorded once
 * it is back, a remittance file while it is away, `/healthz` 503.
 */
// The bot and its database: several replicas on one, and the database lost and back while the bot runs.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import { eventCallbackBody, slashCommandBody } from '../../fakes/slack-requests.js';
import { storeUnavailableText } from '../../src/slack/kit/blocks.js';
import { type Store, StoreUnavailableError } from '../../src/store/index.js';
import { describeEachBackend } from '../store/backends.js';
import { proxyDatabase, type TcpProxy } from '../store/tcp-proxy.js';
import { fillStepsToReview, fillToReview, next, shipment } from '../support/booking-flow.js';
import { secrets, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

/** A clock the test moves by hand. */
function fakeClock() {
  let current = Date.now();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

/** Polls `condition` until it holds, at most `withinMs`. */
async function until(condition: () => boolean | Promise<boolean>, what: string, withinMs = 5000) {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const bots: TestBot[] = [];
afterEach(async () => {
  await Promise.all(bots.splice(0).map((bot) => bot.stop()));
});

async function replica(store: Store): Promise<TestBot> {
  const bot = await startTestBot({ store });
  bots.push(bot);
  return bot;
}

describeEachBackend(import.meta.filename, 'several replicas on one database', (backend) => {
  it('a Slack re-delivery landing on another replica is acknowledged and dropped', async () => {
    const [a, b] = [
      await replica(await backend.open({ replicaId: 'a' })),
      await replica(await backend.open({ replicaId: 'b' })),
    ];
    const body = slashCommandBody({
      command: '/quote',
      fake: a.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
    });
    expect((await postToApp(a.url, secrets.signingSecret, body)).status).toBe(200);
    const retried = await postToApp(b.url, secrets.signingSecret, body, {
      headers: { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' },
    });
    expect(retried.status).toBe(200);
    await Promise.all([a.idle(), b.idle()]);
    expect(a.fake.callsTo('views.open')).toHaveLength(1);
    expect(b.fake.callsTo('views.open')).toEqual([]);
    expect(b.logs.some((line) => line.includes('Slack retry of a request already received'))).toBe(true);
  });

  it('an Events API re-delivery (app_home_opened) landing on another replica is acknowledged and dropped', async () => {
    const [a, b] = [
      await replica(await backend.open({ replicaId: 'a' })),
      await replica(await backend.open({ replicaId: 'b' })),
    ];
    const body = eventCallbackBody({
      type: 'app_home_opened',
      user: 'UDISPATCH',
      channel: 'DHOME',
      tab: 'home',
    });
    const json = { headers: { 'Content-Type': 'application/json' } };
    expect((await postToApp(a.url, secrets.signingSecret, body, json)).status).toBe(200);
    await a.fake.waitFor('views.publish', (c) => c.body.user_id === 'UDISPATCH');
    const retried = await postToApp(b.url, secrets.signingSecret, body, {
      headers: { ...json.headers, 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' },
    });
    expect(retried.status).toBe(200);
    await Promise.all([a.idle(), b.idle()]);
    expect(b.fake.callsTo('views.publish')).toEqual([]);
    expect(b.logs.some((line) => line.includes('Slack retry of a request already received'))).toBe(true);
  });

  it("a gone replica's call is reported in the modal it was made from once its lease expires; a live one's is left alone", async () => {
    const clock = fakeClock();
    const bot = await replica(await backend.open({ replicaId: 'survivor', now: clock.now }));
    const review = await fillToReview(bot);
    // The confirmation landed on a replica that died mid-call; another replica is mid-call now.
    const gone = await backend.open({ replicaId: 'gone', now: clock.now, leaseTtlMs: 30_000 });
    const about = { trackingNumber: 'WB000001', userId: 'UDISPATCH', channelId: 'CDISPATCH' };
    await gone.attempts.begin('book:gone', 'book', { ...about, viewId: review.id });
    const busy = await backend.open({ replicaId: 'busy', now: clock.now, leaseTtlMs: 30_000 });
    await busy.attempts.begin('book:busy', 'book', { ...about, trackingNumber: 'WB000002', viewId: 'VBUSY' });

    const toldUnknown = () =>
      bot.fake.callsTo('views.update').filter((c) => textOf(c.body.view).includes('outcome unknown'));
    await bot.lookAfterStore();
    expect(toldUnknown()).toEqual([]);
    expect((await bot.deps.store.attempts.get('book:gone'))?.state).toBe('in-flight');

    clock.advance(31_000);
    await busy.replica.renew();
    await bot.lookAfterStore();
    const shown = await bot.updatedView(review.id, (view) => textOf(view.blocks).includes('outcome unknown'));
    expect(textOf(shown.blocks)).toContain('`WB000001` was being booked');
    expect((await bot.deps.store.attempts.get('book:gone'))?.state).toBe('unknown');
    expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({
      outcome: 'unknown',
      trackingNumber: 'WB000001',
      userId: 'UDISPATCH',
    });
    expect((await bot.deps.store.attempts.get('book:busy'))?.state).toBe('in-flight');
    expect(toldUnknown().map((c) => c.body.view_id)).toEqual([review.id]);
  });

  it('two drafts with one typed tracking number: the first confirmed is sent, the second is told, naming the field', async () => {
    const [a, b] = [
      await replica(await backend.open({ replicaId: 'a' })),
      await replica(await backend.open({ replicaId: 'b' })),
    ];
    const reviews: View[] = [];
    for (const bot of [a, b]) {
      await bot.command('/book', 'tracking=TYPED-0001');
      reviews.push(await fillStepsToReview(bot, await bot.openedView()));
    }
    const [first, second] = reviews as [View, View];
    await a.submit(first);
    await a.idle();
    expect((await a.deps.store.bookings.get('TYPED-0001'))?.bookedBy).toBe('UDISPATCH');

    const refused = b.ackedView(await b.submit(second), second.id);
    expect(refused.callback_id).toBe(ids.bookingStep);
    expect(textOf(refused.blocks)).toContain(
      'Tracking number: `TYPED-0001` is already used by another booking',
    );
    await b.idle();
    expect(b.sandbox.received).toEqual([]);
    expect(a.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
  });
});

describeEachBackend(
  import.meta.filename,
  'the database lost while the bot runs',
  (backend) => {
    let proxy: TcpProxy | undefined;
    afterEach(async () => {
      await proxy?.close();
      proxy = undefined;
    });

    const CONNECT_TIMEOUT_MS = 1000;

    /** A bot whose database is reached through a proxy the test can cut. */
    async function botBehindProxy(): Promise<TestBot> {
      const proxied = await proxyDatabase((backend.target() as { url: string }).url);
      proxy = proxied.proxy;
      return replica(
        await backend.open({ url: proxied.url.toString(), connectTimeoutMs: CONNECT_TIMEOUT_MS }),
      );
    }

    const healthz = async (bot: TestBot) => (await fetch(new URL('/healthz', bot.url))).status;

    it('each request says so plainly, where the dispatcher is looking; once it is back, the same requests work', async () => {
      const bot = await botBehindProxy();
      await bot.command('/book');
      const step = await bot.openedView();
      const review = await fillToReview(bot);
      expect(await healthz(bot)).toBe(200);

      await proxy?.cut();
      expect(await healthz(bot)).toBe(503);
      // A command: privately, in its answer.
      const said = await bot.command('/quote');
      expect(said.body).toEqual({ response_type: 'ephemeral', text: `:warning: ${storeUnavailableText}` });
      // A form submitted: inline, on the form, which stays as it was.
      const submitted = await bot.submit(step, shipment);
      expect(submitted.body).toEqual({
        response_action: 'errors',
        errors: { [step.blocks.find((b) => b.type === 'input').block_id]: storeUnavailableText },
      });
      // A button in a modal: a small modal on top of it.
      await bot.clickInView(review, ids.bookingBack);
      const pushed = await bot.fake.waitFor('views.push');
      expect(textOf(pushed.body.view)).toContain(storeUnavailableText.slice(0, 40));
      // A button on a message: privately in the conversation.
      await bot.clickInMessage(ids.waybillUpdate, 'WB000001');
      const told = await bot.fake.waitFor('chat.postEphemeral');
      expect(told.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
      expect(String(told.body.text)).toContain(storeUnavailableText);
      await bot.idle();
      expect(bot.sandbox.received).toEqual([]);

      await proxy?.restore();
      expect(await healthz(bot)).toBe(200);
      const second = await next(bot, step, shipment);
      expect(second.title).toMatchObject({ text: expect.stringContaining('2/5') });
      await bot.command('/quote');
      expect((await bot.openedView()).callback_id).toBe(ids.quoteForm);
      expect(bot.logs.some((line) => line.includes('the database did not answer'))).toBe(true);
    });

    it("a database that takes connections and never answers: the plain message within Slack's 3 seconds", async () => {
      const bot = await botBehindProxy();
      await bot.command('/quote');
      await bot.openedView();

      // Cut first, until a call has to open a connection (refused at once): none is left to reuse.
      await proxy?.cut();
      await until(
        async () =>
          /ECONNREFUSED/.test(String(await bot.deps.store.ping().catch((err: Error) => err.message))),
        'the pool has no connection left',
      );
      await proxy?.silence();
      const started = Date.now();
      const said = await bot.command('/quote');
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS);
      expect(elapsed).toBeLessThan(3000);
      expect(said.body).toEqual({ response_type: 'ephemeral', text: `:warning: ${storeUnavailableText}` });

      await proxy?.restore();
      await bot.command('/quote');
      expect((await bot.openedView()).callback_id).toBe(ids.quoteForm);
    });

    it('a booking the courier made while the database was away is recorded once it is back, with its card', async () => {
      const bot = await botBehindProxy();
      const review = await fillToReview(bot);
      bot.sandbox.setFaults({ latencyMs: 300 });
      await bot.submit(review);
      await until(
        () => bot.sandbox.received.some((r) => r.operation === 'book'),
        'the courier has the booking',
      );
      await proxy?.cut();
      const waiting = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('not recorded yet'));
      expect(textOf(waiting.blocks)).toContain('Booked `WB000001`');
      await expect(bot.deps.store.ping()).rejects.toThrow(StoreUnavailableError);
      expect(bot.fake.callsTo('chat.postMessage')).toEqual([]);

      await proxy?.restore();
      await bot.idle();
      const stored = await bot.deps.store.bookings.get('WB000001');
      expect(stored).toMatchObject({ trackingRefNo: 'SBX00000001', cardChannelId: 'CDISPATCH' });
      expect((await bot.deps.store.audit.list({ operation: 'book' }))[0]).toMatchObject({ outcome: 'ok' });
      const card = await bot.fake.waitFor('chat.postMessage');
      expect(textOf(card.body.blocks)).toContain('WB000001');
      const done = await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Posted in'));
      expect(textOf(done.blocks)).toContain('Booked `WB000001`');
      expect(bot.sandbox.received.filter((r) => r.operation === 'book')).toHaveLength(1);
    });

    it('a remittance file while the database is away: the modal says so, nothing recorded, nothing posted', async () => {
      const bot = await botBehindProxy();
      const file = bot.fake.addFile({ name: 'remit.csv', content: 'tracking_number,amount\r\nWB1,100\r\n' });
      await bot.command('/waybill', 'remittance');
      const modal = await bot.openedView();
      // The database goes while Slack describes the file: after the submission was answered.
      bot.fake.respond(
        'files.info',
        async () => {
          await proxy?.cut();
          return {
            ok: true,
            file: {
              id: file.id,
              name: file.name,
              size: file.size,
              user: file.user,
              url_private_download: `${bot.fake.origin}/files-pri/T0001-${file.id}/download/${file.name}`,
            },
          };
        },
        { times: 1 },
      );
      await bot.submit(modal, { file: file.id });
      await bot.idle();
      const told = await bot.updatedView(modal.id, (view) => textOf(view).includes('not answering'));
      expect(textOf(told.blocks)).toContain('Nothing was recorded');
      expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(0);
      await proxy?.restore();
      const again = await bot.deps.store.remittances.ofBookings(['WB1']);
      expect(again).toEqual([]);
    });
  },
  ['postgres'],
);
