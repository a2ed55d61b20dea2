/** The Bolt app: its receiver, the guards every request passes, and each feature's listeners. */
import type { Server } from 'node:http';
import { App, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import { ConfigError, type SlackConfig } from '../config.js';
import { listenFailure } from '../startup.js';
import * as addresses from './addresses/index.js';
import * as book from './book/index.js';
import * as bulk from './bulk/index.js';
import type { BotDeps } from './deps.js';
import * as home from './home/index.js';
import * as quote from './quote/index.js';
import { accessGuard } from './shared/access.js';
import { refuseNonObjectBodies } from './shared/body-guard.js';
import { boltLogger } from './shared/bolt-logger.js';
import { healthzRoute } from './shared/healthz.js';
import * as modalClosed from './shared/modal-closed.js';
import { retryGuard } from './shared/retries.js';
import { slackErrorCode } from './shared/slack-errors.js';
import { storeFaultGuard } from './shared/store-faults.js';
import * as update from './update/index.js';

export interface BotOptions {
  slack: SlackConfig;
  deps: BotDeps;
  /** Known bot identity: Bolt then skips its unawaited auth.test at construction. */
  identity?: { botId: string; botUserId: string };
  /** Tests only: answer Slack after the listener finishes, so bodies are deterministic. */
  processBeforeResponse?: boolean;
  /** Extra WebClient options (tests: retryConfig). */
  clientOptions?: { retryConfig?: { retries: number; minTimeout?: number; maxTimeout?: number } };
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
  clientOptions,
}: BotOptions): App {
  const common = {
    token: slack.botToken,
    signingSecret: slack.signingSecret,
    logger: boltLogger(deps.logger),
    // Rate limits (429) are waited out as Slack's Retry-After says; other failures are retried a few
    // times within about a minute, not the WebClient's default half hour.
    clientOptions: {
      retryConfig: { retries: 4, factor: 2, minTimeout: 1000, maxTimeout: 20_000 },
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
      ...clientOptions,
    },
    ...identity,
  };
  const app = new App({
    ...common,
    receiver: slack.appToken
      ? socketModeReceiver(slack.appToken, slack, deps)
      : httpReceiver(slack, deps, processBeforeResponse),
  });
  // Before every listener: a database out of reach told plainly, Slack's re-deliveries, then who may
  // do what (a refusal never reaches the courier).
  app.use(storeFaultGuard(deps));
  app.use(retryGuard(deps));
  app.use(accessGuard(deps));
  for (const feature of [quote, book, update, addresses, bulk, home, modalClosed])
    feature.register(app, deps);
  app.error(async (error) => {
    deps.logger.error({ err: error }, 'listener failed');
  });
  return app;
}

/**
 * Logs a request Bolt could not process, and says whether the sender is at fault: a payload Bolt
 * cannot even route (no user, actions not a list) is, where a failure of ours is not.
 */
function senderAtFault(error: Error, deps: BotDeps): boolean {
  deps.logger.warn({ err: error }, 'a Slack request could not be processed');
  return error instanceof TypeError;
}

/**
 * Socket Mode: an envelope Bolt cannot route is acknowledged all the same, so Slack does not send it
 * again and again (Bolt's default leaves it unanswered).
 */
function socketModeReceiver(appToken: string, slack: SlackConfig, deps: BotDeps): SocketModeReceiver {
  return new SocketModeReceiver({
    appToken,
    logger: boltLogger(deps.logger),
    // The Socket Mode client's own WebClient (apps.connections.open) goes where the bot's does.
    ...(slack.apiUrl ? { installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl } } } : {}),
    processEventErrorHandler: async ({ error }) => senderAtFault(error, deps),
  });
}

/** HTTP mode: /slack/events and GET /healthz; a request Bolt cannot use is answered 400, never left hanging. */
function httpReceiver(slack: SlackConfig, deps: BotDeps, processBeforeResponse: boolean): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret: slack.signingSecret,
    logger: boltLogger(deps.logger),
    processBeforeResponse,
    customRoutes: [healthzRoute(deps)],
    processEventErrorHandler: async ({ error, response }) => {
      const senderFault = senderAtFault(error, deps);
      if (response.headersSent) return false;
      response.writeHead(senderFault ? 400 : 500);
      response.end();
      return true;
    },
  });
  refuseNonObjectBodies(receiver, {
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
