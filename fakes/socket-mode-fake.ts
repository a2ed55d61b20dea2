/**
 * Slack's side of Socket Mode over a real loopback WebSocket, for tests.
 *
 * The fake Slack Web API answers `apps.connections.open` with `url`; the bot's Socket Mode client
 * connects here and is greeted with `hello`. `deliver` takes a request body as Slack would POST it
 * over HTTP (a slash command's form, `payload=…` of an interaction, an Events API JSON body) and
 * sends it as the envelope Socket Mode uses for it, then resolves with the bot's acknowledgement
 * in the shape of an HTTP answer, so the same Slack driver runs a flow in either mode.
 * `X-Slack-Retry-Num`/`-Reason` headers become the envelope's `retry_attempt`/`retry_reason`.
 * `disconnect(reason)` sends Slack's `disconnect` message, as Slack does before it refreshes a
 * connection.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppResponse, PostOptions } from './slack-requests.js';

export interface SocketModeFake {
  /** What `apps.connections.open` hands out. */
  url: string;
  /** How many connections the bot has opened so far. */
  connectionsOpened(): number;
  /** Resolves once the bot has opened this many connections and holds an open one. */
  waitForConnection(count: number): Promise<void>;
  deliver(rawBody: string, options?: PostOptions): Promise<AppResponse>;
  /**
   * Sends `message` as it is: an envelope of any shape (resolving with the payload of the bot's
   * acknowledgement once one comes for its `envelope_id`), or raw text or bytes (resolving at once).
   */
  sendRaw(message: Record<string, unknown> | string | Buffer): Promise<unknown>;
  /** Slack's `disconnect` message on the open connection (`refresh_requested`, `warning`, …). */
  disconnect(reason: string): void;
  close(): Promise<void>;
}

type Envelope = { type: string; payload: unknown };

/** The envelope Socket Mode uses for a body Slack would POST over HTTP. */
function envelopeFor(rawBody: string): Envelope {
  if (rawBody.startsWith('{')) return { type: 'events_api', payload: JSON.parse(rawBody) };
  const form = new URLSearchParams(rawBody);
  const interaction = form.get('payload');
  if (interaction !== null) return { type: 'interactive', payload: JSON.parse(interaction) };
  return { type: 'slash_commands', payload: Object.fromEntries(form) };
}

export async function startSocketModeFake(): Promise<SocketModeFake> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  let opened = 0;
  let current: WebSocket | undefined;
  const acks = new Map<string, (payload: unknown) => void>();
  const connectionWaiters: Array<() => void> = [];

  server.on('connection', (socket) => {
    opened += 1;
    current = socket;
    socket.on('message', (data) => {
      const ack = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
      if (ack.envelope_id) acks.get(ack.envelope_id)?.(ack.payload);
    });
    socket.on('close', () => {
      if (current === socket) current = undefined;
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'fake-socket-mode', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0001' },
      }),
    );
    for (const wake of connectionWaiters.splice(0)) wake();
  });

  const openSocket = (): WebSocket => {
    if (!current) throw new Error('the bot holds no Socket Mode connection');
    return current;
  };

  return {
    url: `ws://127.0.0.1:${port}/link/?ticket=fake`,
    connectionsOpened: () => opened,
    async waitForConnection(count) {
      while (opened < count || !current) await new Promise<void>((wake) => connectionWaiters.push(wake));
    },
    deliver(rawBody, options = {}) {
      const envelopeId = randomUUID();
      const retryNum = options.headers?.['X-Slack-Retry-Num'];
      const acked = new Promise<unknown>((resolve) => acks.set(envelopeId, resolve));
      openSocket().send(
        JSON.stringify({
          envelope_id: envelopeId,
          ...envelopeFor(rawBody),
          accepts_response_payload: true,
          ...(retryNum
            ? { retry_attempt: Number(retryNum), retry_reason: options.headers?.['X-Slack-Retry-Reason'] }
            : {}),
        }),
      );
      return acked.then((payload) => {
        acks.delete(envelopeId);
        // An ack with nothing to say arrives as `{}`; over HTTP that is an empty 200.
        const empty = payload === undefined || Object.keys(payload as object).length === 0;
        return { status: 200, body: empty ? '' : payload, headers: new Headers() };
      });
    },
    sendRaw(message) {
      if (typeof message === 'string' || Buffer.isBuffer(message)) {
        openSocket().send(message, { binary: Buffer.isBuffer(message) });
        return Promise.resolve(undefined);
      }
      const envelopeId = message.envelope_id;
      const acked =
        typeof envelopeId === 'string'
          ? new Promise<unknown>((resolve) => acks.set(envelopeId, resolve)).finally(() =>
              acks.delete(envelopeId),
            )
          : Promise.resolve(undefined);
      openSocket().send(JSON.stringify(message));
      return acked;
    },
    disconnect(reason) {
      openSocket().send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake' } }));
    },
    async close() {
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
