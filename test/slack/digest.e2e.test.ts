/**
 * The daily digest on both backends with a clock the test sets: two replicas post it exactly once at
 * DIGEST_TIME (its CSV file parsed), late with a note when nobody was up, never on the next day; SIGTERM
 * between a replica's claim of the day and its post (the stop waits for the post, posted once); `/waybill
 * digest` with an unknown booking resolved both ways; a busy day in 50 blocks; DIGEST_* settings checked.
 */
// The daily digest: once a day across two replicas on one database, with a clock the test moves;
// late when nobody was up, never the next day; on demand with /waybill digest; a busy day in 50 blocks.

import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { loadBotConfig } from '../../src/config.js';
import { shutdown } from '../../src/lifecycle.js';
import { digestMessage } from '../../src/slack/digest/blocks.js';
import type { DigestData } from '../../src/slack/digest/data.js';
import { digestTick } from '../../src/slack/digest/index.js';
import type { Attempt, BookingRecord, StatusEntry } from '../../src/store/index.js';
import { ageCod } from '../../src/waybill/cod-ageing.js';
import { formatCents, formatMoney, parseCents } from '../../src/waybill/fields.js';
import { describeEachBackend } from '../store/backends.js';
import { bookThroughModal, fillStepsToReview, fillToReview } from '../support/booking-flow.js';
import { manilaClock, startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const bots: TestBot[] = [];
afterEach(async () => {
  await Promise.all(bots.splice(0).map((bot) => bot.stop()));
});

const digestEnv = { DIGEST_CHANNEL_ID: 'CDIGEST', DIGEST_TIME: '18:00' };

const digestPosts = (bot: TestBot) =>
  bot.fake.callsTo('chat.postMessage').filter((c) => c.body.channel === 'CDIGEST');

describeEachBackend(import.meta.filename, 'the daily digest', (backend) => {
  it('two replicas: posted exactly once at DIGEST_TIME, its detail as a CSV file in the thread; late with a note when nobody was up; never the next day', async () => {
    const clock = manilaClock();
    const stores = [
      await backend.open({ replicaId: 'a', now: clock.now }),
      await backend.open({ replicaId: 'b', now: clock.now }),
    ];
    const [a, b] = await Promise.all(
      stores.map((store) => startTestBot({ store, now: clock.now, env: digestEnv })),
    );
    if (!a || !b) throw new Error('two replicas');
    bots.push(a, b);
    await bookThroughModal(a);
    await a.command('/waybill', 'status WB000001 picked-up');
    await a.idle();
    const tick = () => Promise.all([digestTick(a.deps, a.app.client), digestTick(b.deps, b.app.client)]);

    clock.set(0, '17:59');
    expect(await tick()).toEqual([undefined, undefined]);
    clock.set(0, '18:00');
    const posted = await tick();
    expect(posted.filter(Boolean)).toEqual(['2026-11-23']);
    // And again, as each replica keeps looking: nothing more.
    expect(await tick()).toEqual([undefined, undefined]);
    const posts = [...digestPosts(a), ...digestPosts(b)];
    expect(posts).toHaveLength(1);
    const digest = textOf(posts[0]?.body.blocks);
    expect(digest).toContain('Daily digest · 2026-11-23');
    expect(digest).toContain('*1 booking*, 3 parcels, COD total PHP 1,500.00');
    // Picked up, not delivered: in the pipeline, not owed.
    expect(digest).toContain('*COD owed* (delivered or paid in part, not yet remitted): none');
    expect(digest).toContain('*In the pipeline* (not yet delivered): 1 booking, PHP 1,500.00');
    expect(digest).not.toContain('Posted late');
    expect(digest).toContain('Picked up: 1');
    expect(((posts[0]?.body.blocks ?? []) as unknown[]).length).toBeLessThanOrEqual(50);
    const poster = digestPosts(a).length === 1 ? a : b;
    await poster.idle();
    const [file] = poster.fake.uploadsCompleted();
    expect(file?.filename).toBe('digest-2026-11-23.csv');
    const rows = parse(file?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.kind, r.tracking_number])).toEqual([
      ['booking', 'WB000001'],
      ['status', 'WB000001'],
    ]);
    // Booked in CDISPATCH, posted in CDIGEST: its number and status, not its receiver or COD (the access rule).
    expect([rows[0]?.receiver, rows[0]?.cod_amount]).toEqual(['', '']);

    // Its figures are the export's for the same day: bookings, parcels, COD total, refusals.
    await poster.command('/waybill', 'export 2026-11-23');
    await poster.idle();
    const exported = parse(poster.fake.uploadsCompleted().at(-1)?.text ?? '', {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    const booked = exported.filter((r) => r.operation === 'book' && r.outcome === 'ok');
    const refused = exported.filter((r) => r.operation === 'book' && r.outcome === 'failed');
    const cod = booked.reduce((sum, r) => sum + (parseCents(r.cod_amount ?? '') ?? 0n), 0n);
    const parcels = booked.reduce((sum, r) => sum + Number(r.quantity), 0);
    expect(booked.length).toBeGreaterThan(0);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    expect(digest).toContain(
      `*${plural(booked.length, 'booking')}*, ${plural(parcels, 'parcel')}, COD total ${formatMoney(formatCents(cod), 'PHP')}`,
    );
    expect(digest).toContain(`Refused by the courier (${refused.length})`);

    // The next day nobody is up at 18:00; a replica started the day after, before 18:00, posts
    // nothing for the day before, then today's at 18:00.
    clock.set(2, '09:00');
    expect(await tick()).toEqual([undefined, undefined]);
    // The day after that, up only at 20:30: posted late, saying so.
    clock.set(3, '20:30');
    expect((await tick()).filter(Boolean)).toEqual(['2026-11-26']);
    const late = [...digestPosts(a), ...digestPosts(b)]
      .sort((x, y) => x.receivedAt - y.receivedAt)
      .map((c) => textOf(c.body.blocks));
    expect(late).toHaveLength(2);
    expect(late[1]).toContain('Daily digest · 2026-11-26');
    expect(late[1]).toContain('Posted late, at 20:30: the bot was not running at 18:00.');
    expect(late.join()).not.toContain('2026-11-25');
  });

  it('/waybill digest shows today privately; an unknown booking in it has Resolve, and once resolved both ways the digest says so', async () => {
    const bot = await startTestBot({ backend, timeoutMs: 500 });
    bots.push(bot);
    // One booking of unknown outcome, which the courier turns out to have.
    const first = await fillToReview(bot);
    bot.sandbox.injectNext({ dropAfterProcessing: true });
    await bot.submit(first);
    await bot.idle();
    const before = await bot.command('/waybill', 'digest');
    expect(before.body.response_type).toBe('ephemeral');
    const shown = textOf(before.body.blocks);
    expect(shown).toContain('Outcome unknown (1)');
    expect(shown).toContain(ids.resolveOpen);
    const [unknown] = await bot.deps.store.attempts.listUnknown('book');
    // Resolve from the digest (a message): the form opens in a new modal.
    await bot.clickInMessage(ids.resolveOpen, unknown?.key ?? '');
    const form = await bot.openedView();
    expect(form.callback_id).toBe(ids.resolveForm);
    await bot.submit(form, { verdict: 'booked' });
    await bot.idle();
    const after = textOf((await bot.command('/waybill', 'digest')).body.blocks);
    expect(after).toContain('Outcome unknown (0)');
    expect(after).toContain('*1 booking*');

    // A second booking of unknown outcome, which the courier does not have.
    bot.fake.reset();
    await bot.command('/book', 'tracking=WB-NOPE-1');
    const second = await fillStepsToReview(bot, await bot.openedView());
    bot.sandbox.injectNext({ drop: true });
    await bot.submit(second);
    await bot.idle();
    const [other] = await bot.deps.store.attempts.listUnknown('book');
    expect(textOf((await bot.command('/waybill', 'digest')).body.blocks)).toContain('Outcome unknown (1)');
    await bot.clickInMessage(ids.resolveOpen, other?.key ?? '');
    await bot.submit(await bot.openedView(), { verdict: 'notBooked' });
    const last = textOf((await bot.command('/waybill', 'digest')).body.blocks);
    expect(last).toContain('Outcome unknown (0)');
    expect(last).toContain('*1 booking*');
  });

  it('SIGTERM after a replica claimed the day, before it posted: the stop waits for the post; posted once, the other replica posts nothing', async () => {
    const clock = manilaClock();
    const [storeA, storeB] = [
      await backend.open({ replicaId: 'a', now: clock.now }),
      await backend.open({ replicaId: 'b', now: clock.now }),
    ];
    if (!storeA || !storeB) throw new Error('two stores');
    // Replica a pauses between its claim of the day and its post, until the signal has come.
    let goOn!: () => void;
    const held = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    let claimed!: () => void;
    const hasClaimed = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const pausing = {
      ...storeA,
      digests: {
        ...storeA.digests,
        claim: async (day: string) => {
          const first = await storeA.digests.claim(day);
          claimed();
          await held;
          return first;
        },
      },
    };
    const a = await startTestBot({ store: pausing, now: clock.now, env: digestEnv });
    const b = await startTestBot({ store: storeB, now: clock.now, env: digestEnv });
    bots.push(a, b);
    await bookThroughModal(a);
    clock.set(0, '18:00');
    const looked = a.deps.jobs.turn('daily digest');
    await hasClaimed;
    let postedWhenClosed: boolean | undefined;
    await shutdown({
      stopReceiving: async () => a.deps.jobs.stop(),
      dropConnections: () => undefined,
      inFlight: {
        ...a.deps.inFlight,
        // The pause ends once the stop waits for work in flight (or at the latest when it closes the store).
        idle: () => {
          if (a.deps.inFlight.size > 0) goOn();
          return a.deps.inFlight.idle();
        },
      } as typeof a.deps.inFlight,
      store: {
        ...storeA,
        // What the process does last before it exits: by then the digest must be out.
        close: async () => {
          postedWhenClosed = digestPosts(a).some((c) => c.response?.status === 200);
          goOn();
        },
      },
      closeUpstream: async () => undefined,
      logger: a.deps.logger,
      graceMs: 10_000,
    });
    await looked;
    expect(postedWhenClosed).toBe(true);
    expect(await digestTick(b.deps, b.app.client)).toBeUndefined();
    expect([...digestPosts(a), ...digestPosts(b)]).toHaveLength(1);
    expect(textOf(digestPosts(a)[0]?.body.blocks)).toContain('Daily digest · 2026-11-23');
  });
});

describe('the digest on a busy day', () => {
  it('500 bookings from 30 senders and 40 unknown outcomes: at most 50 blocks, every section text within Slack’s limit, money exact', () => {
    const booking = (i: number): BookingRecord => ({
      trackingNumber: `WB${String(i).padStart(6, '0')}`,
      trackingRefNo: `R${i}`,
      record: {
        shipper: { name: `Sender <${i % 30}> & Co` },
        consignee: { name: 'R' },
        quantity: 2,
        paymentMethod: 'COD',
        codAmount: '0.10',
      },
      version: 1,
      channelId: 'C1',
      bookedBy: 'U1',
      bookedAt: new Date(0),
      ownerId: 'U1',
    });
    const unknown = (i: number): Attempt => ({
      key: `k${i}`,
      operation: 'book',
      state: 'unknown',
      trackingNumber: `WBU${i}`,
      userId: 'U2',
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });
    const statuses: StatusEntry[] = Array.from({ length: 200 }, (_, i) => ({
      trackingNumber: `WB${i}`,
      seq: 1,
      status: 'failed_attempt',
      reason: 'other',
      note: 'x'.repeat(500),
      userId: 'U3',
      at: new Date(0),
    }));
    const bookings = Array.from({ length: 500 }, (_, i) => booking(i));
    const data: DigestData = {
      day: '2026-11-23',
      bookings,
      parcels: 1000,
      codCents: 500n * (parseCents('0.10') ?? 0n),
      bySender: [],
      refused: [],
      unknown: Array.from({ length: 40 }, (_, i) => unknown(i)),
      statuses,
      tomorrowPickups: bookings,
      cod: {
        owed: ageCod(
          Array.from({ length: 500 }, (_, i) => ({ sender: `S${i}`, outstanding: '0.10', days: i % 40 })),
        ),
        overdue: { count: 3, total: '4500.00', days: 7 },
        pipeline: { count: 2, total: '300.00' },
      },
      attention: { items: 500, counts: '200 failed, nothing since · 300 not picked up' },
      flaggedReceivers: 500,
    };
    const message = digestMessage(data, { currency: 'PHP', detailInThread: true });
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const block of message.blocks)
      if (block.type === 'section') expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    expect(textOf(message.blocks)).toContain('COD total PHP 50.00');
    expect(textOf(message.blocks)).toContain(
      '*Overdue* (owed, delivered more than 7 days ago): 3 bookings, PHP 4,500.00',
    );
    expect(textOf(message.blocks)).toContain('*In the pipeline* (not yet delivered): 2 bookings, PHP 300.00');
    // 500 of 0.10 aged 0 to 39 days over and over: 104 of them 0–7 days old, 91 8–14, 197 15–30, 108 over 30.
    expect(textOf(message.blocks)).toContain(
      '0\u20137 days PHP 10.40 (104) \u00b7 8\u201314 days PHP 9.10 (91) \u00b7 15\u201330 days PHP 19.70 (197) \u00b7 over 30 days PHP 10.80 (108)',
    );
    expect(textOf(message.blocks)).toContain('…and 30 more, in the file.');
    expect(formatCents((parseCents('0.1') ?? 0n) * 3n)).toBe('0.30');
  });

  it('DIGEST_CHANNEL_ID and DIGEST_TIME: both or neither, each checked, one line naming the setting', () => {
    expect(loadBotConfig({}).digest).toBeUndefined();
    expect(loadBotConfig(digestEnv).digest).toEqual({ channelId: 'CDIGEST', time: '18:00' });
    expect(() => loadBotConfig({ DIGEST_CHANNEL_ID: 'CDIGEST' })).toThrow(/^DIGEST_TIME must be set/);
    expect(() => loadBotConfig({ DIGEST_TIME: '18:00' })).toThrow(/^DIGEST_CHANNEL_ID must be set/);
    expect(() => loadBotConfig({ ...digestEnv, DIGEST_TIME: '6pm' })).toThrow(/DIGEST_TIME/);
    expect(() => loadBotConfig({ ...digestEnv, DIGEST_TIME: '24:00' })).toThrow(/DIGEST_TIME/);
    expect(() => loadBotConfig({ ...digestEnv, DIGEST_CHANNEL_ID: 'general' })).toThrow(/DIGEST_CHANNEL_ID/);
  });
});
