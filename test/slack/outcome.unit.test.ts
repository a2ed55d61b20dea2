/**
 * The one outcome model without Bolt: a stored attempt and an operation's failure to an outcome, each
 * rendered in a feature's words in its outcome modal.
 */
// The one outcome model, without Bolt: an attempt's stored state and an operation's result to an outcome, rendered in a feature's words.
import { describe, expect, it } from 'vitest';
import {
  type OutcomeWords,
  outcomeOfAttempt,
  outcomeOfFailure,
  outcomeView,
} from '../../src/slack/kit/outcome.js';

const isDone = (result: unknown): result is { ref: string } =>
  typeof result === 'object' && result !== null && 'ref' in result;

const words: OutcomeWords<{ ref: string }, number> = {
  callbackId: 'test_outcome',
  working: (detail, tn) => ({
    title: 'Working',
    blocks: [{ type: 'divider', block_id: `w-${detail}-${tn}` }],
  }),
  done: ({ ref }, tn) => ({ title: 'Done', blocks: [{ type: 'divider', block_id: `d-${ref}-${tn}` }] }),
  failed: (message) => ({ title: 'Failed', blocks: [{ type: 'divider', block_id: `f-${message}` }] }),
  unknown: (message, key) => ({
    title: 'Unknown',
    blocks: [{ type: 'divider', block_id: `u-${message}-${key}` }],
  }),
  inFlight: (tn) => ({ title: 'In flight', blocks: [{ type: 'divider', block_id: `i-${tn}` }] }),
};

describe('outcomeOfAttempt', () => {
  it.each([
    [
      { key: 'k', state: 'succeeded', result: { ref: 'R1' } },
      { state: 'done', detail: { ref: 'R1' } },
    ],
    [
      { key: 'k', state: 'failed', result: { message: 'refused' } },
      { state: 'failed', message: 'refused' },
    ],
    [
      { key: 'k', state: 'unknown', result: { message: 'timed out' } },
      { state: 'unknown', message: 'timed out', attemptKey: 'k' },
    ],
    [
      { key: 'k', state: 'unknown' },
      { state: 'unknown', message: '', attemptKey: 'k' },
    ],
    [{ key: 'k', state: 'in-flight' }, { state: 'in-flight' }],
    // A success whose result is not a success's (an old row, say) is not shown as done.
    [{ key: 'k', state: 'succeeded', result: { message: 'odd' } }, { state: 'in-flight' }],
  ])('%o is %o', (attempt, outcome) => {
    expect(outcomeOfAttempt(attempt, isDone)).toEqual(outcome);
  });
});

describe('outcomeOfFailure', () => {
  it('keeps the message; only an unknown outcome names the attempt to resolve', () => {
    expect(outcomeOfFailure({ state: 'failed', message: 'no' }, 'k')).toEqual({
      state: 'failed',
      message: 'no',
    });
    expect(outcomeOfFailure({ state: 'unknown', message: '?' }, 'k')).toEqual({
      state: 'unknown',
      message: '?',
      attemptKey: 'k',
    });
  });
});

describe('outcomeView', () => {
  const frame = { trackingNumber: 'TN1', env: 'live' as const, metadata: '{"draftId":"d1"}' };
  it.each([
    [{ state: 'working', detail: 3 } as const, 'Working', 'w-3-TN1'],
    [{ state: 'done', detail: { ref: 'R1' } } as const, 'Done', 'd-R1-TN1'],
    [{ state: 'failed', message: 'no' } as const, 'Failed', 'f-no'],
    [{ state: 'unknown', message: '?', attemptKey: 'k' } as const, 'Unknown', 'u-?-k'],
    [{ state: 'in-flight' } as const, 'In flight', 'i-TN1'],
  ])('renders %o with the words for it, in the feature’s outcome modal', (outcome, title, blockId) => {
    const view = outcomeView(words, outcome, frame);
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'test_outcome',
      title: { type: 'plain_text', text: title },
      private_metadata: frame.metadata,
      notify_on_close: true,
    });
    expect(view.blocks.map((block) => block.block_id)).toEqual([blockId]);
  });
});
