/**
 * The whole booking (operations/book.ts) on SQLite and PostgreSQL with the sandbox courier: a form's
 * typed number held by one draft, an attempt begun once, the card posted through the caller's port
 * and where it went kept, the attempt finished with it; a port that fails never fails the booking.
 */
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BegunBooking,
  type BookedCard,
  type BookingDeps,
  beginBooking,
  bookOnce,
  CARD_NOT_POSTED,
  type PostCard,
} from '../../src/operations/book.js';
import { validateDraft } from '../../src/slack/book/draft.js';
import type { Store } from '../../src/store/index.js';
import { createWaybillClient } from '../../src/waybill/client.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import { describeEachBackend } from '../store/backends.js';
import { typedBooking, unitCore } from '../support/unit-core.js';

const TOKEN = 'book-token';
const core = unitCore();
const who = { userId: 'UDISPATCH', channelId: 'CDISPATCH' };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());

function depsOf(store: Store): BookingDeps {
  const logger = pino({ level: 'silent' });
  return {
    store,
    courier: createWaybillClient({ baseUrl: sandbox.baseUrl, token: TOKEN, timeoutMs: 2_000, logger }),
    logger,
    now: () => new Date('2030-03-14T02:00:00Z'),
    activity: { changed: () => undefined },
    waybill: { timeZone: core.waybill.timeZone },
    bot: { trackingPrefix: 'WB', receiverRisk: {}, access: { channelIds: [] } },
  };
}

/** Numbers the sandbox has not seen: it refuses one booked already, on either backend. */
let numbers = 0;
function fresh(): string {
  numbers += 1;
  return `WB-TYPED-${numbers}`;
}

/** A valid booking under a number typed on the form. */
function typed(trackingNumber: string) {
  const validated = validateDraft(core, typedBooking(core, { trackingNumber }));
  if (!validated.ok) throw new Error('the typed booking should be valid');
  return validated.value;
}

async function begun(deps: BookingDeps, trackingNumber: string): Promise<BegunBooking> {
  const begin = await beginBooking(deps, {
    holder: 'draft-1',
    booking: typed(trackingNumber),
    who,
    number: {},
  });
  if (begin.state !== 'begun') throw new Error(`expected a booking begun, got ${begin.state}`);
  return begin.begun;
}

describeEachBackend(import.meta.filename, 'the whole booking', (backend) => {
  it('holds a typed number for one draft: another is told it is taken, the same one is answered with its attempt', async () => {
    const deps = depsOf(await backend.open());
    const booking = typed(fresh());
    const order = { booking, who, number: {} };
    expect((await beginBooking(deps, { ...order, holder: 'draft-1' })).state).toBe('begun');
    expect(await beginBooking(deps, { ...order, holder: 'draft-2' })).toEqual({ state: 'number taken' });
    const again = await beginBooking(deps, { ...order, holder: 'draft-1' });
    expect(again).toMatchObject({ state: 'answered', attempt: { state: 'in-flight' } });
  });

  it('posts the card through the port once recorded, keeps where it went, and finishes the attempt with its note', async () => {
    const store = await backend.open();
    const deps = depsOf(store);
    const number = fresh();
    const start = await begun(deps, number);
    const posted: BookedCard[] = [];
    const port: PostCard = async (card) => {
      // Only a stored booking gets a card: an update is told in its thread.
      expect(await store.bookings.get(card.booking.trackingNumber)).toBeDefined();
      posted.push(card);
      return { channelId: 'CDISPATCH', ts: '1.2', auditTs: '3.4', note: 'Posted in <#CDISPATCH>.' };
    };
    const sent = await bookOnce(deps, start, { postedNote: 'The card is being posted.', card: port });
    expect(sent).toMatchObject({ state: 'done', card: { ts: '1.2' } });
    expect(posted).toMatchObject([{ booking: { trackingNumber: number }, bookedBy: 'UDISPATCH' }]);
    expect(await store.bookings.get(number)).toMatchObject({
      cardChannelId: 'CDISPATCH',
      cardTs: '1.2',
      auditCardTs: '3.4',
    });
    expect(await store.attempts.get(start.attempt.key)).toMatchObject({
      state: 'succeeded',
      result: { postedNote: 'Posted in <#CDISPATCH>.' },
    });
  });

  it('keeps the booking when the port fails: the attempt says the card went nowhere', async () => {
    const store = await backend.open();
    const deps = depsOf(store);
    const number = fresh();
    const start = await begun(deps, number);
    const card: PostCard = () => Promise.reject(new Error('Slack is down'));
    const sent = await bookOnce(deps, start, { postedNote: 'The card is being posted.', card });
    expect(sent.state).toBe('done');
    expect((await store.bookings.get(number))?.cardTs).toBeFalsy();
    expect(await store.attempts.get(start.attempt.key)).toMatchObject({
      result: { postedNote: CARD_NOT_POSTED },
    });
  });

  it('without a port (a file’s row), posts no card and keeps the note it was given', async () => {
    const store = await backend.open();
    const deps = depsOf(store);
    const number = fresh();
    const start = await begun(deps, number);
    const sent = await bookOnce(deps, start, { postedNote: 'Booked from bookings.csv.' });
    expect(sent).not.toHaveProperty('card');
    expect(await store.attempts.get(start.attempt.key)).toMatchObject({
      result: { postedNote: 'Booked from bookings.csv.' },
    });
  });
});
