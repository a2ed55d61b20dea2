/**
 * SettleBooking on SQLite and PostgreSQL: the courier has it (the booking and the caller's bookkeeping
 * stored, the attempt succeeded) or not (the attempt failed), recorded once whoever answers first.
 */
// settleBooking against a real store (SQLite, PostgreSQL): a person's verdict on a booking of unknown
// outcome, recorded once whoever answers first; the booking stored as sending stores it.
import pino from 'pino';
import { expect, it } from 'vitest';
import { beginAttempt, bookingAttempt } from '../../src/operations/attempts.js';
import { settleBooking } from '../../src/operations/book.js';
import { validateDraft } from '../../src/slack/book/draft.js';
import type { Store } from '../../src/store/index.js';
import { toBookingWire } from '../../src/waybill/wire.js';
import { describeEachBackend } from '../store/backends.js';
import { typedBooking, unitCore } from '../support/unit-core.js';

const core = unitCore();
const at = new Date('2030-03-14T02:00:00Z');

/** A booking attempt of unknown outcome on this store, and what settling it uses. */
async function unknownBooking(store: Store) {
  const validated = validateDraft(core, typedBooking(core));
  if (!validated.ok) throw new Error('the typed booking should be valid');
  const booking = validated.value;
  const attempt = bookingAttempt('draft-1', toBookingWire(booking, core.waybill.timeZone));
  expect((await beginAttempt(store, attempt, { userId: 'UDISPATCH', channelId: 'C1' })).started).toBe(true);
  await store.attempts.finish(attempt.key, 'unknown', { message: 'timed out' });
  const changed: string[] = [];
  const deps = {
    store,
    logger: pino({ level: 'silent' }),
    now: () => at,
    activity: { changed: (userId: string) => changed.push(userId) },
  };
  const verdict = { key: attempt.key, trackingNumber: booking.trackingNumber, decidedBy: 'UBOSS' };
  return { booking, attempt, deps, changed, verdict };
}

describeEachBackend(import.meta.filename, 'settleBooking', (backend) => {
  it('the courier has it: the booking and the caller’s bookkeeping stored, the attempt succeeded; a later verdict records nothing', async () => {
    const store = await backend.open();
    const { booking, attempt, deps, changed, verdict } = await unknownBooking(store);
    const booked = {
      booking,
      trackingRefNo: 'REF-1',
      channelId: 'C1',
      bookedBy: 'UDISPATCH',
      postedNote: 'The card is being posted.',
      alsoRecord: async () => 'kept',
    };
    expect(await settleBooking(deps, { ...verdict, booked })).toEqual({
      state: 'booked',
      bookedAt: at,
      recorded: 'kept',
    });
    expect(await store.bookings.get(booking.trackingNumber)).toMatchObject({
      trackingRefNo: 'REF-1',
      channelId: 'C1',
      bookedBy: 'UDISPATCH',
    });
    expect(await store.attempts.get(attempt.key)).toMatchObject({
      state: 'succeeded',
      result: { trackingRefNo: 'REF-1', postedNote: 'The card is being posted.' },
    });
    expect(changed).toEqual(['UBOSS']);
    // Whoever answers second, either way, is told someone settled it first.
    expect(await settleBooking(deps, verdict)).toEqual({ state: 'settled before' });
    expect(await settleBooking(deps, { ...verdict, booked })).toEqual({ state: 'settled before' });
    expect(changed).toEqual(['UBOSS']);
    expect(await store.attempts.get(attempt.key)).toMatchObject({ state: 'succeeded' });
  });

  it('the courier does not have it: the attempt failed with who checked, nothing stored; once', async () => {
    const store = await backend.open();
    const { booking, attempt, deps, changed, verdict } = await unknownBooking(store);
    expect(await settleBooking(deps, verdict)).toEqual({ state: 'not booked' });
    expect(await store.bookings.get(booking.trackingNumber)).toBeUndefined();
    expect(await store.attempts.get(attempt.key)).toMatchObject({
      state: 'failed',
      result: { message: expect.stringContaining('<@UBOSS> checked with the courier') },
    });
    expect(changed).toEqual([]);
    expect(await settleBooking(deps, verdict)).toEqual({ state: 'settled before' });
  });
});
