import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  migrate,
  openDatabase,
  schemaVersion,
} from '../../src/store/database.js';
import {
  AttemptNotFoundError,
  BookingNotFoundError,
  DEFAULT_DRAFT_TTL_MS,
  DraftNotFoundError,
  DuplicateTrackingNumberError,
  openStore,
  type Store,
} from '../../src/store/store.js';

const DAY = 24 * 60 * 60 * 1000;

/** A clock the test moves by hand. */
function fakeClock(start = '2025-03-01T09:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

let dir: string;
const opened: Store[] = [];

function open(path: string, options: { now?: () => Date; draftTtlMs?: number } = {}): Store {
  const store = openStore({ path, ...options });
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waybill-store-'));
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function bookingInput(trackingNumber: string, record: unknown = { weight: 2, pickupDate: '2025-03-02' }) {
  return {
    trackingNumber,
    trackingRefNo: `REF-${trackingNumber}`,
    record,
    channelId: 'C123',
    bookedBy: 'U1',
    bookedAt: new Date('2025-03-01T09:30:00.000Z'),
  };
}

describe('database', () => {
  it('creates the parent directory, uses WAL, busy_timeout and foreign keys', () => {
    const path = join(dir, 'nested', 'deeper', 'bot.sqlite');
    const db = openDatabase(path);
    try {
      expect(existsSync(path)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('works in memory', () => {
    const store = open(':memory:');
    store.audit.record({ userId: 'U1', operation: 'quote', outcome: 'ok' });
    expect(store.audit.list()).toHaveLength(1);
  });

  it('is idempotent on reopen: nothing is applied twice, data survives', () => {
    const path = join(dir, 'bot.sqlite');
    const first = openDatabase(path);
    first.prepare("INSERT INTO tracking_reserved VALUES ('X1', 0)").run();
    first.close();

    const second = openDatabase(path);
    try {
      expect(migrate(second)).toEqual([]);
      expect(schemaVersion(second)).toBe(LATEST_SCHEMA_VERSION);
      expect(second.prepare('SELECT tracking_number FROM tracking_reserved').all()).toEqual([
        { tracking_number: 'X1' },
      ]);
    } finally {
      second.close();
    }
  });

  it('migrates a database at an older version forward', () => {
    const path = join(dir, 'old.sqlite');
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(schemaVersion(old)).toBe(1);
    old
      .prepare(
        `INSERT INTO bookings (tracking_number, tracking_ref_no, record, version, channel_id, booked_by, booked_at)
         VALUES ('WB000001', 'R1', '{"a":1}', 1, 'C1', 'U1', 0)`,
      )
      .run();
    old.close();

    const store = open(path);
    expect(store.bookings.get('WB000001')?.record).toEqual({ a: 1 });
    // Version 2 backfilled the booked numbers as used.
    expect(store.trackingNumbers.reserve('WB000001')).toBe(false);
    expect(store.trackingNumbers.next('WB')).toBe('WB000002');
    store.close();

    const db = new Database(path);
    try {
      expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('gives attempts written before version 3 their tracking numbers', () => {
    const path = join(dir, 'v2.sqlite');
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 2) });
    const insert = old.prepare(
      `INSERT INTO attempts (key, operation, state, result, created_at, updated_at)
       VALUES (?, ?, 'in-flight', NULL, ?, 0)`,
    );
    insert.run('book:AAAAAAAAAAAAAAAAAAAAAA:WB-7:X', 'book', 1);
    insert.run('update:WB000001:v3', 'update', 2);
    insert.run('something else', 'update', 3);
    old.close();

    const store = open(path);
    expect(store.attempts.markAbandoned()).toMatchObject([
      { operation: 'book', trackingNumber: 'WB-7:X' },
      { operation: 'update', trackingNumber: 'WB000001' },
      { key: 'something else' },
    ]);
    expect(store.attempts.get('something else')).not.toHaveProperty('trackingNumber');
  });

  it('applies all migrations in one transaction: a failing one leaves the database untouched', () => {
    const path = join(dir, 'broken.sqlite');
    const broken = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'broken', up: 'CREATE TABLE oops (' },
    ];
    expect(() => openDatabase(path, { migrations: broken })).toThrow();
    const db = new Database(path);
    try {
      expect(schemaVersion(db)).toBe(0);
      expect(
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'drafts'").all(),
      ).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer build', () => {
    const path = join(dir, 'future.sqlite');
    const db = new Database(path);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(path)).toThrow(/newer than this build/);
  });
});

describe('drafts', () => {
  it('creates, gets, saves (version, updatedAt, expiry) and deletes', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now });
    const created = store.drafts.create({
      kind: 'booking',
      userId: 'U1',
      channelId: 'C1',
      data: { step: 1 },
    });
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(created).toMatchObject({
      kind: 'booking',
      userId: 'U1',
      channelId: 'C1',
      data: { step: 1 },
      version: 1,
    });
    expect(created.createdAt).toEqual(clock.now());
    expect(created.expiresAt.getTime()).toBe(clock.now().getTime() + DEFAULT_DRAFT_TTL_MS);
    expect(store.drafts.get(created.id)).toEqual(created);

    clock.advance(60_000);
    const saved = store.drafts.save(created.id, { step: 2 });
    expect(saved.version).toBe(2);
    expect(saved.data).toEqual({ step: 2 });
    expect(saved.createdAt).toEqual(created.createdAt);
    expect(saved.updatedAt).toEqual(clock.now());
    expect(saved.expiresAt.getTime()).toBe(clock.now().getTime() + DEFAULT_DRAFT_TTL_MS);
    expect(store.drafts.get(created.id)).toEqual(saved);
    expect(store.drafts.save(created.id, { step: 3 }).version).toBe(3);

    store.drafts.delete(created.id);
    expect(store.drafts.get(created.id)).toBeUndefined();
    store.drafts.delete(created.id); // harmless
  });

  it('gives every draft a distinct id', () => {
    const store = open(':memory:');
    const ids = new Set(
      Array.from(
        { length: 200 },
        () => store.drafts.create({ kind: 'quote', userId: 'U', channelId: 'C', data: {} }).id,
      ),
    );
    expect(ids.size).toBe(200);
  });

  it('returns Dates inside data as ISO strings', () => {
    const store = open(':memory:');
    const draft = store.drafts.create({
      kind: 'quote',
      userId: 'U1',
      channelId: 'C1',
      data: { pickup: new Date('2025-03-02T08:00:00.000Z'), skipped: undefined },
    });
    expect(store.drafts.get(draft.id)?.data).toEqual({ pickup: '2025-03-02T08:00:00.000Z' });
  });

  it('expires drafts: get returns undefined, save throws, purgeExpired removes them', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now, draftTtlMs: DAY });
    const old = store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: 1 });
    clock.advance(DAY / 2);
    const young = store.drafts.create({ kind: 'quote', userId: 'U1', channelId: 'C1', data: 2 });
    clock.advance(DAY / 2 - 1);
    expect(store.drafts.get(old.id)?.data).toBe(1);
    clock.advance(1);
    expect(store.drafts.get(old.id)).toBeUndefined();
    expect(() => store.drafts.save(old.id, 3)).toThrow(DraftNotFoundError);
    expect(store.drafts.get(young.id)?.data).toBe(2);

    expect(store.drafts.purgeExpired()).toBe(1);
    expect(store.drafts.purgeExpired()).toBe(0);
    clock.advance(DAY);
    expect(store.drafts.purgeExpired()).toBe(1);
  });

  it('saving extends the expiry', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now, draftTtlMs: DAY });
    const draft = store.drafts.create({ kind: 'update', userId: 'U1', channelId: 'C1', data: 'a' });
    clock.advance(DAY - 1);
    store.drafts.save(draft.id, 'b');
    clock.advance(DAY - 1);
    expect(store.drafts.get(draft.id)?.data).toBe('b');
  });

  it('save throws for a missing draft', () => {
    const store = open(':memory:');
    expect(() => store.drafts.save('nope', {})).toThrow(DraftNotFoundError);
  });
});

describe('bookings', () => {
  it('inserts at version 1 and gets it back', () => {
    const store = open(':memory:');
    const inserted = store.bookings.insert({ ...bookingInput('WB000001'), cardTs: '111.1' });
    expect(inserted).toEqual({ ...bookingInput('WB000001'), cardTs: '111.1', version: 1 });
    expect(inserted.updatedBy).toBeUndefined();
    expect(inserted.updatedAt).toBeUndefined();
    expect(store.bookings.get('WB000001')).toEqual(inserted);
    expect(store.bookings.get('WB000002')).toBeUndefined();
  });

  it('refuses a duplicate tracking number and keeps the first', () => {
    const store = open(':memory:');
    store.bookings.insert(bookingInput('WB000001', { first: true }));
    expect(() => store.bookings.insert(bookingInput('WB000001', { first: false }))).toThrow(
      DuplicateTrackingNumberError,
    );
    expect(store.bookings.get('WB000001')?.record).toEqual({ first: true });
  });

  it('marks the booked tracking number as used', () => {
    const store = open(':memory:');
    store.bookings.insert(bookingInput('WB000001'));
    expect(store.trackingNumbers.reserve('WB000001')).toBe(false);
    expect(store.trackingNumbers.next('WB')).toBe('WB000002');
  });

  it('updates with optimistic concurrency: a stale version gets the current booking', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now });
    store.bookings.insert(bookingInput('WB000001', { weight: 1 }));

    clock.advance(1000);
    const first = store.bookings.updateRecord('WB000001', 1, { weight: 2 }, 'U2');
    expect(first.ok).toBe(true);
    if (!first.ok) throw new Error('unreachable');
    expect(first.booking).toMatchObject({ version: 2, record: { weight: 2 }, updatedBy: 'U2' });
    expect(first.booking.updatedAt).toEqual(clock.now());

    // Someone else still holding version 1.
    const stale = store.bookings.updateRecord('WB000001', 1, { weight: 3 }, 'U3');
    expect(stale).toEqual({ ok: false, current: first.booking });
    expect(store.bookings.get('WB000001')?.record).toEqual({ weight: 2 });

    const second = store.bookings.updateRecord('WB000001', 2, { weight: 3 }, 'U3');
    expect(second.ok && second.booking.version).toBe(3);

    expect(store.bookings.updateRecord('WB999999', 1, {}, 'U1')).toEqual({ ok: false, current: undefined });
  });

  it('sets card locations without touching the others or the version', () => {
    const store = open(':memory:');
    store.bookings.insert(bookingInput('WB000001'));
    store.bookings.setCard('WB000001', { cardChannelId: 'C9', cardTs: '1.1' });
    store.bookings.setCard('WB000001', { auditCardTs: '2.2' });
    expect(store.bookings.get('WB000001')).toMatchObject({
      cardChannelId: 'C9',
      cardTs: '1.1',
      auditCardTs: '2.2',
      version: 1,
    });
    store.bookings.setCard('WB000001', { cardTs: '3.3' });
    expect(store.bookings.get('WB000001')).toMatchObject({
      cardChannelId: 'C9',
      cardTs: '3.3',
      auditCardTs: '2.2',
    });
    expect(() => store.bookings.setCard('WB404', { cardTs: '1' })).toThrow(BookingNotFoundError);
  });
});

describe('attempts', () => {
  it('begin twice: the second sees the first, whatever its state', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now });
    expect(store.attempts.begin('book:d1:WB1', 'book')).toEqual({ started: true });
    const again = store.attempts.begin('book:d1:WB1', 'book');
    expect(again).toEqual({
      started: false,
      attempt: {
        key: 'book:d1:WB1',
        operation: 'book',
        state: 'in-flight',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      },
    });

    clock.advance(500);
    store.attempts.finish('book:d1:WB1', 'succeeded', { trackingRefNo: 'R1' });
    const third = store.attempts.begin<{ trackingRefNo: string }>('book:d1:WB1', 'book');
    expect(third.started).toBe(false);
    if (third.started) throw new Error('unreachable');
    expect(third.attempt.state).toBe('succeeded');
    expect(third.attempt.result).toEqual({ trackingRefNo: 'R1' });
    expect(third.attempt.updatedAt).toEqual(clock.now());
    expect(store.attempts.get('book:d1:WB1')).toEqual(third.attempt);
    expect(store.attempts.get('other')).toBeUndefined();
  });

  it('is atomic across two connections to the same file', () => {
    const path = join(dir, 'bot.sqlite');
    const a = open(path);
    const b = open(path);
    expect(a.attempts.begin('k', 'book').started).toBe(true);
    expect(b.attempts.begin('k', 'book').started).toBe(false);
  });

  it('finish throws for an unknown key', () => {
    const store = open(':memory:');
    expect(() => store.attempts.finish('nope', 'failed', null)).toThrow(AttemptNotFoundError);
  });

  it('starts an attempt again only from the state asked for (a Try again, a confirmed resend)', () => {
    const store = open(':memory:');
    for (const key of ['inflight', 'ok', 'bad', 'unsure']) store.attempts.begin(key, 'book');
    store.attempts.finish('ok', 'succeeded', { ok: true });
    store.attempts.finish('bad', 'failed', { message: 'rejected' });
    store.attempts.finish('unsure', 'unknown', { message: 'timeout' });

    for (const key of ['inflight', 'ok', 'unsure']) {
      expect(store.attempts.begin(key, 'book', { again: 'failed' }).started).toBe(false);
    }
    expect(store.attempts.begin('bad', 'book', { again: 'unknown' }).started).toBe(false);
    expect(store.attempts.begin('bad', 'book', { again: 'failed' })).toEqual({ started: true });
    expect(store.attempts.get('bad')).toMatchObject({ state: 'in-flight' });
    expect(store.attempts.get('bad')).not.toHaveProperty('result');
    expect(store.attempts.begin('unsure', 'book', { again: 'unknown' })).toEqual({ started: true });
    expect(store.attempts.get('ok')?.state).toBe('succeeded');
    // A second click finds the attempt under way.
    expect(store.attempts.begin('bad', 'book', { again: 'failed' }).started).toBe(false);
  });

  it('keeps the waybill, the person and the conversation on the attempt', () => {
    const store = open(':memory:');
    const about = { trackingNumber: 'WB000001', userId: 'U1', channelId: 'C1', claim: 'update:WB000001:v3' };
    store.attempts.begin('k', 'update', about);
    expect(store.attempts.get('k')).toMatchObject(about);
    expect(store.attempts.markAbandoned()).toMatchObject([{ key: 'k', state: 'unknown', ...about }]);
  });

  it('lets one attempt at a time hold a claim: a failed one lets go, an unknown one holds until superseded', () => {
    const store = open(':memory:');
    const claim = { claim: 'update:WB1:v1' };
    const begin = (key: string, options = {}) =>
      store.attempts.begin(key, 'update', { ...claim, ...options });
    const holder = (result: ReturnType<typeof begin>) => (result.started ? undefined : result.attempt.key);

    expect(begin('a').started).toBe(true);
    expect(holder(begin('b'))).toBe('a');
    expect(holder(begin('b', { supersedeUnknown: true }))).toBe('a');
    store.attempts.finish('a', 'failed', { message: 'rejected' });
    expect(begin('b')).toEqual({ started: true });
    // Starting the failed one again needs the claim back.
    expect(holder(begin('a', { again: 'failed' }))).toBe('b');

    store.attempts.finish('b', 'unknown', { message: 'timeout' });
    expect(holder(begin('c'))).toBe('b');
    const superseding = begin('c', { supersedeUnknown: true });
    expect(superseding).toMatchObject({ started: true, superseded: { key: 'b', state: 'unknown' } });
    expect(store.attempts.get('b')).toMatchObject({ state: 'unknown', supersededBy: 'c' });

    store.attempts.finish('c', 'succeeded', { ok: true });
    expect(holder(begin('d', { supersedeUnknown: true }))).toBe('c');
    expect(holder(begin('b', { again: 'unknown', supersedeUnknown: true }))).toBe('c');
    // Another claim is another matter.
    expect(store.attempts.begin('e', 'update', { claim: 'update:WB1:v2' }).started).toBe(true);
  });

  it('holds a claim across two connections to the same file', () => {
    const path = join(dir, 'bot.sqlite');
    const [a, b] = [open(path), open(path)];
    expect(a.attempts.begin('k1', 'update', { claim: 'c' }).started).toBe(true);
    expect(b.attempts.begin('k2', 'update', { claim: 'c' })).toMatchObject({
      started: false,
      attempt: { key: 'k1' },
    });
  });

  it('markAbandoned after a restart returns the in-flight attempts as unknown', () => {
    const path = join(dir, 'bot.sqlite');
    const clock = fakeClock();
    const before = open(path, { now: clock.now });
    before.attempts.begin('book:d1:WB1', 'book');
    clock.advance(10);
    before.attempts.begin('update:d2:WB2', 'update');
    before.attempts.begin('done', 'book');
    before.attempts.finish('done', 'succeeded', 1);
    before.close(); // the process stops mid-call

    clock.advance(60_000);
    const after = open(path, { now: clock.now });
    const abandoned = after.attempts.markAbandoned();
    expect(abandoned.map((attempt) => [attempt.key, attempt.operation, attempt.state])).toEqual([
      ['book:d1:WB1', 'book', 'unknown'],
      ['update:d2:WB2', 'update', 'unknown'],
    ]);
    expect(abandoned[0]?.updatedAt).toEqual(clock.now());
    expect(after.attempts.get('book:d1:WB1')?.state).toBe('unknown');
    expect(after.attempts.get('done')?.state).toBe('succeeded');
    // A replay still sees the first attempt, and it cannot be cleared for retry.
    expect(after.attempts.begin('book:d1:WB1', 'book').started).toBe(false);
    expect(after.attempts.begin('book:d1:WB1', 'book', { again: 'failed' }).started).toBe(false);
    expect(after.attempts.markAbandoned()).toEqual([]);
  });
});

describe('audit', () => {
  it('records entries with JSON payloads and lists them newest first', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now });
    const first = store.audit.record({
      userId: 'U1',
      operation: 'quote',
      outcome: 'ok',
      request: { weight: 2, when: new Date('2025-03-02T00:00:00.000Z') },
      response: { price: '12.50' },
    });
    expect(first).toEqual({
      id: first.id,
      at: clock.now(),
      userId: 'U1',
      operation: 'quote',
      outcome: 'ok',
      request: { weight: 2, when: '2025-03-02T00:00:00.000Z' },
      response: { price: '12.50' },
    });
    clock.advance(1000);
    const second = store.audit.record({
      userId: 'U2',
      operation: 'book',
      trackingNumber: 'WB000001',
      outcome: 'succeeded',
      detail: 'booked',
    });
    clock.advance(1000);
    const third = store.audit.record({
      userId: 'U2',
      operation: 'refused',
      trackingNumber: 'WB000002',
      outcome: 'invalid',
    });
    clock.advance(1000);
    const fourth = store.audit.record({
      userId: 'U3',
      operation: 'update',
      trackingNumber: 'WB000001',
      outcome: 'failed',
    });

    expect(store.audit.list().map((entry) => entry.id)).toEqual([fourth.id, third.id, second.id, first.id]);
    expect(store.audit.list({ trackingNumber: 'WB000001' })).toEqual([fourth, second]);
    expect(store.audit.list({ operation: 'refused' })).toEqual([third]);
    expect(store.audit.list({ trackingNumber: 'WB000001', operation: 'book' })).toEqual([second]);
    expect(store.audit.list({ limit: 2 })).toEqual([fourth, third]);
    expect(store.audit.list({ trackingNumber: 'nope' })).toEqual([]);
  });

  it('keeps newest-first order even when the clock goes backwards', () => {
    const clock = fakeClock();
    const store = open(':memory:', { now: clock.now });
    const a = store.audit.record({ userId: 'U', operation: 'quote', outcome: 'ok' });
    clock.advance(-60_000);
    const b = store.audit.record({ userId: 'U', operation: 'quote', outcome: 'ok' });
    expect(store.audit.list()).toEqual([b, a]);
  });
});

describe('tracking numbers', () => {
  it('hands out zero-padded, unique numbers per prefix', () => {
    const store = open(':memory:');
    expect(store.trackingNumbers.next('WB')).toBe('WB000001');
    expect(store.trackingNumbers.next('WB')).toBe('WB000002');
    expect(store.trackingNumbers.next('XP')).toBe('XP000001');
    const many = Array.from({ length: 1000 }, () => store.trackingNumbers.next('WB'));
    expect(new Set(many).size).toBe(1000);
    expect(many.at(-1)).toBe('WB001002');
  });

  it('stays unique across reopen and across two connections', () => {
    const path = join(dir, 'bot.sqlite');
    const first = open(path);
    const seen = new Set(Array.from({ length: 50 }, () => first.trackingNumbers.next('WB')));
    first.close();

    const a = open(path);
    const b = open(path);
    for (let i = 0; i < 50; i++) {
      for (const store of [a, b]) {
        const number = store.trackingNumbers.next('WB');
        expect(seen.has(number)).toBe(false);
        seen.add(number);
      }
    }
    expect(seen.size).toBe(150);
  });

  it('never hands out a reserved number', () => {
    const store = open(':memory:');
    expect(store.trackingNumbers.reserve('WB000002')).toBe(true);
    expect(store.trackingNumbers.reserve('WB000003')).toBe(true);
    expect(store.trackingNumbers.reserve('WB000002')).toBe(false);
    expect(store.trackingNumbers.next('WB')).toBe('WB000001');
    expect(store.trackingNumbers.next('WB')).toBe('WB000004');
    expect(store.trackingNumbers.reserve('WB000004')).toBe(false);
  });

  it('never reuses a number even if the counters were reset', () => {
    const path = join(dir, 'bot.sqlite');
    const first = open(path);
    const handedOut = [first.trackingNumbers.next('WB'), first.trackingNumbers.next('WB')];
    first.close();

    const db = new Database(path);
    db.prepare('DELETE FROM tracking_counters').run();
    db.close();

    const second = open(path);
    expect(handedOut).toEqual(['WB000001', 'WB000002']);
    expect(second.trackingNumbers.next('WB')).toBe('WB000003');
  });

  it('rejects a prefix that could not be on a label', () => {
    const store = open(':memory:');
    expect(() => store.trackingNumbers.next('WB 1')).toThrow(RangeError);
    expect(() => store.trackingNumbers.next('x'.repeat(41))).toThrow(RangeError);
  });
});

describe('persistence', () => {
  it('keeps everything across close and reopen', () => {
    const path = join(dir, 'data', 'waybill-bot.sqlite');
    const clock = fakeClock();
    const before = open(path, { now: clock.now });
    const draft = before.drafts.create({ kind: 'booking', userId: 'U1', channelId: 'C1', data: { a: 1 } });
    before.bookings.insert(bookingInput('WB000001'));
    before.bookings.updateRecord('WB000001', 1, { changed: true }, 'U2');
    before.bookings.setCard('WB000001', { cardChannelId: 'C2', cardTs: '9.9' });
    before.attempts.begin('k', 'book');
    before.attempts.finish('k', 'failed', { message: 'no' });
    before.audit.record({ userId: 'U1', operation: 'book', outcome: 'failed', trackingNumber: 'WB000001' });
    before.trackingNumbers.reserve('WB000002');
    const snapshot = {
      draft: before.drafts.get(draft.id),
      booking: before.bookings.get('WB000001'),
      attempt: before.attempts.get('k'),
      audit: before.audit.list(),
    };
    before.close();
    before.close(); // harmless

    const after = open(path, { now: clock.now });
    expect({
      draft: after.drafts.get(draft.id),
      booking: after.bookings.get('WB000001'),
      attempt: after.attempts.get('k'),
      audit: after.audit.list(),
    }).toEqual(snapshot);
    expect(after.trackingNumbers.next('WB')).toBe('WB000003');
  });
});
