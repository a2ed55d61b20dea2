/** Default dates of `/quote` and `/book` with the host in another time zone. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot, type TestBot, type View } from '../support/bot-harness.js';

/**
 * The default dates of /quote and /book are days in WAYBILL_TIMEZONE (Manila here), whatever zone
 * the host runs in. New York's clocks go forward on 2026-03-08, so its 2026-03-07 has 23 hours left
 * from 11:30: a day added there lands on the same Manila date.
 */

const hostZone = process.env.TZ;
// Node applies a TZ change at once; the zone is put back for the test files after this one.
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (hostZone === undefined) Reflect.deleteProperty(process.env, 'TZ');
  else process.env.TZ = hostZone;
});

const now = new Date('2026-03-07T16:30:00Z'); // 00:30 on 2026-03-08 in Manila, 11:30 on 2026-03-07 in New York

let bot: TestBot;

afterEach(async () => {
  await bot.stop();
});

const element = (view: View, path: string) =>
  view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)?.element;

describe('default dates on a host in another time zone', () => {
  it('/quote: pickup today and delivery tomorrow, in Manila', async () => {
    // The host really is in New York, on the 7th.
    expect([now.getTimezoneOffset(), now.getDate()]).toEqual([300, 7]);
    bot = await startTestBot({ now: () => now });
    await bot.command('/quote');
    const view = await bot.openedView();
    expect(element(view, 'pickupDate').initial_date).toBe('2026-03-08');
    expect(element(view, 'expectedDeliveryDate').initial_date).toBe('2026-03-09');
  });

  it('/book: pickup today at the next hour and delivery tomorrow, in Manila', async () => {
    bot = await startTestBot({ now: () => now });
    await bot.command('/book');
    const view = await bot.openedView();
    expect(element(view, 'pickupAt.date').initial_date).toBe('2026-03-08');
    expect(element(view, 'pickupAt.time').initial_time).toBe('01:00');
    expect(element(view, 'expectedDeliveryAt.date').initial_date).toBe('2026-03-09');
  });
});
