/** The courier the bot talks to: the embedded sandbox or the real API, per WAYBILL_ENV. */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createWaybillClient, type WaybillClient, type WaybillClientOptions } from './client.js';

export interface Upstream {
  client: WaybillClient;
  /** Where requests go (no token in it). */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The courier as configured: the real test or live address, or, by default, the embedded sandbox
 * started in-process on a loopback port, so the bot runs without a courier account.
 */
export async function connectUpstream(
  config: {
    env: string;
    baseUrl?: string | undefined;
    token?: string | undefined;
    timeoutMs: number;
    sandboxLatencyMs: number;
  },
  logger: Logger,
  observe?: WaybillClientOptions['observe'],
): Promise<Upstream> {
  const clientOptions = { timeoutMs: config.timeoutMs, logger, ...(observe ? { observe } : {}) };
  if (config.env !== 'sandbox' && config.baseUrl && config.token) {
    const client = createWaybillClient({ ...clientOptions, baseUrl: config.baseUrl, token: config.token });
    return { client, baseUrl: config.baseUrl, close: () => client.close() };
  }
  // A fresh random token: the sandbox is only reachable from this process's loopback anyway.
  const token = randomBytes(24).toString('base64url');
  // Loaded only here: a bot against the courier's test or live API never holds the sandbox's code.
  const { startSandbox } = await import('./sandbox/server.js');
  const sandbox = await startSandbox({
    token,
    ...(config.sandboxLatencyMs > 0 ? { faults: { latencyMs: config.sandboxLatencyMs } } : {}),
  });
  const client = createWaybillClient({ ...clientOptions, baseUrl: sandbox.baseUrl, token });
  return {
    client,
    baseUrl: sandbox.baseUrl,
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}
