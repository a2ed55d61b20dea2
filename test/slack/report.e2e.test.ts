/**
 * The weekly report on both backends with a clock the test sets: two replicas post it exactly once at
 * REPORT_TIME (not on other days, late with a note when nobody was up), its message (COD fees under a
 * percentage rule and a return fee) and CSV file (parsed) and chart (the PNG decoded: its size, each bar's
 * pixels against the CSV's numbers) agreeing; `/waybill report [from..to]` privately with its CSV in a DM
 * (COD remitted by a reconciled file), a bad range named, the finance permission; a busy week in a few
 * blocks, escaped; REPORT_* settings checked.
 */
// The weekly report: once a week across two replicas on one database, with a clock the test moves;
// its numbers in the message and in a CSV that agree; late when nobody was up; a busy week in few blocks.

import { parse } from 'csv-parse/sync';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../src/config.js';
import { CHART } from '../../src/render/chart.js';
import { reportMessage } from '../../src/slack/report/blocks.js';
import type { ReportData } from '../../src/slack/report/data.js';
import { reportTick } from '../../src/slack/report/index.js';
import { ageCod } from '../../src/waybill/cod-ageing.js';
import { fieldOf, parseCents, stringOf } from '../../src/waybill/fields.js';
import { describeEachBackend } from '../store/backends.js';
import { bookThroughModal } from '../support/booking-flow.js';
import { manilaClock, renderPoolPerFile, startTestBot, type TestBot } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const bots: TestBot[] = [];
// Charts are drawn by one worker for the whole file, the replicas' too: no test here is about the pool.
const render = renderPoolPerFile();
afterEach(async () => {
  await Promise.all(bots.splice(0).map((bot) => bot.stop()));
});

/** How many pixels of column `x` are exactly the colour `#rrggbb`. */
function pixelsOf(png: PNG, x: number, colour: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16));
  let count = 0;
  for (let y = 0; y < png.height; y++) {
    const at = (y * png.width + x) * 4;
    if (png.data[at] === r && png.data[at + 1] === g && png.data[at + 2] === b) count++;
  }
  return count;
}

const reportEnv = { REPORT_CHANNEL_ID: 'CREPORT', REPORT_TIME: 'Mon 08:00' };

const reportPosts = (bots: TestBot[]) =>
  bots
    .flatMap((bot) => bot.fake.callsTo('chat.postMessage'))
    .filter((c) => c.body.channel === 'CREPORT')
    .sort((x, y) => x.receivedAt - y.receivedAt);

describeEachBackend(import.meta.filename, 'the weekly report', (backend) => {
  it('two replicas: posted exactly once at REPORT_TIME, for the 7 days before, its numbers in a CSV in the thread; late with a note when nobody was up; not on other days', async () => {
    const clock = manilaClock();
    const stores = [
      await backend.open({ replicaId: 'a', now: clock.now }),
      await backend.open({ replicaId: 'b', now: clock.now }),
    ];
    const [a, b] = await Promise.all(
      // 2.75 % of each COD, or the return fee on a returned booking: 41.25 + 60.00 on two of 1,500.00.
      stores.map((store) =>
        startTestBot({
          store,
          now: clock.now,
          render: render(),
          env: { ...reportEnv, COD_FEE_PERCENT: '2.75', RETURN_FEE: '60.00' },
        }),
      ),
    );
    if (!a || !b) throw new Error('two replicas');
    bots.push(a, b);
    await bookThroughModal(a);
    await bookThroughModal(a);
    await a.command('/waybill', 'status WB000001 returned');
    await a.command('/waybill', 'status WB000002 delivered');
    // Two prices the courier gave in the week, as /quote records them, and one it refused.
    for (const [outcome, totalCharge] of [
      ['ok', '302.40'],
      ['ok', '1197.60'],
      ['failed', '99.00'],
    ] as const) {
      await a.deps.store.audit.record({
        userId: 'UDISPATCH',
        operation: 'quote',
        outcome,
        response: { totalCharge },
      });
    }
    await a.idle();
    const tick = () => Promise.all([reportTick(a.deps, a.app.client), reportTick(b.deps, b.app.client)]);

    // Not on the week's other days, nor before the time on the day.
    clock.set(6, '09:00');
    expect(await tick()).toEqual([undefined, undefined]);
    clock.set(7, '07:59');
    expect(await tick()).toEqual([undefined, undefined]);
    clock.set(7, '08:00');
    expect((await tick()).filter(Boolean)).toEqual(['2026-11-30']);
    expect(await tick()).toEqual([undefined, undefined]);
    const posts = reportPosts([a, b]);
    expect(posts).toHaveLength(1);
    const shown = textOf(posts[0]?.body.blocks);
    const text = String(posts[0]?.body.text);
    const returned = await a.deps.store.bookings.get('WB000001');
    const sender = stringOf(fieldOf(fieldOf(returned?.record, 'shipper'), 'name'));
    const city = stringOf(fieldOf(fieldOf(returned?.record, 'consignee'), 'city'));
    for (const said of [shown, text]) {
      expect(said).toContain('Weekly report \u00b7 2026-11-23 to 2026-11-29');
      expect(said).toContain('*2 bookings*, 6 parcels');
      expect(said).toContain('Delivered 1 (50.0 %)');
      expect(said).toContain('Returned to sender 1 (50.0 %)');
      expect(said).toContain(`*Most returns by sender*: ${sender} (1)`);
      expect(said).toContain(`*Most returns by city*: ${city} (1)`);
    }
    expect(shown).not.toContain('Posted late');

    // The CSV holds every number of the message, and the days add up to the week.
    const poster = a.fake.callsTo('chat.postMessage').some((c) => c.body.channel === 'CREPORT') ? a : b;
    await poster.idle();
    const [file] = poster.fake.uploadsCompleted();
    expect(file?.filename).toBe('report-2026-11-23-2026-11-29.csv');
    const rows = parse(file?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    const count = (section: string, name: string) =>
      Number(rows.find((r) => r.section === section && r.name === name)?.count);
    expect(count('bookings', 'all')).toBe(2);
    expect(count('parcels', 'all')).toBe(6);
    expect(count('outcome', 'returned')).toBe(1);
    expect(count('day 2026-11-23', 'returned')).toBe(1);
    expect(count('day 2026-11-23', 'delivered')).toBe(1);
    const days = rows.filter((r) => r.section?.startsWith('day '));
    expect(new Set(days.map((r) => r.section)).size).toBe(7);
    expect(days.reduce((sum, r) => sum + Number(r.count), 0)).toBe(2);
    expect(count('returns by sender', sender)).toBe(1);
    expect(count('returns by city', city)).toBe(1);
    // The chart: a PNG of the chart's size, not blank, each day's bar as tall as the CSV's counts say.
    const [, chart] = poster.fake.uploadsCompleted();
    expect(chart?.filename).toBe('report-2026-11-23-2026-11-29.png');
    expect(chart?.threadTs).toBeDefined();
    expect(chart?.threadTs).toBe(file?.threadTs);
    const png = PNG.sync.read(poster.fake.uploads.get(chart?.fileId ?? '')?.bytes ?? Buffer.alloc(0));
    expect([png.width, png.height]).toEqual([CHART.width, CHART.height]);
    const dayBars = days.reduce<Record<string, number[]>>((bars, r) => {
      const day = r.section?.slice(4) ?? '';
      bars[day] = [...(bars[day] ?? []), Number(r.count)];
      return bars;
    }, {});
    const most = Math.max(...Object.values(dayBars).map((counts) => counts.reduce((x, y) => x + y, 0)));
    Object.values(dayBars).forEach((counts, i) => {
      counts.forEach((count, k) => {
        const drawn = pixelsOf(
          png,
          CHART.dayLeft + i * CHART.dayStep + CHART.barWidth / 2,
          CHART.outcomeColours[k] ?? '',
        );
        expect(drawn).toBe(Math.floor((count * CHART.plotHeight) / most));
      });
    });
    const owed = rows
      .filter((r) => r.section === 'cod outstanding')
      .map((r) => parseCents(r.amount ?? '') ?? 0n);
    const largest = owed.reduce((x, y) => (y > x ? y : x), 0n);
    expect(largest).toBeGreaterThan(0n);
    owed.forEach((cents, i) => {
      const drawn = pixelsOf(
        png,
        CHART.bucketLeft + i * CHART.bucketStep + CHART.barWidth / 2,
        CHART.bucketColour,
      );
      expect(drawn).toBe(Number((cents * BigInt(CHART.plotHeight)) / largest));
    });
    const collected = rows.find((r) => r.section === 'cod collected')?.amount;
    expect(collected).toBe('1500.00');
    expect(rows.find((r) => r.section === 'cod fees')?.amount).toBe('101.25');
    expect(rows.find((r) => r.section === 'quotes')).toMatchObject({ count: '2', amount: '1500.00' });
    expect(text).toContain('*Courier charges quoted*: 2 quotes, PHP 1,500.00');
    expect(rows.find((r) => r.section === 'cod remitted')?.amount).toBe('0.00');
    expect(text).toContain('*remitted*: PHP 0.00 \u00b7 *fees*: PHP 101.25');
    expect(text).toContain('*collected* (delivered): PHP 1,500.00');
    const booked = rows.find((r) => r.section === 'cod booked')?.amount;
    expect(text).toContain(
      `*COD booked*: PHP ${Number(booked).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );

    // The next Monday nobody is up at 08:00: the first replica up that day posts it, saying so.
    clock.set(14, '10:30');
    expect((await tick()).filter(Boolean)).toEqual(['2026-12-07']);
    const late = reportPosts([a, b]).map((c) => textOf(c.body.blocks));
    expect(late).toHaveLength(2);
    expect(late[1]).toContain('Weekly report \u00b7 2026-11-30 to 2026-12-06');
    expect(late[1]).toContain('Posted late, at 10:30: the bot was not running at 08:00.');
  });
});

describeEachBackend(import.meta.filename, '/waybill report', (backend) => {
  it('the report of the days asked (the 7 before today if none), privately, its CSV in a DM; a bad range named; the finance permission', async () => {
    const clock = manilaClock();
    const store = await backend.open({ now: clock.now });
    const bot = await startTestBot({
      store,
      now: clock.now,
      render: render(),
      env: { ALLOWED_FINANCE_USER_IDS: 'UDISPATCH' },
    });
    bots.push(bot);
    await bookThroughModal(bot);
    await bookThroughModal(bot);
    await bot.command('/waybill', 'status WB000002 failed not at home');
    // The courier pays WB000001's COD in a remittance file, reconciled as Slack sends it.
    const remittance = bot.fake.addFile({
      name: 'remit.csv',
      content: 'tracking_number,amount\r\nWB000001,1500.00\r\n',
    });
    await bot.command('/waybill', 'remittance');
    await bot.submit(await bot.openedView(), { file: remittance.id });
    await bot.idle();
    const postsBefore = bot.fake.callsTo('chat.postMessage').length;

    clock.set(3, '09:00');
    const ack = await bot.command('/waybill', 'report 2026-11-23..2026-11-24');
    expect(ack.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Working out'),
    });
    const answer = await bot.fake.waitFor('response_url', (c) => textOf(c.body).includes('Report \u00b7'));
    expect(answer.body.response_type).toBe('ephemeral');
    const shown = textOf(answer.body.blocks);
    expect(shown).toContain('Report \u00b7 2026-11-23 to 2026-11-24');
    expect(shown).toContain('*2 bookings*, 6 parcels');
    expect(shown).toContain('Failed attempt 1 (50.0 %)');
    await bot.idle();
    const file = bot.fake.uploadsCompleted().find((u) => u.filename.startsWith('report-'));
    expect(file?.filename).toBe('report-2026-11-23-2026-11-24.csv');
    const rows = parse(file?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.filter((r) => r.section?.startsWith('day ')).map((r) => r.section)).toEqual([
      ...Array(4).fill('day 2026-11-23'),
      ...Array(4).fill('day 2026-11-24'),
    ]);
    expect(rows.find((r) => r.section === 'outcome' && r.name === 'failed_attempt')?.count).toBe('1');
    expect(rows.find((r) => r.section === 'cod remitted')?.amount).toBe('1500.00');
    expect(shown).toContain('*remitted*: PHP 1,500.00');
    // Privately: nothing posted in a channel.
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(postsBefore);

    clock.set(7, '09:00');
    await bot.command('/waybill', 'report');
    const week = await bot.fake.waitFor('response_url', (c) => textOf(c.body).includes('2026-11-29'));
    expect(textOf(week.body.blocks)).toContain('Report \u00b7 2026-11-23 to 2026-11-29');

    expect((await bot.command('/waybill', 'report 2026-11-30..2026-11-01')).body.text).toBe(
      'The last day (2026-11-01) is before the first (2026-11-30).',
    );
    expect((await bot.command('/waybill', 'report last week')).body.text).toContain(
      'To report, write the days like `/waybill report 2026-11-01..2026-11-30`',
    );
    expect((await bot.command('/waybill', 'report', { user_id: 'USTRANGER' })).body.text).toContain(
      'may reconcile COD remittance files',
    );
  });
});

describe('the weekly report message', () => {
  it('a busy week: few blocks, names cut and escaped on every surface', () => {
    const names = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `<@U${i}> & ${'x'.repeat(200)}`, returns: 1000 - i }));
    const data: ReportData = {
      from: '2026-11-23',
      to: '2026-11-29',
      days: [],
      bookings: 70_000,
      parcels: 300_000,
      outcomes: [40_000, 10_000, 15_000, 5_000],
      returnsBySender: names(5),
      returnsByCity: names(5),
      codBookedCents: 123_456_789_01n,
      codCollectedCents: 98_765_432_10n,
      codRemittedCents: 12_345_678_90n,
      codFeeCents: 271_604_33n,
      codOutstanding: ageCod([]),
      quotes: 9_999,
      quotedCents: 3_024_000_00n,
    };
    const message = reportMessage(data, { currency: 'PHP', late: 'Posted late' });
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const said of [textOf(message.blocks), message.text]) {
      expect(said).not.toContain('<@U0>');
      expect(said).toContain('&lt;@U0&gt; &amp; ');
      expect(said).toContain('Returned to sender 15000 (21.4 %)');
    }
    for (const block of message.blocks) expect(textOf(block).length).toBeLessThan(3000);
  });

  it('REPORT_CHANNEL_ID and REPORT_TIME: both or neither, each checked, one line naming the setting', () => {
    expect(loadBotConfig({}).report).toBeUndefined();
    expect(loadBotConfig(reportEnv).report).toEqual({ channelId: 'CREPORT', weekday: 1, time: '08:00' });
    expect(loadBotConfig({ ...reportEnv, REPORT_TIME: 'sun 23:59' }).report?.weekday).toBe(0);
    expect(() => loadBotConfig({ REPORT_CHANNEL_ID: 'CREPORT' })).toThrow(/^REPORT_TIME must be set/);
    expect(() => loadBotConfig({ REPORT_TIME: 'Mon 08:00' })).toThrow(/^REPORT_CHANNEL_ID must be set/);
    expect(() => loadBotConfig({ ...reportEnv, REPORT_TIME: '08:00' })).toThrow(/REPORT_TIME/);
    expect(() => loadBotConfig({ ...reportEnv, REPORT_TIME: 'Monday 08:00' })).toThrow(/REPORT_TIME/);
    expect(() => loadBotConfig({ ...reportEnv, REPORT_CHANNEL_ID: 'general' })).toThrow(/REPORT_CHANNEL_ID/);
  });
});
