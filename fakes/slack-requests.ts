/**
 * Signed requests the way Slack sends them, built from the payload fixtures in fakes/slack-fixtures/.
 *
 * What works with Bolt 5.1 (@slack/bolt 5.1.0, @slack/web-api 8.2.0), as used in slack-harness.test.ts:
 *
 * - Receiver: the default HTTPReceiver (what `new App({ signingSecret, ... })` builds when neither
 *   `receiver` nor `socketMode` is given). It takes `customRoutes`, `processBeforeResponse`, `endpoints`
 *   (default `/slack/events`, one URL for commands, interactivity and events) straight from the App
 *   options. ExpressReceiver has `processBeforeResponse` but no `customRoutes` option (you add routes to
 *   its `router`), so HTTPReceiver is the simpler choice for tests.
 * - Options: `token: 'xoxb-…'`, `signingSecret`, `botId` + `botUserId` (then Bolt never calls auth.test;
 *   without them it calls auth.test from the constructor, not awaited, with the default
 *   `tokenVerificationEnabled: true`, so a failing one is an unhandled rejection; with
 *   `tokenVerificationEnabled: false` it calls auth.test on every incoming request instead),
 *   `processBeforeResponse: true`, `clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } }`.
 *   Bolt mutates the `clientOptions` object you pass (it sets `logger` on it), so don't share one between apps.
 * - Bound port: `const server = await app.start({ port: 0, host: '127.0.0.1' })`: App#start forwards to
 *   HTTPReceiver#start, which resolves with the node:http Server once listening;
 *   `(server.address() as AddressInfo).port`.
 * - Stop: `await app.stop()` (HTTPReceiver#stop = server.close(); Node >= 19 also drops idle keep-alive
 *   sockets, so the client's pooled keep-alive connections do not hold it open). It rejects if the app was not started.
 * - Signature checks: missing headers, a wrong signature, or a timestamp more than 5 minutes old → 401 with
 *   an empty body. The Content-Type must be exactly `application/x-www-form-urlencoded`: with
 *   `; charset=utf-8` the signature still verifies, but Bolt then JSON-parses the form body → 400.
 * - processBeforeResponse: true: `ack(body)` only stores the body; it is written when every listener has
 *   finished, so a listener that awaits Slack or the courier API after ack() delays the HTTP answer (over
 *   3 s, Slack shows the user a timeout; keep it off in production). If the listener rejects after ack(),
 *   the stored ack is dropped and Bolt's default processEventErrorHandler answers 500. An un-acked request
 *   gets a 404 after 3001 ms (unhandledRequestTimeoutMillis).
 * - WebClient: bodies are always form-encoded (`view`, `blocks`… as JSON strings), token as
 *   `Authorization: Bearer` (and in the body when passed per call); the listener's `client` also adds
 *   `team_id` (from the request) to every body, so match bodies with toMatchObject; any `ok: false` answer throws
 *   WebAPIPlatformError (`error.data.error` is Slack's error code). On HTTP 429 with Retry-After it pauses
 *   its whole request queue for Retry-After seconds, then p-retry waits its own backoff (default
 *   minTimeout 1 s, factor 2) before retrying: with `retries: 2` two 429s with `Retry-After: 1` take about
 *   5 s (1+1 + 1+2), or about 2 s with `{ retries: 2, minTimeout: 0, maxTimeout: 0 }`. With `retries: 0` a
 *   429 still waits Retry-After and then throws WebAPIRequestError (`slack_webapi_request_error`), not
 *   WebAPIRateLimitedError; only `rejectRateLimitedCalls: true` gives that, immediately.
 *   Defaults are 10 retries over about 30 minutes: always set retryConfig in tests.
 * - respond(): Bolt POSTs JSON (`Content-Type: application/json`) to the payload's response_url with
 *   `clientOptions.fetch ?? globalThis.fetch`, not through the WebClient, so it ignores slackApiUrl.
 * - Logger: App({ logger }) must implement @slack/logger's Logger (debug/info/warn/error(...msg),
 *   setLevel/getLevel with 'debug'|'info'|'warn'|'error', setName). Bolt hands the same object to the
 *   WebClient; @slack/oauth and @slack/socket-mode helpers may call setName/setLevel on it. For pino:
 *     { debug: (...m) => log.debug(fmt(m)), info: …, warn: …, error: (...m) => log.error({ err: m.find(isError) }, fmt(m)),
 *       setLevel: (l) => { log.level = l }, getLevel: () => log.level as LogLevel (map 'trace'→debug, 'fatal'→error),
 *       setName: () => {} }
 *   (fmt = util.format; keep setName a no-op or store the name: replacing the shared logger with a child
 *   would rename the whole app's logs). Bolt logs errors as (message, error), so pass Errors as `err`.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

// ---------------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** Each fixture's text, read once: parsing it again is the deep copy (in half the CPU of structuredClone). */
const fixtureTexts = new Map<string, string>();

/** The workspace the fake Slack installs the bot in (auth.test's team_id): the fixtures' people are of it. */
export const FAKE_TEAM_ID = 'T0001';

/**
 * A fresh deep copy of a JSON fixture from fakes/slack-fixtures/, its team and its person's team
 * (each fixture names another) the fake's workspace: requests come from the bot's own organisation
 * unless a test says otherwise.
 */
export function loadSlackFixture<T = Json>(name: string): T {
  let text = fixtureTexts.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./slack-fixtures/${name}`, import.meta.url), 'utf8');
    fixtureTexts.set(name, text);
  }
  const copy = JSON.parse(text) as Json;
  const team = copy.team as Json | undefined;
  if (team && typeof team === 'object') team.id = FAKE_TEAM_ID;
  else if (typeof copy.team_id === 'string') copy.team_id = FAKE_TEAM_ID;
  const user = copy.user as Json | undefined;
  if (user && typeof user === 'object' && 'team_id' in user) user.team_id = FAKE_TEAM_ID;
  return copy as T;
}

// ---------------------------------------------------------------------------------------------------------
// Signing and posting
// ---------------------------------------------------------------------------------------------------------

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface SlackRequestHeaders {
  'Content-Type': string;
  'X-Slack-Request-Timestamp': string;
  'X-Slack-Signature': string;
  [header: string]: string;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Headers Slack sends with every request: `X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:ts:body")>`,
 * `X-Slack-Request-Timestamp`, and `Content-Type: application/x-www-form-urlencoded` exactly (no charset).
 */
export function signRequest(
  signingSecret: string,
  rawBody: string,
  timestamp: number = nowSeconds(),
): SlackRequestHeaders {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return {
    'Content-Type': FORM_CONTENT_TYPE,
    'X-Slack-Request-Timestamp': String(timestamp),
    'X-Slack-Signature': `v0=${signature}`,
  };
}

export interface PostOptions {
  /** Unix seconds to sign with (default now); `nowSeconds() - 360` is a stale request. */
  timestamp?: number;
  /** Sign with a different secret, so the signature does not match. */
  badSignature?: boolean;
  /** Send no signature headers at all (Content-Type only). */
  unsigned?: boolean;
  /** Override the Content-Type (e.g. to prove that a `; charset=utf-8` suffix is refused). */
  contentType?: string;
  /** Extra headers, e.g. `X-Slack-Retry-Num`. */
  headers?: Record<string, string>;
}

export interface AppResponse {
  status: number;
  /** Parsed JSON when the response is JSON, otherwise the text ('' for an empty body). */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response shapes
  body: any;
  headers: Headers;
}

// ---------------------------------------------------------------------------------------------------------
// Slash commands
// ---------------------------------------------------------------------------------------------------------

export interface SlashCommandFields {
  token: string;
  team_id: string;
  team_domain: string;
  enterprise_id: string;
  enterprise_name: string;
  channel_id: string;
  channel_name: string;
  user_id: string;
  user_name: string;
  command: string;
  text: string;
  response_url: string;
  trigger_id: string;
  api_app_id: string;
}

export type SlashCommandOverrides = Partial<SlashCommandFields> & {
  /** Fields the fixture does not have (e.g. `is_enterprise_install`). */
  extra?: Record<string, string>;
  /** When given and `response_url` is not, `response_url` points at this fake's response endpoint. */
  fake?: { responseUrl(path?: string): string };
};

let triggerCounter = 0;

/** A unique, realistic-looking trigger_id. */
export function newTriggerId(): string {
  triggerCounter += 1;
  return `13345224609.738474920.${triggerCounter.toString(16).padStart(31, '0')}`;
}

/** The fields of slash_command.docs-example.json with overrides applied. */
export function slashCommandFields(overrides: SlashCommandOverrides = {}): SlashCommandFields {
  const { fake, extra, ...fields } = overrides;
  const base = loadSlackFixture<SlashCommandFields>('slash_command.docs-example.json');
  const merged: SlashCommandFields & Record<string, string> = { ...base, ...extra };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) merged[key] = value;
  }
  if (fake && fields.response_url === undefined) merged.response_url = fake.responseUrl();
  return merged;
}

/** A slash command body, form-encoded as Slack sends it (the fields themselves, not `payload=`). */
export function slashCommandBody(overrides: SlashCommandOverrides = {}): string {
  return new URLSearchParams({ ...slashCommandFields(overrides) }).toString();
}

// ---------------------------------------------------------------------------------------------------------
// Interactive payloads
// ---------------------------------------------------------------------------------------------------------

export type StateValue = { type: string; [key: string]: unknown };
/** `view.state.values`: block_id → action_id → value. */
export type StateValues = Record<string, Record<string, StateValue>>;

export type UserArg = string | { id: string; username?: string; name?: string; team_id?: string };

function userObject(user: UserArg | undefined, base: Json): Json {
  if (user === undefined) return base;
  const u = typeof user === 'string' ? { id: user } : user;
  const username = u.username ?? u.name ?? String(base.username ?? 'user-name');
  return { ...base, id: u.id, username, name: u.name ?? username, team_id: u.team_id ?? base.team_id };
}

/** `payload=<URL-encoded JSON>`, as Slack sends block_actions, view_submission and view_closed. */
export function interactiveBody(payload: object): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export interface ViewArgs {
  /** Default the fixture's `modal`; `home` for the App Home tab. */
  type?: 'modal' | 'home';
  callbackId?: string;
  privateMetadata?: string;
  /** Replaces `view.state.values` entirely. */
  stateValues?: StateValues;
  viewId?: string;
  hash?: string;
  /** Replaces `view.blocks` (the fixture's blocks are a rating/date/comment form). */
  blocks?: unknown[];
  title?: string;
  externalId?: string;
  rootViewId?: string;
  previousViewId?: string | null;
  notifyOnClose?: boolean;
}

function buildView(args: ViewArgs): Json {
  const view = loadSlackFixture<{ view: Json }>('view_submission.java-sdk.basic.json').view;
  if (args.type !== undefined) view.type = args.type;
  if (args.callbackId !== undefined) view.callback_id = args.callbackId;
  if (args.privateMetadata !== undefined) view.private_metadata = args.privateMetadata;
  if (args.stateValues !== undefined) view.state = { values: args.stateValues };
  if (args.viewId !== undefined) {
    view.id = args.viewId;
    view.root_view_id = args.viewId;
  }
  if (args.rootViewId !== undefined) view.root_view_id = args.rootViewId;
  if (args.previousViewId !== undefined) view.previous_view_id = args.previousViewId;
  if (args.hash !== undefined) view.hash = args.hash;
  if (args.blocks !== undefined) view.blocks = args.blocks;
  if (args.title !== undefined) view.title = { type: 'plain_text', text: args.title, emoji: true };
  if (args.externalId !== undefined) view.external_id = args.externalId;
  if (args.notifyOnClose !== undefined) view.notify_on_close = args.notifyOnClose;
  return view;
}

export interface ViewSubmissionArgs extends ViewArgs {
  user?: UserArg;
  triggerId?: string;
  /** `response_urls` (inputs with `response_url_enabled`); Bolt's `respond()` uses the first. */
  responseUrls?: { block_id: string; action_id: string; channel_id: string; response_url: string }[];
}

/** A view_submission payload built from view_submission.java-sdk.basic.json. */
export function viewSubmissionPayload(args: ViewSubmissionArgs = {}): Json {
  const payload = loadSlackFixture<Json>('view_submission.java-sdk.basic.json');
  payload.user = userObject(args.user, payload.user as Json);
  payload.view = buildView(args);
  payload.trigger_id = args.triggerId ?? newTriggerId();
  payload.response_urls = args.responseUrls ?? [];
  return payload;
}

export interface ViewClosedArgs extends ViewArgs {
  user?: UserArg;
  isCleared?: boolean;
}

/** A view_closed payload (sent only for views opened with `notify_on_close: true`). */
export function viewClosedPayload(args: ViewClosedArgs = {}): Json {
  const base = loadSlackFixture<Json>('view_submission.java-sdk.basic.json');
  return {
    type: 'view_closed',
    team: base.team,
    user: userObject(args.user, base.user as Json),
    api_app_id: base.api_app_id,
    token: base.token,
    view: { ...buildView(args), notify_on_close: true },
    is_cleared: args.isCleared ?? false,
  };
}

export interface BlockActionsArgs {
  actionId?: string;
  blockId?: string;
  value?: string;
  channelId?: string;
  messageTs?: string;
  user?: UserArg;
  /** For an action inside a modal: the container becomes the view, and there is no channel/message. */
  view?: ViewArgs;
  /** Extra fields merged into the action (e.g. `{ type: 'static_select', selected_option: … }`). */
  action?: Json;
  triggerId?: string;
  responseUrl?: string;
}

/**
 * A block_actions payload built from block_actions.java-sdk.docs-message-button.json (a button on a
 * message). For a message the container type is set to `message` (the fixture's docs example says
 * `message_attachment`); for a modal (`view` given) the container is `{ type: 'view', view_id }`, and
 * `channel`, `message` and `response_url` are removed, as Slack does.
 */
export function blockActionsPayload(args: BlockActionsArgs = {}): Json {
  const payload = loadSlackFixture<Json>('block_actions.java-sdk.docs-message-button.json');
  payload.user = userObject(args.user, payload.user as Json);
  payload.trigger_id = args.triggerId ?? newTriggerId();

  const actions = payload.actions as Json[];
  const action: Json = { ...actions[0] };
  if (args.actionId !== undefined) action.action_id = args.actionId;
  if (args.blockId !== undefined) action.block_id = args.blockId;
  if (args.value !== undefined) action.value = args.value;
  action.action_ts = `${(Date.now() / 1000).toFixed(6)}`;
  Object.assign(action, args.action);
  payload.actions = [action];

  if (args.view !== undefined) {
    const view = buildView(args.view);
    payload.view = view;
    payload.container = { type: 'view', view_id: view.id };
    delete payload.channel;
    delete payload.message;
    delete payload.response_url;
    return payload;
  }

  const channel = payload.channel as Json;
  const message = payload.message as Json;
  const channelId = args.channelId ?? String(channel.id);
  const messageTs = args.messageTs ?? String(message.ts);
  payload.channel = { ...channel, id: channelId };
  payload.message = { ...message, ts: messageTs };
  payload.container = {
    type: 'message',
    message_ts: messageTs,
    channel_id: channelId,
    is_ephemeral: false,
  };
  if (args.responseUrl !== undefined) payload.response_url = args.responseUrl;
  return payload;
}

export interface BlockSuggestionArgs {
  actionId: string;
  blockId: string;
  /** What the dispatcher has typed into the menu so far. */
  value: string;
  user?: UserArg;
  /** The modal the menu is in (type-ahead menus in messages are not used here). */
  view: ViewArgs;
}

/**
 * A block_suggestion payload: an external_select in a modal asking for options as the user types
 * (sent to the Select Menus "Options Load URL", which for Bolt is the same endpoint). Slack sends the
 * element's action_id and block_id, the typed `value`, and the whole view with its state; no
 * trigger_id, channel or response_url. Envelope (team, token, app id) as in the block_actions fixture.
 */
export function blockSuggestionPayload(args: BlockSuggestionArgs): Json {
  const base = loadSlackFixture<Json>('block_actions.java-sdk.docs-message-button.json');
  const view = buildView(args.view);
  return {
    type: 'block_suggestion',
    user: userObject(args.user, base.user as Json),
    container: { type: 'view', view_id: view.id },
    api_app_id: base.api_app_id,
    token: base.token,
    action_id: args.actionId,
    block_id: args.blockId,
    value: args.value,
    team: base.team,
    enterprise: null,
    is_enterprise_install: false,
    view,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Shortcuts
// ---------------------------------------------------------------------------------------------------------

export interface ShortcutArgs {
  callbackId: string;
  user?: UserArg;
  triggerId?: string;
}

export interface MessageShortcutArgs extends ShortcutArgs {
  /** The message's `text` as Slack sends it: mrkdwn, with `<mailto:…|…>` links and `&lt;` entities. */
  text: string;
  channelId?: string;
  channelName?: string;
  /** Who wrote the message (not who used the shortcut). */
  author?: string;
  messageTs?: string;
  responseUrl?: string;
}

/** What every shortcut payload carries: team, user, token and times, as in the block_actions fixture. */
function shortcutEnvelope(type: 'message_action' | 'shortcut', args: ShortcutArgs): Json {
  const base = loadSlackFixture<Json>('block_actions.java-sdk.docs-message-button.json');
  return {
    type,
    token: base.token,
    action_ts: `${(Date.now() / 1000).toFixed(6)}`,
    team: base.team,
    user: userObject(args.user, base.user as Json),
    is_enterprise_install: false,
    enterprise: null,
    callback_id: args.callbackId,
    trigger_id: args.triggerId ?? newTriggerId(),
  };
}

/**
 * A message shortcut (`type: "message_action"`): the message it was used on, its channel, and a
 * response_url into that conversation.
 */
export function messageShortcutPayload(args: MessageShortcutArgs): Json {
  const payload = shortcutEnvelope('message_action', args);
  const messageTs = args.messageTs ?? '1700000000.000100';
  return {
    ...payload,
    channel: { id: args.channelId ?? 'CBR2V3XEX', name: args.channelName ?? 'dispatch-requests' },
    message_ts: messageTs,
    message: {
      client_msg_id: '8f0c3b1e-6a0e-4b8e-9d55-1f2a3b4c5d6e',
      type: 'message',
      text: args.text,
      user: args.author ?? 'UREQUESTER',
      ts: messageTs,
      team: (payload.team as Json).id,
    },
    response_url: args.responseUrl ?? 'https://hooks.slack.com/app/T9TK3CUKW/1/shortcut',
  };
}

/** A global shortcut (`type: "shortcut"`): from the shortcut menu, so no channel, message or response_url. */
export function globalShortcutPayload(args: ShortcutArgs): Json {
  return shortcutEnvelope('shortcut', args);
}

// ---------------------------------------------------------------------------------------------------------
// view.state.values entries, shaped as in view_state.java-sdk.oct2022-inputs.json
// ---------------------------------------------------------------------------------------------------------

/** plain_text_input; an empty optional input arrives as `value: null`. */
export function plainText(value: string | null): StateValue {
  return { type: 'plain_text_input', value };
}

/** number_input: Slack sends the value as a string. */
export function numberInput(value: string | number | null): StateValue {
  return { type: 'number_input', value: value === null ? null : String(value) };
}

export function staticSelect(value: string | null, text: string = value ?? ''): StateValue {
  return {
    type: 'static_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text, emoji: true }, value },
  };
}

/** datepicker: `YYYY-MM-DD`. */
export function datepicker(selectedDate: string | null): StateValue {
  return { type: 'datepicker', selected_date: selectedDate };
}

/** timepicker: `HH:mm` plus the IANA timezone Slack reports for the user. */
export function timepicker(selectedTime: string | null, timezone = 'UTC'): StateValue {
  return { type: 'timepicker', selected_time: selectedTime, timezone };
}

/** datetimepicker: unix seconds. */
export function datetimepicker(selectedDateTime: number | null): StateValue {
  return { type: 'datetimepicker', selected_date_time: selectedDateTime };
}

/** conversations_select: the conversation's id. */
/** external_select: nothing chosen yet is `selected_option: null`. */
export function externalSelect(value: string | null, text: string = value ?? ''): StateValue {
  return {
    type: 'external_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text, emoji: true }, value },
  };
}

export function conversationsSelect(conversationId: string | null): StateValue {
  return { type: 'conversations_select', selected_conversation: conversationId };
}

/** file_input: the files chosen, as Slack describes them (the bot reads the rest with files.info). */
export function fileInput(fileIds: readonly string[]): StateValue {
  return { type: 'file_input', files: fileIds.map((id) => ({ id })) };
}

export function email(value: string | null): StateValue {
  return { type: 'email_text_input', value };
}

export function urlInput(value: string | null): StateValue {
  return { type: 'url_text_input', value };
}

// ---------------------------------------------------------------------------------------------------------
// Events API
// ---------------------------------------------------------------------------------------------------------

export const JSON_CONTENT_TYPE = 'application/json';

let eventCounter = 0;

/**
 * An Events API delivery over HTTP (`event_callback`, JSON, signed like every request), e.g.
 * `{ type: 'app_home_opened', user: 'U1', channel: 'D1', tab: 'home' }`.
 */
export function eventCallbackBody(event: Json, { eventId }: { eventId?: string } = {}): string {
  eventCounter += 1;
  return JSON.stringify({
    token: 'verification-token-unused',
    team_id: FAKE_TEAM_ID,
    api_app_id: 'A0001',
    type: 'event_callback',
    event_id: eventId ?? `Ev${String(eventCounter).padStart(8, '0')}`,
    event_time: nowSeconds(),
    event: { event_ts: `${nowSeconds()}.000100`, ...event },
    authorizations: [{ team_id: FAKE_TEAM_ID, user_id: 'UBOT', is_bot: true }],
  });
}

let executionCounter = 0;

export interface FunctionExecutedArgs {
  callbackId: string;
  inputs: Json;
  /** The execution Slack keys the step's completion on (default a new one). */
  executionId?: string;
}

/**
 * A workflow step the app provides, run by a workflow (`function_executed`): Slack's shape, with
 * the function's declaration trimmed to what identifies it and a workflow token for its calls.
 */
export function functionExecutedEvent({ callbackId, inputs, executionId }: FunctionExecutedArgs): Json {
  executionCounter += 1;
  const number = String(executionCounter).padStart(8, '0');
  return {
    type: 'function_executed',
    function: {
      id: `Fn${number}`,
      callback_id: callbackId,
      title: callbackId,
      description: '',
      type: 'app',
      app_id: 'A0001',
      date_created: 1700000000,
      date_updated: 1700000000,
      date_deleted: 0,
    },
    inputs,
    function_execution_id: executionId ?? `Fx${number}`,
    workflow_execution_id: `Wx${number}`,
    bot_access_token: `xwfp-T0001-workflow-${number}`,
  };
}
