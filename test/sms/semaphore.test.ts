/** The Semaphore adapter against a fake Semaphore on loopback: what is sent, and what each answer means. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSemaphore } from '../../fakes/semaphore-fake.js';
import { semaphoreGateway } from '../../src/sms/semaphore.js';

const API_KEY = 'sem-key-0123456789abcdef';

describe('semaphoreGateway', () => {
  let fake: FakeSemaphore;
  let gateway: ReturnType<typeof semaphoreGateway>;
  beforeEach(async () => {
    fake = await FakeSemaphore.start();
    gateway = semaphoreGateway({ apiKey: API_KEY, url: fake.url, senderName: 'ANASHOP', timeoutMs: 500 });
  });
  afterEach(async () => {
    await gateway.close();
    await fake.stop().catch(() => undefined);
  });

  it('sends apikey, number, message and sendername, and keeps the message id', async () => {
    expect(await gateway.send('639171234567', 'Hello')).toEqual({ kind: 'sent', messageId: '1001' });
    expect(fake.calls).toEqual([
      {
        apikey: API_KEY,
        number: '639171234567',
        message: 'Hello',
        sendername: 'ANASHOP',
        at: expect.any(Number),
      },
    ]);
  });

  it('429 and 503 were not taken: unavailable, with Retry-After when given', async () => {
    fake.respond({ status: 429, retryAfter: 30 }, { status: 503 });
    expect(await gateway.send('639171234567', 'a')).toEqual({
      kind: 'unavailable',
      reason: 'Semaphore asked to slow down (429)',
      retryAfterMs: 30_000,
    });
    expect(await gateway.send('639171234567', 'a')).toMatchObject({ kind: 'unavailable' });
  });

  it('a refusal says why, never with the key', async () => {
    fake.respond({ status: 422, body: { number: ['The number format is invalid.'], apikey: [API_KEY] } });
    const outcome = await gateway.send('639171234567', 'a');
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(JSON.stringify(outcome)).toContain('The number format is invalid.');
    expect(JSON.stringify(outcome)).not.toContain(API_KEY.slice(4));
  });

  it('no answer after sending, or a 500, may have been taken: unknown, never unavailable', async () => {
    fake.respond('hang', { status: 500 });
    expect(await gateway.send('639171234567', 'a')).toMatchObject({ kind: 'unknown' });
    expect(await gateway.send('639171234567', 'a')).toMatchObject({ kind: 'unknown' });
  });

  it('a gateway that cannot be reached is unavailable: safe to send later', async () => {
    await fake.stop();
    expect(await gateway.send('639171234567', 'a')).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringContaining('could not be reached'),
    });
  });
});
