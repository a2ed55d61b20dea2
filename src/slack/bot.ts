/** The Bolt app: its receiver, the guards every request passes, and each feature's listeners. */
import type { Server, ServerOptions } from 'node:http';
import type { Server as HTTPSServer, ServerOptions as HTTPSServerOptions } from 'node:https';
import type { ListenOptions } from 'node:net';
import type { SocketModeReceiver } from '@slack/bolt';
import { ConfigError } from '../settings-error.js';
import { listenFailure } from '../startup.js';
import type { Core } from './core.js';
import type { FeatureJobs } from './feature.js';
import { features } from './features.js';
import { aroundRequests } from './guards/around-request.js';
import { readSlackRequests } from './guards/body-guard.js';
import { MalformedRequestError, NUL_FREE, refuseMalformed, surelyNulFree } from './guards/malformed.js';
import * as modalClosed from './guards/modal-closed.js';
import { instrumentRequests, requestFailed } from './guards/requests.js';
import { retryGuard } from './guards/retries.js';
import { storeFaultGuard } from './guards/store-faults.js';
import { answerUnmatched, markFailed } from './guards/unmatched.js';
import { App, HTTPReceiver } from './runtime/bolt.js';
import { boltLogger } from './runtime/bolt-logger.js';
import { waitOutRateLimits } from './runtime/rate-limits.js';
import { slackErrorCode } from './runtime/slack-errors.js';
import { EnvelopeReceiver } from './runtime/socket-mode.js';
import type { SlackConfig } from './settings.js';
import * as waybillCommand from './waybill-command.js';

export interface BotOptions {
  slack: SlackConfig;
  deps: Core;
  /** Known bot identity: Bolt then skips its unawaited auth.test at construction. */
  identity?: { botId: string; botUserId: string };
  /** Tests only: answer Slack after the listener finishes, so bodies are deterministic. */
  processBeforeResponse?: boolean;
  /** Tests only: how long Bolt's HTTP receiver waits for an ack before its own 404 (default about 3 s). */
  unhandledRequestTimeoutMs?: number;
  /** Extra WebClient options (tests: retryConfig). */
  clientOptions?: { retryConfig?: { retries: number; minTimeout?: number; maxTimeout?: number } };
  /** How long one Web API call may wait out rate limits in all (default RATE_LIMIT_WAIT_MS). */
  rateLimitWaitMs?: number;
}

/**
 * The Bolt app: Socket Mode when an app-level token is set, otherwise HTTP on /slack/events with
 * signature verification always on and GET /healthz for load balancers.
 */
export function createBot({
  slack,
  deps,
  identity,
  processBeforeResponse = false,
  unhandledRequestTimeoutMs,
  clientOptions,
  rateLimitWaitMs,
}: BotOptions): App {
  const common = {
    token: slack.botToken,
    signingSecret: slack.signingSecret,
    logger: boltLogger(deps.logger),
    // No listener reads Bolt's conversation store: without it, no lookup runs for every request.
    convoStore: false as const,
    // Rate limits (429) are waited out as Slack's Retry-After says (rate-limits.ts); other failures are
    // retried a few times within about a minute, not the WebClient's default half hour.
    clientOptions: {
      retryConfig: { retries: 4, factor: 2, minTimeout: 1000, maxTimeout: 20_000 },
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
      // Every Web API call passes here: its failures and rate-limit waits are counted.
      fetch: waitOutRateLimits(deps.metrics.slackFetch(), rateLimitWaitMs),
      ...clientOptions,
    },
    ...identity,
  };
  const app = new App({
    ...common,
    // The error handler sees the request's context, so a listener's failure is not taken for no listener.
    extendedErrorHandler: true,
    receiver: slack.appToken
      ? socketModeReceiver(slack.appToken, slack, deps)
      : httpReceiver(slack, deps, { processBeforeResponse, unhandledRequestTimeoutMs }),
  });
  // Innermost, so that a refused request is counted and timed like any other.
  // Around each request, outermost first: timed and counted (the unmatched answers too); answered
  // when no listener did; refused when malformed, before Bolt reads it.
  app.processEvent = aroundRequests(app.processEvent.bind(app), [
    instrumentRequests(deps),
    answerUnmatched(app.client, deps),
    refuseMalformed,
  ]);
  // Before every listener: a database out of reach told plainly, and Slack's re-deliveries. Who may do
  // what each listener states itself (`requires`), so a refusal never reaches the courier.
  app.use(storeFaultGuard(deps));
  app.use(retryGuard(deps));
  for (const { register } of features) {
    const jobs: FeatureJobs = register?.(app, deps) ?? {};
    for (const [name, job] of Object.entries(jobs)) deps.jobs.add(name, job);
  }
  // Last: /waybill routes to the features' verbs; a closed modal is answered whatever its feature.
  waybillCommand.register(app, deps);
  modalClosed.register(app, deps);
  app.error(async ({ error, context }: { error: Error; context?: Record<string, unknown> }) => {
    requestFailed();
    markFailed(context, error);
    deps.logger.error({ err: error }, 'listener failed');
  });
  return app;
}

/**
 * Logs a request Bolt could not process, and says whether the sender is at fault: a payload Bolt
 * cannot even route (no user, actions not a list) or one it must not see (malformed.ts) is, where a
 * failure of ours is not. (Socket Mode's envelopes are looked after by EnvelopeReceiver.)
 */
function senderAtFault(error: Error, deps: Pick<Core, 'logger'>): boolean {
  deps.logger.warn({ err: error }, 'a Slack request could not be processed');
  return error instanceof TypeError || error instanceof MalformedRequestError;
}

/** Socket Mode: every envelope acknowledged, whatever it holds (EnvelopeReceiver). */
function socketModeReceiver(
  appToken: string,
  slack: SlackConfig,
  deps: Pick<Core, 'logger' | 'probes'>,
): SocketModeReceiver {
  const receiver = new EnvelopeReceiver(
    {
      appToken,
      logger: boltLogger(deps.logger),
      // The Socket Mode client's own WebClient (apps.connections.open) goes where the bot's does.
      ...(slack.apiUrl ? { installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl } } } : {}),
    },
    deps.logger,
  );
  // Ready only while the WebSocket is open: Slack's requests arrive on nothing else.
  let open = false;
  receiver.client.on('connected', () => {
    open = true;
  });
  // 'close': the WebSocket closed, and the client waits before it opens the next ('reconnecting').
  for (const state of ['close', 'disconnecting', 'disconnected', 'reconnecting'])
    receiver.client.on(state, () => {
      open = false;
    });
  deps.probes.receivingWhen(() => open);
  return receiver;
}

/**
 * Bolt's HTTP receiver, ready while its server listens (a stopping bot closes it first), and holding
 * work after acks from the moment a request's headers are read, while its body is still coming.
 */
class ProbedHTTPReceiver extends HTTPReceiver {
  constructor(
    options: ConstructorParameters<typeof HTTPReceiver>[0],
    private readonly deps: Pick<Core, 'probes' | 'inFlight'>,
  ) {
    super(options);
  }

  override start(port: number): Promise<Server>;
  override start(port: string): Promise<Server>;
  override start(
    portOrListenOptions: number | string | ListenOptions,
    serverOptions?: ServerOptions,
  ): Promise<Server>;
  override start(
    portOrListenOptions: number | string | ListenOptions,
    httpsServerOptions?: HTTPSServerOptions,
  ): Promise<HTTPSServer>;
  override async start(
    portOrListenOptions: number | string | ListenOptions,
    serverOptions?: ServerOptions | HTTPSServerOptions,
  ): Promise<Server | HTTPSServer> {
    const server: Server = await super.start(portOrListenOptions, serverOptions);
    this.deps.probes.receivingWhen(() => server.listening);
    server.prependListener('request', (request, response) => {
      if (request.url?.startsWith('/slack/events')) response.once('close', this.deps.inFlight.awaitingAck());
    });
    return server;
  }
}

/** HTTP mode: /slack/events and the probes; a request Bolt cannot use is answered 400, never left hanging. */
function httpReceiver(
  slack: SlackConfig,
  deps: Pick<Core, 'logger' | 'probes' | 'inFlight'>,
  options: { processBeforeResponse: boolean; unhandledRequestTimeoutMs?: number },
): HTTPReceiver {
  const receiver = new ProbedHTTPReceiver(
    {
      signingSecret: slack.signingSecret,
      // Checked by readSlackRequests, which hands Bolt only what it has checked.
      signatureVerification: false,
      logger: boltLogger(deps.logger),
      processBeforeResponse: options.processBeforeResponse,
      customPropertiesExtractor: (req) => ({
        [NUL_FREE]: surelyNulFree(
          (req as { rawBody: Buffer }).rawBody,
          req.headers['content-type'] === 'application/json',
        ),
      }),
      ...(options.unhandledRequestTimeoutMs
        ? { unhandledRequestTimeoutMillis: options.unhandledRequestTimeoutMs }
        : {}),
      customRoutes: deps.probes.routes(),
      processEventErrorHandler: async ({ error, response }) => {
        const senderFault = senderAtFault(error, deps);
        if (response.headersSent) return false;
        response.writeHead(senderFault ? 400 : 500);
        response.end();
        return true;
      },
    },
    deps,
  );
  readSlackRequests(receiver, {
    signingSecret: slack.signingSecret,
    endpoint: '/slack/events',
    logger: deps.logger,
  });
  return receiver;
}

/**
 * Starts receiving: Socket Mode connects to Slack, HTTP mode listens on PORT (its server and port are
 * returned). A refused app token or a taken port is a one-line start-up failure.
 */
export async function startReceiving(
  app: App,
  slack: SlackConfig,
): Promise<{ server?: Server; port?: number }> {
  if (slack.appToken) {
    await app.start().catch((err: unknown) => {
      const code = slackErrorCode(err);
      if (!code) throw err;
      throw new ConfigError(
        `SLACK_APP_TOKEN was refused by Slack (${code}): copy the app-level token with connections:write again (Basic Information → App-Level Tokens)`,
      );
    });
    return {};
  }
  const server = (await app.start(slack.port).catch((err: unknown) => {
    throw listenFailure(err, 'PORT', slack.port);
  })) as Server;
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : undefined };
}
