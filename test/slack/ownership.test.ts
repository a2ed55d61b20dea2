// Whose is it: a modal's draft is its opener's, and a booking belongs to its channel; on both backends.
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend } from '../store/backends.js';
import { fillToReview } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

let bot: TestBot;

describeEachBackend(import.meta.filename, 'ownership', (backend) => {
  afterEach(async () => {
    await bot?.stop();
  });

  it("refuses and logs a submission of another person's modal (a forged request): nothing booked", async () => {
    bot = await startTestBot({ backend });
    const review = await fillToReview(bot);
    const forged = await bot.submit(review, {}, 'UFORGER');
    expect(forged.body).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify(forged.body)).toContain('opened by someone else');
    await bot.idle();
    expect(await bot.deps.store.bookings.get('WB000001')).toBeUndefined();
    expect(bot.sandbox.bookings.size).toBe(0);
    expect(bot.logs.some((line) => line.includes('UFORGER') && line.includes('refused'))).toBe(true);
    // The opener's own submission still books.
    await bot.submit(review);
    await bot.idle();
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({ bookedBy: 'UDISPATCH' });
  });
});
