/** The one form-draft model: saved once with its changes and the next rev. */
// The one form-draft model: a draft shown again is saved once, with its changes and the next rev.
import { describe, expect, it } from 'vitest';
import { type FormDraftData, nextRev, saveToShow } from '../../../src/slack/kit/drafts.js';
import type { Draft } from '../../../src/store/index.js';
import { draftOf } from '../../support/unit-core.js';

interface Form extends FormDraftData {
  input: Record<string, unknown>;
  step?: string;
}

describe('nextRev', () => {
  it('bumps the rev (from none to 1) with the changes applied, the data given left as it was', () => {
    const data: Form = { input: { a: 1 } };
    expect(nextRev(data)).toEqual({ input: { a: 1 }, rev: 1 });
    expect(nextRev({ ...data, rev: 4 }, { step: 'parcels' })).toEqual({
      input: { a: 1 },
      rev: 5,
      step: 'parcels',
    });
    expect(data).toEqual({ input: { a: 1 } });
  });

  it('a rev among the changes does not stop the bump', () => {
    expect(nextRev<Form>({ input: {}, rev: 2 }, { rev: 0 }).rev).toBe(3);
  });
});

describe('saveToShow', () => {
  it('saves the draft once, under its id, with the changes and the next rev, and returns what was saved', async () => {
    const saved: [string, unknown][] = [];
    const drafts = {
      save: async <T>(id: string, data: T): Promise<Draft<T>> => {
        saved.push([id, data]);
        return { ...draftOf(data), version: 2 };
      },
    };
    const shown = await saveToShow(drafts, draftOf<Form>({ input: { a: 1 }, rev: 1 }), { step: 'sender' });
    expect(saved).toEqual([['D1', { input: { a: 1 }, rev: 2, step: 'sender' }]]);
    expect(shown.data.rev).toBe(2);
    expect(shown.version).toBe(2);
  });
});
