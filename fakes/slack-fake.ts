/**
 * A fake Slack Web API over loopback HTTP, for tests.
 *
 * Point Bolt (or any @slack/web-api WebClient) at it with
 * `clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } }`. Every request is recorded in
 * `fake.calls` with its body decoded (the WebClient sends `application/x-www-form-urlencoded` with object
 * fields such as `view` and `blocks` JSON-encoded as strings; those are parsed back into objects here, and
 * JSON bodies are accepted too). Answers are plausible `{ ok: true, ... }` defaults unless scripted with
 * `fake.respond(...)`. Like Slack, views.open/push/update refuse a view with a number_input whose
 * initial_value does not fit it (`invalid_arguments`).
 *
 * `fake.responseUrl(path)` gives a `response_url` on the same server: POSTs to it are recorded in
 * `fake.responseUrlPosts` (Bolt's `respond()` POSTs JSON there with global fetch).
 *
 * Files, as Slack serves them: `fake.addFile(...)` makes a file that `files.info` describes, with a
 * `url_private_download` on this server that answers only a bearer token (like Slack, which shows a
 * login page otherwise); `fake.downloads` records each download. Uploads go the way
 * `filesUploadV2` sends them: `files.getUploadURLExternal` hands out an `upload_url` here, the
 * bytes POSTed to it land in `fake.uploads`, and `files.completeUploadExternal` shares them
 * (`fake.uploadsCompleted()` joins the two). A workflow step's `functions.completeSuccess` and
 * `functions.completeError` are refused without a `function_execution_id` (and the latter without an `error`).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_TEAM_ID } from './slack-requests.js';

/** A Slack Web API answer body (`{ ok: true, ... }` or `{ ok: false, error: '...' }`). */
export type SlackApiAnswer = { ok: boolean; [key: string]: unknown };

/**
 * An HTTP-level answer: any status, e.g. `{ status: 429, retryAfter: 1 }` (a rate limit the WebClient waits
 * out and retries) or `{ status: 500 }` / `{ status: 404, body: 'expired_url' }`.
 */
export interface HttpAnswer {
  status: number;
  /** Seconds, sent as the `Retry-After` header. */
  retryAfter?: number;
  /** JSON-encoded unless a string. Default for 429: `{ ok: false, error: 'ratelimited' }`; otherwise empty. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeAnswer = SlackApiAnswer | HttpAnswer;
/** A scripted answer worked out per call; `undefined` answers as the fake would without a script. */
export type FakeAnswerFn = (
  body: Record<string, unknown>,
  call: FakeCall,
) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export interface FakeCall {
  /** Web API method, e.g. `chat.postMessage`; `response_url` for a POST to a response URL. */
  method: string;
  /** Decoded body (form or JSON), with JSON-string fields (`view`, `blocks`, …) parsed into objects. */
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** performance.now() when the request arrived. */
  receivedAt: number;
  /** The bearer token from the Authorization header, or the `token` body field. */
  token: string | undefined;
  /** What the fake answered; set once the answer is written. */
  response?: { status: number; body: unknown };
}

export interface ResponseUrlPost extends FakeCall {
  /** The part after `/response/`, e.g. `commands/T0001/1/abc`. */
  path: string;
}

export interface WaitOptions {
  /** Resolve when this many matching calls have arrived (default 1); resolves with the last of them. */
  count?: number;
  /** Default 5000 ms. */
  timeoutMs?: number;
}

/** A file the fake serves, as `fake.addFile` made it. */
export interface FakeFile {
  id: string;
  name: string;
  bytes: Buffer;
  /** As files.info reports it (default: the real size). */
  size: number;
  filetype: string;
  /** Who shared it: files.info's `user` (default UDISPATCH, the harness's dispatcher). */
  user: string;
  /** files.info's `url_private_download` when it is not this server (a test's other host). */
  downloadUrl?: string;
  /**
   * How the download goes wrong, if it does: `stall` sends no headers, `trickle` sends the headers
   * and then one byte a second, `reset` cuts the connection after the headers and a first byte.
   */
  serve?: 'stall' | 'trickle' | 'reset';
}

/** A file the bot uploaded, with where `files.completeUploadExternal` shared it. */
export interface CompletedUpload {
  fileId: string;
  filename: string;
  text: string;
  /** The token the bytes were sent with. */
  token: string | undefined;
  channelId?: string;
  threadTs?: string;
  initialComment?: string;
}

/** A download that stalls, trickles or is cut off, as FakeFile.serve says; stopped when the bot gives up. */
function serveBadly(file: FakeFile, res: ServerResponse): void {
  if (file.serve === 'stall') return;
  res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
  res.write(file.bytes.subarray(0, 1));
  if (file.serve === 'reset') {
    res.socket?.destroy();
    return;
  }
  let sent = 1;
  const timer = setInterval(() => {
    if (sent >= file.bytes.length) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(file.bytes.subarray(sent, sent + 1));
    sent += 1;
  }, 1000);
  res.on('close', () => clearInterval(timer));
}

export interface FakeSlack {
  /** `http://127.0.0.1:PORT/api/`: pass as Bolt's `clientOptions.slackApiUrl`. */
  readonly apiUrl: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every Web API call, in arrival order. */
  readonly calls: FakeCall[];
  /** Every POST to a `responseUrl(...)`, in arrival order. */
  readonly responseUrlPosts: ResponseUrlPost[];
  callsTo(method: string): FakeCall[];
  /**
   * Resolves when a call to `method` matching `predicate` has arrived (already or later). Rejects after
   * `timeoutMs` with a message listing the calls seen. Use `'response_url'` to wait for a response-URL POST.
   */
  waitFor(method: string, predicate?: (call: FakeCall) => boolean, options?: WaitOptions): Promise<FakeCall>;
  waitForResponseUrlPost(
    predicate?: (post: ResponseUrlPost) => boolean,
    options?: WaitOptions,
  ): Promise<ResponseUrlPost>;
  /**
   * Script the answer for `method` (or `'response_url'`). With `times`, the answer is used that many times
   * and then falls through (limited answers are used first, in the order given); without it, it replaces
   * the default until `reset()`.
   */
  respond(method: string, answer: FakeAnswer | FakeAnswerFn, options?: { times?: number }): void;
  /** A response URL on this server: `<origin>/response/<path>`. */
  responseUrl(path?: string): string;
  /** A file files.info describes and this server serves to a bearer token. */
  addFile(input: {
    name: string;
    content: string | Uint8Array;
    size?: number;
    filetype?: string;
    user?: string;
    downloadUrl?: string;
    serve?: FakeFile['serve'];
  }): FakeFile;
  /** Every download of a file: its id and the token it came with. */
  readonly downloads: { fileId: string; token: string | undefined }[];
  /** Bytes POSTed to an upload URL, by file id. */
  readonly uploads: Map<string, { bytes: Buffer; token: string | undefined }>;
  /** Uploads that files.completeUploadExternal shared, in the order they were completed. */
  uploadsCompleted(): CompletedUpload[];
  /** Forget calls, posts, scripted answers and known views. */
  reset(): void;
  close(): Promise<void>;
}

export const RESPONSE_URL_METHOD = 'response_url';

/** Body fields the WebClient sends as JSON strings inside a form body. */
const JSON_FIELDS = new Set([
  'outputs',
  'view',
  'blocks',
  'attachments',
  'metadata',
  'unfurls',
  'user_auth_blocks',
  'files',
]);

const FAKE_APP_ID = 'A0001';
export const FAKE_BOT_USER_ID = 'UBOT';
export const FAKE_BOT_ID = 'BBOT';

interface Override {
  answer: FakeAnswer | FakeAnswerFn;
  remaining: number | undefined;
}

interface Waiter {
  method: string;
  predicate: ((call: FakeCall) => boolean) | undefined;
  count: number;
  resolve: (call: FakeCall) => void;
  reject: (error: Error) => void;
}

interface ViewRecord {
  id: string;
  hash: string;
  view: Record<string, unknown>;
  rootViewId: string;
  previousViewId: string | null;
}

/**
 * What Slack says about a number_input whose initial_value does not fit it (not a number, a decimal
 * with is_decimal_allowed off, outside min_value..max_value): it refuses the whole view.
 */
function numberInputProblems(view: unknown): string[] {
  const blocks = (view as { blocks?: unknown })?.blocks;
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block: Record<string, unknown>, index) => {
    const elements = [block.element, ...(Array.isArray(block.elements) ? block.elements : [])];
    return elements.flatMap((element) => {
      const input = element as Record<string, unknown> | undefined;
      if (input?.type !== 'number_input' || input.initial_value === undefined) return [];
      const text = String(input.initial_value);
      const value = Number(text);
      const where = `[json-pointer:/view/blocks/${index}/element/initial_value]`;
      const decimal = input.is_decimal_allowed === true;
      if (text.trim() === '' || !Number.isFinite(value)) return [`[ERROR] must be a number ${where}`];
      if (!decimal && !Number.isInteger(value)) return [`[ERROR] must be an integer ${where}`];
      if (input.min_value !== undefined && value < Number(input.min_value))
        return [`[ERROR] must be at least min_value ${where}`];
      if (input.max_value !== undefined && value > Number(input.max_value))
        return [`[ERROR] must be at most max_value ${where}`];
      return [];
    });
  });
}

function isHttpAnswer(answer: FakeAnswer): answer is HttpAnswer {
  return typeof (answer as HttpAnswer).status === 'number' && !('ok' in answer);
}

function decodeBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw === '') return {};
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  }
  const body: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    body[key] = value;
  }
  return parseJsonFields(body);
}

function parseJsonFields(body: Record<string, unknown>): Record<string, unknown> {
  for (const key of JSON_FIELDS) {
    const value = body[key];
    if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
      try {
        body[key] = JSON.parse(value);
      } catch {
        // leave as sent
      }
    }
  }
  return body;
}

function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The file in an upload: the body itself, or the first file of a multipart form (as the WebClient sends it). */
async function uploadedBytes(body: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.startsWith('multipart/form-data')) return body;
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const file = [...form.values()].find((value) => typeof value !== 'string');
  return file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
}

function describeCalls(calls: readonly FakeCall[]): string {
  if (calls.length === 0) return '  (none)';
  return calls
    .map((call, i) => {
      const summary = JSON.stringify(call.body, (key, value) => (key === 'token' ? '…' : value));
      const short = summary.length > 200 ? `${summary.slice(0, 200)}…` : summary;
      return `  ${i + 1}. ${call.method} ${short}`;
    })
    .join('\n');
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const calls: FakeCall[] = [];
  const responseUrlPosts: ResponseUrlPost[] = [];
  const overrides = new Map<string, Override[]>();
  const waiters = new Set<Waiter>();
  const views = new Map<string, ViewRecord>();
  const dmChannels = new Map<string, string>();
  let viewCounter = 0;
  let hashCounter = 0;
  let tsCounter = 0;
  let responseUrlCounter = 0;
  const files = new Map<string, FakeFile>();
  const downloads: { fileId: string; token: string | undefined }[] = [];
  const uploads = new Map<string, { bytes: Buffer; token: string | undefined }>();
  let fileCounter = 0;
  const nextFileId = () => `F${String(++fileCounter).padStart(8, '0')}`;

  const nextHash = (): string => {
    hashCounter += 1;
    return `1700000000.${hashCounter.toString(16).padStart(8, '0')}`;
  };
  const nextTs = (): string => {
    tsCounter += 1;
    return `${1700000000 + tsCounter}.${String(tsCounter).padStart(6, '0')}`;
  };

  function matching(method: string, predicate: ((call: FakeCall) => boolean) | undefined): FakeCall[] {
    const pool = method === RESPONSE_URL_METHOD ? responseUrlPosts : calls.filter((c) => c.method === method);
    return predicate ? pool.filter((c) => predicate(c)) : pool;
  }

  function notifyWaiters(): void {
    for (const waiter of waiters) {
      const found = matching(waiter.method, waiter.predicate);
      if (found.length >= waiter.count) {
        waiters.delete(waiter);
        // biome-ignore lint/style/noNonNullAssertion: length checked above
        waiter.resolve(found[waiter.count - 1]!);
      }
    }
  }

  function storeView(
    sent: Record<string, unknown>,
    id: string,
    rootViewId: string,
    previousViewId: string | null,
  ): ViewRecord {
    const record: ViewRecord = { id, hash: nextHash(), view: sent, rootViewId, previousViewId };
    views.set(id, record);
    return record;
  }

  function viewAnswer(record: ViewRecord): SlackApiAnswer {
    return {
      ok: true,
      view: {
        id: record.id,
        team_id: FAKE_TEAM_ID,
        type: 'modal',
        private_metadata: '',
        callback_id: '',
        external_id: '',
        state: { values: {} },
        clear_on_close: false,
        notify_on_close: false,
        ...record.view,
        hash: record.hash,
        root_view_id: record.rootViewId,
        previous_view_id: record.previousViewId,
        app_id: FAKE_APP_ID,
        bot_id: FAKE_BOT_ID,
      },
    };
  }

  function asView(value: unknown): Record<string, unknown> {
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  }

  function defaultAnswer(method: string, body: Record<string, unknown>): FakeAnswer {
    const problems = /^views\.(open|push|update)$/.test(method) ? numberInputProblems(body.view) : [];
    if (problems.length > 0) {
      return { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } };
    }
    switch (method) {
      case RESPONSE_URL_METHOD:
        return { ok: true };
      case 'auth.test':
        return {
          ok: true,
          url: 'https://example.slack.com/',
          team: 'Example',
          user: 'waybill-dispatch',
          team_id: FAKE_TEAM_ID,
          user_id: FAKE_BOT_USER_ID,
          bot_id: FAKE_BOT_ID,
          is_enterprise_install: false,
        };
      case 'users.info':
        // Every person is of the bot's own workspace unless a test says otherwise (respond).
        return {
          ok: true,
          user: { id: body.user, team_id: FAKE_TEAM_ID, is_bot: false, deleted: false },
        };
      case 'views.open': {
        viewCounter += 1;
        const id = `V${String(viewCounter).padStart(8, '0')}`;
        return viewAnswer(storeView(asView(body.view), id, id, null));
      }
      case 'views.push': {
        viewCounter += 1;
        const id = `V${String(viewCounter).padStart(8, '0')}`;
        return viewAnswer(storeView(asView(body.view), id, id, null));
      }
      case 'views.update': {
        const viewId = typeof body.view_id === 'string' ? body.view_id : undefined;
        const externalId = typeof body.external_id === 'string' ? body.external_id : undefined;
        let known = viewId ? views.get(viewId) : undefined;
        if (!known && externalId) {
          known = [...views.values()].find((v) => v.view.external_id === externalId);
          if (!known) return { ok: false, error: 'not_found' };
        }
        // Slack refuses an update whose hash is stale; an unknown view id (e.g. from a fixture) is accepted.
        if (known && typeof body.hash === 'string' && body.hash !== known.hash) {
          return { ok: false, error: 'hash_conflict' };
        }
        const id = known?.id ?? viewId ?? `V${String(++viewCounter).padStart(8, '0')}`;
        return viewAnswer(
          storeView(asView(body.view), id, known?.rootViewId ?? id, known?.previousViewId ?? null),
        );
      }
      case 'views.publish':
        viewCounter += 1;
        return viewAnswer(
          storeView(asView(body.view), `V${String(viewCounter).padStart(8, '0')}`, 'V00000000', null),
        );
      case 'chat.postMessage': {
        const ts = nextTs();
        return {
          ok: true,
          channel: body.channel,
          ts,
          message: {
            type: 'message',
            user: FAKE_BOT_USER_ID,
            bot_id: FAKE_BOT_ID,
            app_id: FAKE_APP_ID,
            team: FAKE_TEAM_ID,
            text: body.text ?? '',
            ...(body.blocks !== undefined ? { blocks: body.blocks } : {}),
            ...(body.thread_ts !== undefined ? { thread_ts: body.thread_ts } : {}),
            ts,
          },
        };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'chat.update':
        return {
          ok: true,
          channel: body.channel,
          ts: body.ts,
          text: body.text ?? '',
          message: {
            type: 'message',
            user: FAKE_BOT_USER_ID,
            bot_id: FAKE_BOT_ID,
            text: body.text ?? '',
            ...(body.blocks !== undefined ? { blocks: body.blocks } : {}),
          },
        };
      case 'chat.getPermalink':
        return {
          ok: true,
          channel: body.channel,
          permalink: `https://example.slack.com/archives/${String(body.channel)}/p${String(body.message_ts).replace('.', '')}`,
        };
      case 'chat.delete':
        return { ok: true, channel: body.channel, ts: body.ts };
      // Every member a person of this workspace, unless a test scripts a bot, a deleted one or another organisation's.
      case 'conversations.open': {
        const users = typeof body.users === 'string' ? body.users : String(body.channel ?? '');
        let id = dmChannels.get(users);
        if (!id) {
          id = `D${String(dmChannels.size + 1).padStart(8, '0')}`;
          dmChannels.set(users, id);
        }
        return { ok: true, channel: { id } };
      }
      case 'conversations.history': {
        // The conversation's top-level messages posted through this fake, newest first; their
        // metadata only when asked for, as Slack gives it.
        const posted = calls.filter(
          (c) => c.method === 'chat.postMessage' && c.body.channel === body.channel && !c.body.thread_ts,
        );
        const withMetadata = String(body.include_all_metadata) === 'true';
        const messages = posted
          .flatMap((c) => {
            const answer = c.response?.body as { ok?: boolean; ts?: string } | undefined;
            if (!answer?.ok) return [];
            return [
              {
                type: 'message',
                ts: answer.ts,
                text: c.body.text ?? '',
                bot_id: FAKE_BOT_ID,
                ...(withMetadata && c.body.metadata ? { metadata: c.body.metadata } : {}),
              },
            ];
          })
          .reverse()
          .slice(0, Number(body.limit ?? 100));
        return { ok: true, messages, has_more: false };
      }
      // A workflow step ends with outputs or an error; Slack refuses a call naming no execution.
      case 'functions.completeSuccess':
      case 'functions.completeError': {
        const named = typeof body.function_execution_id === 'string' && body.function_execution_id !== '';
        const reason = method === 'functions.completeSuccess' || typeof body.error === 'string';
        return named && reason ? { ok: true } : { ok: false, error: 'invalid_arguments' };
      }
      case 'usergroups.users.list':
        return { ok: true, users: [] };
      case 'files.info': {
        const file = files.get(String(body.file ?? ''));
        if (!file) return { ok: false, error: 'file_not_found' };
        return {
          ok: true,
          file: {
            id: file.id,
            name: file.name,
            title: file.name,
            filetype: file.filetype,
            mimetype: file.filetype === 'csv' ? 'text/csv' : 'application/octet-stream',
            size: file.size,
            user: file.user,
            url_private: `${origin}/files-pri/${FAKE_TEAM_ID}-${file.id}/${encodeURIComponent(file.name)}`,
            url_private_download:
              file.downloadUrl ??
              `${origin}/files-pri/${FAKE_TEAM_ID}-${file.id}/download/${encodeURIComponent(file.name)}`,
          },
        };
      }
      case 'files.getUploadURLExternal': {
        const id = nextFileId();
        return { ok: true, upload_url: `${origin}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const list = Array.isArray(body.files) ? (body.files as { id?: string; title?: string }[]) : [];
        const missing = list.find((file) => !uploads.has(String(file.id)));
        if (missing) return { ok: false, error: 'file_not_found' };
        return { ok: true, files: list.map((file) => ({ id: file.id, title: file.title ?? '' })) };
      }
      default:
        return { ok: true };
    }
  }

  function pickAnswer(method: string): FakeAnswer | FakeAnswerFn | undefined {
    const list = overrides.get(method);
    if (!list) return undefined;
    const limited = list.find((o) => o.remaining !== undefined && o.remaining > 0);
    if (limited) {
      limited.remaining = (limited.remaining ?? 1) - 1;
      return limited.answer;
    }
    const permanent = list.filter((o) => o.remaining === undefined).at(-1);
    return permanent?.answer;
  }

  async function answer(call: FakeCall, res: ServerResponse): Promise<void> {
    const scripted = pickAnswer(call.method);
    let result: FakeAnswer;
    if (scripted === undefined) {
      result = defaultAnswer(call.method, call.body);
    } else if (typeof scripted === 'function') {
      result = (await scripted(call.body, call)) ?? defaultAnswer(call.method, call.body);
    } else {
      result = scripted;
    }
    if (isHttpAnswer(result)) {
      const headers: Record<string, string> = { ...result.headers };
      if (result.retryAfter !== undefined) headers['Retry-After'] = String(result.retryAfter);
      let body = result.body;
      if (body === undefined && result.status === 429) body = { ok: false, error: 'ratelimited' };
      let text = '';
      if (typeof body === 'string') {
        text = body;
      } else if (body !== undefined) {
        text = JSON.stringify(body);
        headers['Content-Type'] ??= 'application/json; charset=utf-8';
      }
      call.response = { status: result.status, body };
      res.writeHead(result.status, headers);
      res.end(text);
      return;
    }
    call.response = { status: 200, body: result };
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(result));
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const bytes = await readBytes(req);
      const raw = bytes.toString('utf8');
      const headers = req.headers;
      let body: Record<string, unknown>;
      try {
        body = decodeBody(raw, headers['content-type']);
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: 'invalid_json', detail: String(error) }));
        return;
      }
      if (req.method === 'GET') {
        for (const [key, value] of url.searchParams) body[key] ??= value;
        parseJsonFields(body);
      }
      const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
      const token = bearer ?? (typeof body.token === 'string' ? body.token : undefined);

      if (url.pathname.startsWith('/api/')) {
        const call: FakeCall = {
          method: url.pathname.slice('/api/'.length),
          body,
          headers,
          rawBody: raw,
          token,
          receivedAt: performance.now(),
        };
        calls.push(call);
        notifyWaiters();
        await answer(call, res);
        // Again with the answer known: a waiter may be waiting for a call that succeeded.
        notifyWaiters();
        return;
      }
      const download = /^\/files-pri\/[^/]+-(F\w+)\//.exec(url.pathname);
      if (download && req.method === 'GET') {
        const file = files.get(download[1] ?? '');
        downloads.push({ fileId: download[1] ?? '', token: bearer });
        if (!file) {
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('not found');
        } else if (!bearer) {
          // Slack answers a request without the token with its sign-in page, not the file.
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          res.end('<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
        } else if (file.serve) {
          serveBadly(file, res);
        } else {
          res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
          res.end(file.bytes);
        }
        return;
      }
      const upload = /^\/upload\/(F\w+)$/.exec(url.pathname);
      if (upload && req.method === 'POST') {
        uploads.set(upload[1] ?? '', {
          bytes: await uploadedBytes(bytes, headers['content-type']),
          token: bearer,
        });
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(`OK - ${bytes.length}`);
        return;
      }
      if (url.pathname.startsWith('/response/') && req.method === 'POST') {
        const post: ResponseUrlPost = {
          method: RESPONSE_URL_METHOD,
          path: url.pathname.slice('/response/'.length),
          body,
          headers,
          rawBody: raw,
          token,
          receivedAt: performance.now(),
        };
        responseUrlPosts.push(post);
        notifyWaiters();
        await answer(post, res);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(`fake Slack: no route for ${req.method} ${url.pathname}`);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`fake Slack failed: ${String(error)}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  function waitFor(
    method: string,
    predicate?: (call: FakeCall) => boolean,
    options: WaitOptions = {},
  ): Promise<FakeCall> {
    const count = options.count ?? 1;
    const timeoutMs = options.timeoutMs ?? 5000;
    const already = matching(method, predicate);
    if (already.length >= count) {
      // biome-ignore lint/style/noNonNullAssertion: length checked above
      return Promise.resolve(already[count - 1]!);
    }
    return new Promise<FakeCall>((resolve, reject) => {
      const waiter: Waiter = {
        method,
        predicate,
        count,
        resolve: (call) => {
          clearTimeout(timer);
          resolve(call);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        const seen = matching(method, predicate).length;
        reject(
          new Error(
            `fake Slack: timed out after ${timeoutMs} ms waiting for ${count} call(s) to ${method}` +
              `${predicate ? ' matching the predicate' : ''} (got ${seen}).\n` +
              `Web API calls seen:\n${describeCalls(calls)}\n` +
              `response_url POSTs seen:\n${describeCalls(responseUrlPosts)}`,
          ),
        );
      }, timeoutMs);
      waiters.add(waiter);
    });
  }

  return {
    apiUrl: `${origin}/api/`,
    origin,
    calls,
    responseUrlPosts,
    callsTo: (method) => calls.filter((c) => c.method === method),
    waitFor,
    waitForResponseUrlPost: (predicate, options) =>
      waitFor(
        RESPONSE_URL_METHOD,
        predicate ? (call) => predicate(call as ResponseUrlPost) : undefined,
        options,
      ) as Promise<ResponseUrlPost>,
    respond(method, scripted, options = {}) {
      if (options.times !== undefined && (!Number.isInteger(options.times) || options.times < 1)) {
        throw new Error(`respond(${method}): times must be a positive integer`);
      }
      const list = overrides.get(method) ?? [];
      list.push({ answer: scripted, remaining: options.times });
      overrides.set(method, list);
    },
    responseUrl(path) {
      responseUrlCounter += 1;
      const rest = path ?? `commands/${FAKE_TEAM_ID}/${responseUrlCounter}/fake-response-url`;
      return `${origin}/response/${rest.replace(/^\/+/, '')}`;
    },
    addFile({ name, content, size, filetype = 'csv', user = 'UDISPATCH', downloadUrl, serve }) {
      const bytes = Buffer.from(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
      const file: FakeFile = {
        id: nextFileId(),
        name,
        bytes,
        size: size ?? bytes.length,
        filetype,
        user,
        ...(downloadUrl ? { downloadUrl } : {}),
        ...(serve ? { serve } : {}),
      };
      files.set(file.id, file);
      return file;
    },
    downloads,
    uploads,
    uploadsCompleted() {
      return calls
        .filter((call) => call.method === 'files.completeUploadExternal' && call.response?.status === 200)
        .filter((call) => (call.response?.body as SlackApiAnswer | undefined)?.ok === true)
        .flatMap((call) =>
          (call.body.files as { id: string; title?: string }[]).map((file) => {
            const uploaded = uploads.get(file.id);
            const getUrl = calls.find(
              (c) =>
                c.method === 'files.getUploadURLExternal' &&
                (c.response?.body as { file_id?: string } | undefined)?.file_id === file.id,
            );
            return {
              fileId: file.id,
              filename: String(getUrl?.body.filename ?? file.title ?? ''),
              text: uploaded?.bytes.toString('utf8') ?? '',
              token: uploaded?.token,
              ...(typeof call.body.channel_id === 'string' ? { channelId: call.body.channel_id } : {}),
              ...(typeof call.body.thread_ts === 'string' ? { threadTs: call.body.thread_ts } : {}),
              ...(typeof call.body.initial_comment === 'string'
                ? { initialComment: call.body.initial_comment }
                : {}),
            };
          }),
        );
    },
    reset() {
      files.clear();
      downloads.length = 0;
      uploads.clear();
      calls.length = 0;
      responseUrlPosts.length = 0;
      overrides.clear();
      views.clear();
      dmChannels.clear();
    },
    close() {
      for (const waiter of waiters) {
        waiters.delete(waiter);
        waiter.reject(new Error(`fake Slack: closed while waiting for a call to ${waiter.method}`));
      }
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
