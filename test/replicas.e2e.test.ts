/**
 * Two real bot processes on one PostgreSQL database, requests alternating between them: a `/book` across
 * both, a confirmation delivered to both at once, a replica killed mid-form and mid-call (the other reports
 * the call once its lease expires), an update's concurrency, a re-delivery to the other replica, a Home tab
 * kept by one replica redrawn after a booking on the other.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ids } from '../fakes/ids.js';
import type { FakeCall } from '../fakes/slack-fake.js';
import { newTriggerId, slashCommandBody } from '../fakes/slack-requests.js';
import { withClient } from '../fakes/throwaway-databases.js';
import { describePostgres } from './store/backends.js';
import { fillToReview } from './support/booking-flow.js';
import { type Replicas, replicaSecrets, startReplicas, until } from './support/replicas.js';
import { slackDriver, type View } from './support/slack-driver.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks ?? null);

/** Short leases, so a killed replica is known to be gone within seconds. */
const LEASE_TTL_MS = 2000;
const LEASE_RENEW_MS = 400;

let replicas: Replicas;

const trackingNumberOf = (review: View) => {
  const found = /WB\d{6}/.exec(textOf(review.blocks))?.[0];
  if (!found) throw new Error('no tracking number on the review');
  return found;
};
const courierCalls = (operation: string, trackingNumber: string) =>
  replicas.sandbox.received.filter(
    (r) =>
      r.operation === operation && (r.body as { trackingNumber?: string }).trackingNumber === trackingNumber,
  );
const isCardOf = (trackingNumber: string) => (call: FakeCall) =>
  textOf(call.body.blocks).includes(`Booked \`${trackingNumber}\``);
const cardsOf = (trackingNumber: string) =>
  replicas.fake.callsTo('chat.postMessage').filter(isCardOf(trackingNumber));

/**
 * Waits until `count` live leases have been renewed twice since `since`: every replica has been
 * round its background work (renewal, recovery of abandoned calls) at least once since.
 */
async function renewedTwiceSince(since: number, count: number): Promise<void> {
  await until(
    `${count} leases renewed twice`,
    async () => {
      const [row] = await replicas.query<{ n: string }>(
        'SELECT count(*) AS n FROM replica_leases WHERE renewed_at >= $1',
        [since + 2 * LEASE_RENEW_MS],
      );
      return Number(row?.n) >= count ? true : undefined;
    },
    4 * LEASE_RENEW_MS + 3000,
  );
}

/** Waits for a booking's card and for its outcome in the modal. */
async function confirmed(review: View, trackingNumber: string): Promise<void> {
  await replicas.fake.waitFor('chat.postMessage', isCardOf(trackingNumber));
  await replicas.driver.updatedView(review.id, (v) => textOf(v.title).includes('Booked'));
}

/** Confirmed, and sent to the courier once, with one card. */
async function bookedOnce(review: View, trackingNumber: string): Promise<void> {
  await confirmed(review, trackingNumber);
  expect(courierCalls('book', trackingNumber)).toHaveLength(1);
  expect(cardsOf(trackingNumber)).toHaveLength(1);
}

describePostgres(import.meta.filename, 'two replicas on one PostgreSQL database', (adminUrl) => {
  beforeAll(async () => {
    replicas = await startReplicas(adminUrl, 2, {
      REPLICA_LEASE_TTL_MS: String(LEASE_TTL_MS),
      REPLICA_LEASE_RENEW_MS: String(LEASE_RENEW_MS),
    });
  }, 30_000);

  beforeEach(async () => {
    // After a test that killed a replica, two again.
    while (replicas.live().length < 2) await replicas.add();
  }, 30_000);

  afterAll(async () => {
    if (!replicas) return;
    await replicas.close();
    const written = [
      ...replicas.all.flatMap((r) => r.lines),
      ...replicas.fake.calls.map((c) => c.rawBody),
      ...replicas.fake.responseUrlPosts.map((p) => p.rawBody),
    ];
    const leaks = written.filter((text) =>
      Object.values(replicaSecrets).some((secret) => text.includes(secret)),
    );
    expect(leaks, 'a secret reached a log line or Slack').toEqual([]);
  }, 30_000);

  it('books with every step, button and submission landing on alternating replicas: one booking, one card', async () => {
    const served = replicas.live().map((r) => r.served);
    const review = await fillToReview(replicas.driver);
    const trackingNumber = trackingNumberOf(review);
    const ack = await replicas.driver.submit(review);
    expect(textOf(ack.body.view)).toContain('Booking');
    await bookedOnce(review, trackingNumber);

    // Ten requests in turn: each replica took half of them.
    expect(replicas.live().map((r, i) => r.served - (served[i] ?? 0))).toEqual([5, 5]);
    expect(
      await replicas.query('SELECT version FROM bookings WHERE tracking_number = $1', [trackingNumber]),
    ).toEqual([{ version: 1 }]);
  });

  it('sends a confirmation delivered to both replicas at once to the courier once, with one card', async () => {
    const review = await fillToReview(replicas.driver);
    const trackingNumber = trackingNumberOf(review);
    const [first, second] = replicas.live();
    if (!first || !second) throw new Error('two replicas expected');
    const acks = await Promise.all([replicas.on(first).submit(review), replicas.on(second).submit(review)]);
    for (const ack of acks) expect(ack.body.response_action).toBe('update');
    await bookedOnce(review, trackingNumber);
  });

  it('sends a confirmation whose answer came too late for Slack (the database slow), once, and shows its outcome', async () => {
    const review = await fillToReview(replicas.driver);
    const trackingNumber = trackingNumberOf(review);
    // Recording the courier call waits on the attempts table until Bolt has given up on the answer (404 after 3 s).
    const answer = await withClient(replicas.url, async (client) => {
      await client.query('BEGIN');
      await client.query('LOCK TABLE attempts IN EXCLUSIVE MODE');
      const late = await replicas.driver.submit(review);
      await client.query('COMMIT');
      return late;
    });
    expect(answer.status).toBe(404);
    await bookedOnce(review, trackingNumber);
  });

  it("holds an update's optimistic concurrency across replicas: the second editor is told, then shown the new values", async () => {
    const booking = await fillToReview(replicas.driver);
    const trackingNumber = trackingNumberOf(booking);
    await replicas.driver.submit(booking);
    await confirmed(booking, trackingNumber);
    const [first, second] = replicas.live();
    if (!first || !second) throw new Error('two replicas expected');

    await replicas.on(first).clickInMessage(ids.waybillUpdate, trackingNumber, { user: 'UFIRST' });
    const firstForm = await replicas.driver.openedView();
    await replicas.on(second).clickInMessage(ids.waybillUpdate, trackingNumber, { user: 'USECOND' });
    const secondForm = await replicas.driver.openedView();

    let release = () => {};
    replicas.sandbox.injectNext({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
    try {
      await replicas.on(first).submit(firstForm, { 'consignee.phone': '0918 111 1111' }, 'UFIRST');
      await until('the first update reached the courier', () =>
        courierCalls('update', trackingNumber).length > 0 ? true : undefined,
      );
      const ack = await replicas.on(second).submit(secondForm, { codAmount: '999' }, 'USECOND');
      const held = textOf(ack.body.view);
      expect(held).toContain(`<@UFIRST> is sending an update of \`${trackingNumber}\``);
      expect(held).toContain('Yours was not sent');
    } finally {
      release();
    }
    const refreshed = await replicas.driver.updatedView(
      secondForm.id,
      (v) => v.callback_id === ids.updateForm && textOf(v.blocks).includes('changed this waybill'),
    );
    expect(textOf(refreshed.blocks)).toContain('<@UFIRST> changed this waybill');
    expect(courierCalls('update', trackingNumber)).toHaveLength(1);
    expect(
      await replicas.query('SELECT version, updated_by FROM bookings WHERE tracking_number = $1', [
        trackingNumber,
      ]),
    ).toEqual([{ version: 2, updated_by: 'UFIRST' }]);
  });

  it("drops Slack's re-delivery of a command on the replica that did not get the first delivery", async () => {
    const [first, second] = replicas.live();
    if (!first || !second) throw new Error('two replicas expected');
    const body = slashCommandBody({
      command: '/quote',
      fake: replicas.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
      trigger_id: newTriggerId(),
    });
    const triggerId = new URLSearchParams(body).get('trigger_id');
    const opened = (call: FakeCall) => call.body.trigger_id === triggerId;
    expect((await replicas.post(body, {}, first)).status).toBe(200);
    // Handed out here, so no later test takes it for its own form.
    expect((await replicas.driver.openedView()).callback_id).toBe(ids.quoteForm);
    const retry = await replicas.post(
      body,
      { headers: { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' } },
      second,
    );
    expect(retry.status).toBe(200);
    await second.lineMatching((line) => line.includes('Slack retry of a request already received'), 5000);
    expect(replicas.fake.callsTo('views.open').filter(opened)).toHaveLength(1);
  });

  it('tells the dispatcher once that a booking is of unknown outcome when its replica dies mid-call, after its lease expires', async () => {
    const [doomed] = replicas.live();
    if (!doomed) throw new Error('a replica expected');
    const review = await fillToReview(replicas.driver);
    const trackingNumber = trackingNumberOf(review);
    let release = () => {};
    replicas.sandbox.injectNext({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
    try {
      await replicas.on(doomed).submit(review);
      await until('the booking reached the courier', () =>
        courierCalls('book', trackingNumber).length > 0 ? true : undefined,
      );
      const attempt = () =>
        replicas.query<{ state: string }>('SELECT state FROM attempts WHERE tracking_number = $1', [
          trackingNumber,
        ]);
      // A replica starting while the call is in flight leaves it alone, at start and after.
      await replicas.add();
      await renewedTwiceSince(Date.now(), 3);
      expect(await attempt()).toEqual([{ state: 'in-flight' }]);

      await replicas.kill(doomed);
      const killedAt = performance.now();
      // Told in the modal, still open on the review, or else privately in the conversation.
      const tellings = () =>
        replicas.fake.calls.filter(
          (call) =>
            ((call.method === 'views.update' && call.body.view_id === review.id) ||
              (call.method === 'chat.postEphemeral' && textOf(call.body).includes(trackingNumber))) &&
            /outcome unknown/i.test(textOf(call.body)),
        );
      const told = await until('the dispatcher was told', () => tellings()[0], LEASE_TTL_MS + 5000);
      // The modal was still open on "Booking…": it says so there.
      expect(told.method).toBe('views.update');
      // Its lease was renewed at most LEASE_RENEW_MS before it died: nobody may give up on it sooner.
      expect(told.receivedAt - killedAt).toBeGreaterThanOrEqual(LEASE_TTL_MS - LEASE_RENEW_MS - 100);
      expect(await attempt()).toEqual([{ state: 'unknown' }]);
      expect(
        await replicas.query('SELECT outcome FROM audit WHERE tracking_number = $1 AND operation = $2', [
          trackingNumber,
          'book',
        ]),
      ).toEqual([{ outcome: 'unknown' }]);
      // Once: the survivors have since been round their renewal (and their look for abandoned calls) twice.
      await renewedTwiceSince(Date.now(), 2);
      expect(tellings()).toHaveLength(1);
      expect(cardsOf(trackingNumber)).toHaveLength(0);
    } finally {
      release();
    }
  });

  it('finishes a form on one replica after the other, which had part of it, was killed', async () => {
    const [doomed] = replicas.live();
    if (!doomed) throw new Error('a replica expected');
    let sent = 0;
    // The fourth request and those after it find the first replica gone: the balancer sends them to the other.
    const driver = slackDriver(replicas.fake, async (body, options) => {
      sent += 1;
      if (sent === 4) await replicas.kill(doomed);
      return replicas.post(body, options);
    });
    const servedBefore = doomed.served;
    const review = await fillToReview(driver);
    expect(doomed.served - servedBefore).toBeGreaterThan(0);
    const trackingNumber = trackingNumberOf(review);
    await driver.submit(review);
    await bookedOnce(review, trackingNumber);
  });

  it('redraws a Home tab kept current by one replica after a booking handled by the other', async () => {
    const [keeper, booker] = replicas.live();
    if (!keeper || !booker) throw new Error('two replicas expected');
    const published = () =>
      replicas.fake.callsTo('views.publish').filter((c) => c.body.user_id === 'UDISPATCH');
    // Opened on the keeper only: the booker never heard of this tab.
    await replicas
      .on(keeper)
      .event({ type: 'app_home_opened', user: 'UDISPATCH', channel: 'DHOME', tab: 'home' });
    await until('the Home tab drawn', async () => (published().length === 1 ? true : undefined), 10_000);

    const booking = replicas.on(booker);
    const review = await fillToReview(booking);
    const trackingNumber = trackingNumberOf(review);
    await booking.submit(review);
    await replicas.fake.waitFor('chat.postMessage', isCardOf(trackingNumber));
    const redrawn = await until(
      'the Home tab redrawn with the booking',
      async () => published().find((c) => textOf(c.body.view).includes(trackingNumber)),
      10_000,
    );
    expect(redrawn.body.user_id).toBe('UDISPATCH');
  });
});
