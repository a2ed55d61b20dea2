/** The whole bot in-process for tests, driven by signed requests, with fake Slack and the sandbox courier. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { App } from '@slack/bolt';
import { expect } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-fake.js';
import {
  type AppResponse,
  blockActionsPayload,
  blockSuggestionPayload,
  eventCallbackBody,
  globalShortcutPayload,
  interactiveBody,
  JSON_CONTENT_TYPE,
  messageShortcutPayload,
  postToApp,
  slashCommandBody,
  viewClosedPayload,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';
import { stateFor } from '../../fakes/view-state.js';
import { loadBotConfig, loadSlackConfig, loadWaybillConfig } from '../../src/config.js';
import { keepStore } from '../../src/lifecycle.js';
import { createLogger } from '../../src/logger.js';
import { createBot } from '../../src/slack/bot.js';
import { type BotDeps, createBotDeps } from '../../src/slack/deps.js';
import { tellAbandoned } from '../../src/slack/shared/attempts.js';
import { ids } from '../../src/slack/shared/ids.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createWaybillClient } from '../../src/waybill/client.js';
import { senderProfiles } from '../../src/waybill/profiles.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import type { TestBackend } from '../store/backends.js';

/**
 * The whole bot in-process, driven the way Slack drives it: signed HTTP requests into Bolt's
 * receiver, the Slack Web API faked at the network edge (slackApiUrl), and the courier sandbox over
 * real loopback HTTP. Every log line is kept, so tests can check no secret ever reached one.
 */

export const secrets = {
  botToken: 'xoxb-test-1111-2222-SECRETBOTTOKEN',
  signingSecret: 'signing-SECRET-0123456789abcdef',
  upstreamToken: 'upstream-SECRET-token-42',
};

export interface View {
  id: string;
  hash?: string;
  callback_id?: string;
  private_metadata?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
  blocks: any[];
  [key: string]: unknown;
}

/** The input element of a form field on a view, by its schema path (block ids carry a `#rev` suffix). */
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
export function elementOf(view: View, path: string): any {
  return view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)
    ?.element;
}

/** The mrkdwn texts of a view (sections and contexts), joined: what the dispatcher reads. */
export const mrkdwnOf = (view: View): string =>
  view.blocks
    .flatMap((b) => [b.text?.text, ...(b.elements ?? []).map((e: { text?: string }) => e.text)])
    .filter((text): text is string => typeof text === 'string')
    .join('\n');

export interface TestBotOptions {
  env?: Record<string, string>;
  /** The store to use (the caller closes it): a file, to test restarts; a second replica's. */
  store?: Store;
  /** Without `store`: a store on this backend's database for the test; default a fresh in-memory SQLite one. */
  backend?: TestBackend;
  sandbox?: Sandbox;
  /** How often Home tabs may be redrawn (default: every 50 ms per person, 5 ms apart). */
  homeRefresh?: { perPersonMs: number; spacingMs: number };
  now?: () => Date;
  timeoutMs?: number;
  /** WebClient retries (default 0, so a failing call fails at once). */
  slackRetries?: number;
}

export interface TestBot {
  url: string;
  app: App;
  fake: FakeSlack;
  sandbox: Sandbox;
  deps: BotDeps;
  logs: string[];
  command(command: string, text?: string, fields?: Record<string, string>): Promise<AppResponse>;
  /** The modal most recently opened with views.open, as Slack holds it (with its id and hash). */
  openedView(): Promise<View>;
  /**
   * The view a submission answered with (`response_action: update`), as the next payload carries it:
   * Slack gives it a new hash, which the fake learns only from views.open/update, so the last of those.
   */
  ackedView(response: AppResponse, viewId: string): View;
  /** The view as last set by views.update for that id. */
  updatedView(viewId: string, predicate?: (view: View) => boolean): Promise<View>;
  /** Submits a view with these values typed (by schema path); other inputs keep their initial values. */
  submit(view: View, typed?: Record<string, string | null>, user?: string): Promise<AppResponse>;
  close(view: View, user?: string): Promise<AppResponse>;
  /** A button in a modal; `typed` is what the inputs on screen hold at that moment. */
  clickInView(
    view: View,
    actionId: string,
    value?: string,
    typed?: Record<string, string | null>,
    user?: string,
  ): Promise<AppResponse>;
  /** A type-ahead menu (external_select) in a modal asking for its options as `value` is typed (block_suggestion). */
  suggest(view: View, blockId: string, actionId: string, value: string, user?: string): Promise<AppResponse>;
  /** An option chosen in a type-ahead menu that dispatches its action (block_actions, external_select). */
  pickInView(
    view: View,
    blockId: string,
    actionId: string,
    value: string,
    text: string,
    typed?: Record<string, string | null>,
    user?: string,
  ): Promise<AppResponse>;
  /** A select that dispatches its action (a sender profile, "Remove a parcel…"). */
  selectInView(
    view: View,
    actionId: string,
    value: string,
    typed?: Record<string, string | null>,
  ): Promise<AppResponse>;
  clickInMessage(
    actionId: string,
    value: string,
    options?: { channelId?: string; messageTs?: string; user?: string },
  ): Promise<AppResponse>;
  /** "Book from this message" on a message with this text (as Slack sends it), in CREQUESTS by default. */
  messageShortcut(text: string, options?: { channelId?: string; user?: string }): Promise<AppResponse>;
  /** A button on the Home tab (no conversation, no response_url). */
  clickInHome(actionId: string, value?: string, user?: string): Promise<AppResponse>;
  /** An Events API delivery, e.g. `{ type: 'app_home_opened', user: 'UDISPATCH', tab: 'home' }`. */
  event(event: Record<string, unknown>): Promise<AppResponse>;
  /** A global shortcut from the shortcut menu ("New booking", "New quote"). */
  globalShortcut(callbackId: string, user?: string): Promise<AppResponse>;
  /**
   * One turn of what the running bot does every lease renewal: calls abandoned by replicas that
   * are gone recorded as outcome unknown and their dispatchers told (then idle, so they were).
   */
  lookAfterStore(): Promise<void>;
  /** Waits until every background task (upstream call, views.update, post) has finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export const fixedNow = new Date('2026-11-23T01:00:00Z');

/** A view as the payloads of actions inside it carry it, with `typed` in its inputs. */
function viewArgs(view: View, typed: Record<string, string | null>) {
  return {
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
    viewId: view.id,
    hash: view.hash ?? 'h1',
    blocks: view.blocks,
    stateValues: stateFor(view.blocks, typed),
  };
}

function viewAction(
  view: View,
  actionId: string,
  typed: Record<string, string | null>,
  extra: { value?: string; blockId?: string; user?: string; action?: Record<string, unknown> },
) {
  return blockActionsPayload({ actionId, user: 'UDISPATCH', ...extra, view: viewArgs(view, typed) });
}

export async function startTestBot(options: TestBotOptions = {}): Promise<TestBot> {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({ level: 'debug', destination, secrets: Object.values(secrets) });
  const fake = await startFakeSlack();
  const sandbox = options.sandbox ?? (await startSandbox({ token: secrets.upstreamToken }));
  const courier = createWaybillClient({
    baseUrl: sandbox.baseUrl,
    token: secrets.upstreamToken,
    timeoutMs: options.timeoutMs ?? 3000,
    logger,
    retryBaseDelayMs: 1,
  });
  const store =
    options.store ??
    (options.backend ? await options.backend.open() : await openStore({ path: ':memory:', leaseRenewMs: 0 }));
  const waybill = loadWaybillConfig({ WAYBILL_TIMEZONE: 'Asia/Manila', ...options.env });
  const slack = loadSlackConfig({
    SLACK_BOT_TOKEN: secrets.botToken,
    SLACK_SIGNING_SECRET: secrets.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    ...options.env,
  });
  const botConfig = loadBotConfig(options.env ?? {});
  const deps = createBotDeps({
    waybill,
    courier,
    store,
    logger,
    bot: botConfig,
    profiles: senderProfiles(waybill.env, botConfig.senderProfilesFile),
    now: options.now ?? (() => fixedNow),
    // Home tabs are redrawn as in production, only sooner, so tests need not wait seconds.
    homeRefresh: options.homeRefresh ?? { perPersonMs: 50, spacingMs: 5 },
  });
  const app = createBot({
    slack,
    deps,
    identity: { botId: 'BBOT', botUserId: 'UBOT' },
    processBeforeResponse: true,
    clientOptions: { retryConfig: { retries: options.slackRetries ?? 0, minTimeout: 0, maxTimeout: 0 } },
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  // As the running bot does; its timer is far off, so a test takes each turn itself.
  const keeping = keepStore({
    store,
    logger,
    everyMs: 60 * 60_000,
    tell: async (abandoned) =>
      deps.inFlight.run('tell abandoned', () =>
        tellAbandoned(app.client, abandoned, { logger, env: waybill.env }),
      ),
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const post = (body: string) => postToApp(url, secrets.signingSecret, body);
  const handedOut = new Set<unknown>();

  const bot: TestBot = {
    url,
    app,
    fake,
    sandbox,
    deps,
    logs,
    command: (command, text = '', fields = {}) =>
      post(
        slashCommandBody({ command, text, fake, user_id: 'UDISPATCH', channel_id: 'CDISPATCH', ...fields }),
      ),
    async openedView() {
      // The modal opens just after the command is acknowledged: wait for one not handed out yet.
      const call = await fake.waitFor('views.open', (c) => !handedOut.has(c));
      handedOut.add(call);
      const answer = call.response?.body as { view?: { id: string; hash: string } } | undefined;
      return { ...(call.body.view as View), id: answer?.view?.id ?? '', hash: answer?.view?.hash };
    },
    ackedView(response, viewId) {
      expect(response.body?.response_action, JSON.stringify(response.body)).toBe('update');
      const latest = fake.calls
        .filter((c) => c.method === 'views.open' || c.method === 'views.update')
        .map((c) => (c.response?.body as { view?: { id?: string; hash?: string } } | undefined)?.view)
        .filter((v) => v?.id === viewId)
        .at(-1);
      return { ...(response.body.view as View), id: viewId, hash: latest?.hash };
    },
    async updatedView(viewId, predicate = () => true) {
      const match = (body: Record<string, unknown>) =>
        body.view_id === viewId && predicate(body.view as View);
      const call = await fake.waitFor('views.update', (c) => match(c.body) && c.response?.status === 200);
      const answer = call.response?.body as { ok?: boolean; view?: { hash?: string } } | undefined;
      return { ...(call.body.view as View), id: viewId, hash: answer?.view?.hash };
    },
    submit: (view, typed = {}, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewSubmissionPayload({
            ...viewArgs(view, typed),
            // A pushed view is submitted with the root of its stack.
            ...(typeof view.root_view_id === 'string' ? { rootViewId: view.root_view_id } : {}),
            user,
          }),
        ),
      ),
    close: (view, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewClosedPayload({
            callbackId: view.callback_id,
            privateMetadata: view.private_metadata,
            viewId: view.id,
            user,
          }),
        ),
      ),
    clickInView: (view, actionId, value, typed = {}, user = 'UDISPATCH') =>
      post(interactiveBody(viewAction(view, actionId, typed, { value, user }))),
    suggest: (view, blockId, actionId, value, user = 'UDISPATCH') =>
      post(
        interactiveBody(blockSuggestionPayload({ actionId, blockId, value, user, view: viewArgs(view, {}) })),
      ),
    pickInView: (view, blockId, actionId, value, text, typed = {}, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewAction(view, actionId, typed, {
            blockId,
            user,
            action: {
              type: 'external_select',
              selected_option: { value, text: { type: 'plain_text', text, emoji: true } },
            },
          }),
        ),
      ),
    selectInView: (view, actionId, value, typed = {}) =>
      post(
        interactiveBody(
          viewAction(view, actionId, typed, {
            action: {
              type: 'static_select',
              selected_option: { value, text: { type: 'plain_text', text: value } },
            },
          }),
        ),
      ),
    clickInMessage: (
      actionId,
      value,
      { channelId = 'CDISPATCH', messageTs = '1.000001', user = 'UDISPATCH' } = {},
    ) =>
      post(
        interactiveBody(
          blockActionsPayload({
            actionId,
            value,
            channelId,
            messageTs,
            user,
            responseUrl: fake.responseUrl('actions/1'),
          }),
        ),
      ),
    clickInHome: (actionId, value, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          blockActionsPayload({
            actionId,
            ...(value === undefined ? {} : { value }),
            user,
            view: { type: 'home', viewId: 'VHOME0001', callbackId: '', privateMetadata: '', blocks: [] },
          }),
        ),
      ),
    messageShortcut: (text, { channelId = 'CREQUESTS', user = 'UDISPATCH' } = {}) =>
      post(
        interactiveBody(
          messageShortcutPayload({
            callbackId: ids.bookFromMessage,
            text,
            channelId,
            user,
            responseUrl: fake.responseUrl('shortcut/1'),
          }),
        ),
      ),
    event: (event) =>
      postToApp(url, secrets.signingSecret, eventCallbackBody(event), { contentType: JSON_CONTENT_TYPE }),
    globalShortcut: (callbackId, user = 'UDISPATCH') =>
      post(interactiveBody(globalShortcutPayload({ callbackId, user }))),
    async lookAfterStore() {
      await keeping.turn();
      await deps.inFlight.idle();
    },
    idle: () => deps.inFlight.idle(),
    async stop() {
      await deps.inFlight.idle();
      // Every end-to-end test scans what the bot wrote: no secret in a log line or anything sent to Slack.
      const written = [
        ...logs,
        ...fake.calls.map((c) => c.rawBody),
        ...fake.responseUrlPosts.map((p) => p.rawBody),
      ];
      const leaks = written.filter((text) => Object.values(secrets).some((secret) => text.includes(secret)));
      expect(leaks, 'a secret reached a log line or Slack').toEqual([]);
      await keeping.stop();
      await app.stop();
      await courier.close();
      if (!options.sandbox) await sandbox.close();
      // A backend's stores are closed by the backend, after the test.
      if (!options.store && !options.backend) await store.close();
      await fake.close();
    },
  };
  return bot;
}
