/** The courier the bot talks to: the embedded sandbox or the real API, per WAYBILL_ENV. */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createWaybillClient, type WaybillClient, type WaybillClientOptions } from './client.js';

export interface Upstream {
  client: WaybillClient;
  close(): Promise<void>;
}

type UpstreamConfig = {
  env: string;
  baseUrl?: string | undefined;
  token?: string | undefined;
  timeoutMs: number;
  sandboxLatencyMs: number;
};

/**
 * The courier as configured: the real test or live address, or, by default, the embedded sandbox on a
 * loopback port, so the bot runs without a courier account. The sandbox starts with the first call:
 * its code and server are kept off start-up (about 40 ms and 2 MB, npm run bench).
 */
export async function connectUpstream(
  config: UpstreamConfig,
  logger: Logger,
  observe?: WaybillClientOptions['observe'],
): Promise<Upstream> {
  const clientOptions = { timeoutMs: config.timeoutMs, logger, ...(observe ? { observe } : {}) };
  if (config.env !== 'sandbox' && config.baseUrl && config.token) {
    const client = createWaybillClient({ ...clientOptions, baseUrl: config.baseUrl, token: config.token });
    return { client, close: () => client.close() };
  }
  let started: Promise<Upstream> | undefined;
  const sandbox = () => {
    started ??= startedSandbox(config, clientOptions).catch((err: unknown) => {
      started = undefined; // the next call tries again
      throw err;
    });
    return started;
  };
  const close = async () => {
    const running = await started?.catch(() => undefined);
    await running?.close();
  };
  const client: WaybillClient = {
    quote: async (body) => (await sandbox()).client.quote(body),
    book: async (body) => (await sandbox()).client.book(body),
    update: async (body) => (await sandbox()).client.update(body),
    close,
  };
  return { client, close };
}

async function startedSandbox(
  config: UpstreamConfig,
  clientOptions: Omit<WaybillClientOptions, 'baseUrl' | 'token'>,
): Promise<Upstream> {
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
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}
