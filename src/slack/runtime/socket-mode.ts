/** Socket Mode envelopes read by us: every one Slack would send again is acknowledged, whatever it holds. */
import type { App, SocketModeReceiverOptions } from '@slack/bolt';
import type { Logger } from 'pino';
import { SocketModeReceiver } from './bolt.js';

/** The envelopes that carry a request; `hello` and `disconnect` are Slack's own, for the client. */
const REQUESTS = new Set(['events_api', 'slash_commands', 'interactive']);
const CONTROL = new Set(['hello', 'disconnect']);

type Envelope = {
  envelope_id?: unknown;
  type?: unknown;
  payload?: unknown;
  retry_attempt?: unknown;
  retry_reason?: unknown;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An envelope's type if it is text: `String()` of any other value may throw (`{ "toString": "" }`). */
const typeOf = (envelope: Envelope): string => (typeof envelope.type === 'string' ? envelope.type : '');

/**
 * The Socket Mode receiver, reading each message from Slack itself. Slack's client emits an
 * envelope's type (and an event's) as an event of its own, so a malformed one throws where nobody
 * catches it, or lands on the client's own events ("error", "ws_message"); and Bolt acknowledges
 * only what a listener acknowledges, so an unknown button, form or command is sent again and again.
 * Here Slack's control messages go to its client; an envelope with an id is handed to Bolt if it
 * carries a request, and acknowledged in every case: by its listener, or once Bolt is done with it
 * (an error, or no listener), or at once if it is not a request the bot can read. Each is logged.
 */
export class EnvelopeReceiver extends SocketModeReceiver {
  #app: App | undefined;

  constructor(options: SocketModeReceiverOptions, logger: Logger) {
    super(options);
    const { client } = this;
    const [forClient] = client.listeners('ws_message') as ((data: unknown, isBinary: boolean) => unknown)[];
    client.removeAllListeners('ws_message');
    client.removeAllListeners('slack_event');
    client.on('ws_message', (data: unknown, isBinary: boolean) => {
      const envelope = readEnvelope(data, isBinary);
      if (!envelope) {
        logger.warn('a Socket Mode message that is not an envelope was ignored');
        return;
      }
      if (CONTROL.has(typeOf(envelope))) {
        void Promise.resolve(forClient?.call(client, data, isBinary)).catch((err: unknown) =>
          logger.warn({ err }, 'a Socket Mode control message failed'),
        );
        return;
      }
      this.#handle(envelope, logger).catch((err: unknown) =>
        logger.warn({ err }, 'a Socket Mode envelope could not be acknowledged'),
      );
    });
  }

  override init(app: App): void {
    super.init(app);
    this.#app = app;
  }

  async #handle(envelope: Envelope, logger: Logger): Promise<void> {
    const id = envelope.envelope_id;
    if (typeof id !== 'string' || id === '') {
      logger.warn({ type: envelope.type }, 'a Socket Mode envelope without an id was ignored');
      return;
    }
    let acked = false;
    const ack = async (response?: unknown) => {
      if (acked) return;
      acked = true;
      // The client's own acknowledgement (`{ envelope_id, payload }`), typed private but what its ack() calls.
      const { client } = this as unknown as { client: { send(id: string, body?: unknown): Promise<void> } };
      await client.send(id, response);
    };
    const { payload } = envelope;
    if (!REQUESTS.has(typeOf(envelope)) || !isObject(payload)) {
      logger.warn({ type: envelope.type }, 'a Socket Mode envelope the bot cannot read was acknowledged');
      await ack();
      return;
    }
    try {
      await this.#app?.processEvent({
        body: payload,
        ack,
        retryNum: typeof envelope.retry_attempt === 'number' ? envelope.retry_attempt : undefined,
        retryReason: typeof envelope.retry_reason === 'string' ? envelope.retry_reason : undefined,
        customProperties: {},
      });
    } catch (err) {
      logger.warn({ err }, 'a Slack request could not be processed');
    }
    if (!acked) {
      logger.warn({ type: envelope.type }, 'nothing answered a Socket Mode envelope: acknowledged');
      await ack();
    }
  }
}

/** The envelope in a text message from Slack, if it is one (an object). */
function readEnvelope(data: unknown, isBinary: boolean): Envelope | undefined {
  if (isBinary || !(typeof data === 'string' || Buffer.isBuffer(data))) return undefined;
  try {
    const parsed: unknown = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
