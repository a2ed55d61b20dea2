/**
 * Slack's 429s waited out at the network edge: sent again after Retry-After until the waits would pass
 * the budget (each counted as at least a second), then the 429 handed on; other answers handed on at once.
 */
import { describe, expect, it } from 'vitest';
import { waitOutRateLimits } from '../../../src/slack/runtime/rate-limits.js';

/** A fetch answering from `answers` in turn (the last again once they run out), counting its calls. */
function scripted(...answers: { status: number; retryAfter?: string }[]) {
  const sent: unknown[] = [];
  const fetchImpl = (async (_input: unknown, init?: RequestInit) => {
    sent.push(init?.body);
    const { status, retryAfter } = answers[Math.min(sent.length, answers.length) - 1] ?? { status: 200 };
    return new Response('{}', {
      status,
      headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
    });
  }) as typeof fetch;
  return { fetchImpl, sent };
}

describe('waitOutRateLimits', () => {
  it('sends the same request again after each 429 until it is answered', async () => {
    const { fetchImpl, sent } = scripted(
      { status: 429, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
      { status: 200 },
    );
    const response = await waitOutRateLimits(fetchImpl)('https://slack.test/api/chat.postMessage', {
      body: 'text=hi',
    });
    expect(response.status).toBe(200);
    expect(sent).toEqual(['text=hi', 'text=hi', 'text=hi']);
  });

  it('hands the 429 on once the waits would pass the budget, a Retry-After of 0 counted as a second', async () => {
    const { fetchImpl, sent } = scripted({ status: 429, retryAfter: '0' });
    const response = await waitOutRateLimits(fetchImpl, 3000)('https://slack.test/api/chat.postMessage');
    expect(response.status).toBe(429);
    expect(sent).toHaveLength(4);
  });

  it('hands on at once a 429 without a readable Retry-After, and any other answer', async () => {
    for (const answer of [
      { status: 429 },
      { status: 429, retryAfter: 'soon' },
      { status: 500, retryAfter: '0' },
    ]) {
      const { fetchImpl, sent } = scripted(answer);
      const response = await waitOutRateLimits(fetchImpl)('https://slack.test/api/chat.postMessage');
      expect(response.status).toBe(answer.status);
      expect(sent).toHaveLength(1);
    }
  });
});
