/**
 * SQLite statements prepared once per text, the 200 used last kept, one being iterated never handed out
 * again.
 */
// The SQLite store's statements: prepared once per SQL text, bounded, never handed out while in use.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { preparingOnce } from '../../src/store/backend.js';

function database() {
  const db = new Database(':memory:');
  db.exec('create table t (n integer)');
  db.exec('insert into t values (1), (2), (3)');
  return db;
}

describe('SQLite statements', () => {
  it('are prepared once per text and run again with new parameters', () => {
    const preparing = preparingOnce(database());
    const first = preparing.prepare('select n from t where n > ?');
    expect(preparing.prepare('select n from t where n > ?')).toBe(first);
    expect(preparing.prepare('select n from t where n < ?')).not.toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(preparing.prepare('select n from t where n > ?').all([2])).toEqual([{ n: 3 }]);
  });

  it('keep the 200 used last: the least recently used is prepared anew', () => {
    const preparing = preparingOnce(database());
    const oldest = preparing.prepare('select 0');
    const used = preparing.prepare('select 1');
    for (let i = 2; i < 200; i += 1) preparing.prepare(`select ${i}`);
    // 200 kept. 'select 1' used again is no longer the least recent: the next two texts push out
    // 'select 0' and 'select 2', not it.
    expect(preparing.prepare('select 1')).toBe(used);
    preparing.prepare('select 200');
    preparing.prepare('select 201');
    expect(preparing.prepare('select 1')).toBe(used);
    expect(preparing.prepare('select 0')).not.toBe(oldest);
  });

  it('give a statement still being iterated to nobody else', () => {
    const preparing = preparingOnce(database());
    const reading = preparing.prepare('select n from t');
    const rows = reading.iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    const meanwhile = preparing.prepare('select n from t');
    expect(meanwhile).not.toBe(reading);
    expect(meanwhile.all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
    expect(preparing.prepare('select n from t')).toBe(reading);
  });
});
