/**
 * The courier as the bot starts it: the embedded sandbox listens only once the first call needs it,
 * serves the calls made meanwhile and after from the same server, and closes whether it was started or not.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { connectUpstream } from '../../src/waybill/upstream.js';
import { sampleQuotation } from '../support/wire-samples.js';

const logger = createLogger({ level: 'silent' });
const sandboxConfig = { env: 'sandbox', timeoutMs: 5000, sandboxLatencyMs: 0 };

/** Listening TCP servers in this process. */
const servers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('the embedded sandbox courier', () => {
  it('starts listening with the first call, not before, and every call after it is served by the same server', async () => {
    const before = servers();
    const upstream = await connectUpstream(sandboxConfig, logger);
    expect(servers()).toBe(before);
    try {
      const [first, second] = await Promise.all([
        upstream.client.quote(sampleQuotation()),
        upstream.client.quote(sampleQuotation()),
      ]);
      expect(first.totalCharge).toMatch(/^\d+\.\d{2}$/);
      expect(second).toEqual(first);
      expect(servers()).toBe(before + 1);
    } finally {
      await upstream.close();
    }
  });

  it('closes at once when no call ever started it', async () => {
    const before = servers();
    const upstream = await connectUpstream(sandboxConfig, logger);
    await upstream.close();
    expect(servers()).toBe(before);
  });
});
