/** The harness itself: signing, Bolt's receivers, the fake Slack. */
import type { AddressInfo } from 'node:net';
import { App, type Logger, LogLevel } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postToApp } from '../../fakes/post-to-app.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-fake.js';
import {
  blockActionsPayload,
  datepicker,
  interactiveBody,
  nowSeconds,
  numberInput,
  plainText,
  slashCommandBody,
  staticSelect,
  timepicker,
  viewClosedPayload,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';

const SIGNING_SECRET = 'test-signing-secret';

/** A Bolt Logger that keeps what it is told (and prints nothing). */
function captureLogger(): Logger & { lines: { level: string; msg: unknown[] }[] } {
  let level = LogLevel.INFO;
  const lines: { level: string; msg: unknown[] }[] = [];
  return {
    lines,
    debug: (...msg: unknown[]) => void lines.push({ level: 'debug', msg }),
    info: (...msg: unknown[]) => void lines.push({ level: 'info', msg }),
    warn: (...msg: unknown[]) => void lines.push({ level: 'warn', msg }),
    error: (...msg: unknown[]) => void lines.push({ level: 'error', msg }),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

interface RunningApp {
  app: App;
  url: string;
  origin: string;
  logger: ReturnType<typeof captureLogger>;
  stop(): Promise<void>;
}

async function startApp(
  fake: FakeSlack,
  configure: (app: App) => void,
  retryConfig: { retries: number; minTimeout?: number; maxTimeout?: number } = { retries: 0 },
): Promise<RunningApp> {
  const logger = captureLogger();
  const app = new App({
    token: 'xoxb-test-token',
    signingSecret: SIGNING_SECRET,
    // Known bot identity: no auth.test at construction or per request.
    botId: 'BBOT',
    botUserId: 'UBOT',
    processBeforeResponse: true,
    logger,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig },
    customRoutes: [
      {
        path: '/healthz',
        method: ['GET'],
        handler: (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('ok');
        },
      },
    ],
  });
  configure(app);
  // The default receiver is HTTPReceiver; App#start forwards to HTTPReceiver#start, which resolves with
  // the node:http Server once it is listening.
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { app, url: `${origin}/slack/events`, origin, logger, stop: () => app.stop() as Promise<void> };
}

describe('Slack test harness against a real Bolt 5 app', () => {
  let fake: FakeSlack;
  let running: RunningApp;

  beforeAll(async () => {
    fake = await startFakeSlack();
    running = await startApp(fake, (app) => {
      app.command('/ping', async ({ ack, body, client }) => {
        await ack();
        await client.views.open({
          trigger_id: body.trigger_id,
          view: {
            type: 'modal',
            callback_id: 'ping_modal',
            title: { type: 'plain_text', text: 'Ping' },
            submit: { type: 'plain_text', text: 'Send' },
            blocks: [
              {
                type: 'input',
                block_id: 'weight',
                label: { type: 'plain_text', text: 'Weight (kg)' },
                element: { type: 'number_input', action_id: 'value', is_decimal_allowed: true },
              },
            ],
          },
        });
      });
      app.command('/echo', async ({ ack, command, respond }) => {
        await ack();
        await respond({ text: `echo: ${command.text}`, response_type: 'ephemeral' });
      });
      app.view('ping_modal', async ({ ack, view }) => {
        const weight = view.state.values.weight?.value?.value;
        if (weight === undefined || weight === null || Number(weight) <= 0) {
          await ack({ response_action: 'errors', errors: { weight: 'Enter a weight above 0 kg' } });
          return;
        }
        await ack();
      });
      app.view({ callback_id: 'ping_modal', type: 'view_closed' }, async ({ ack, client, body }) => {
        await ack();
        await client.chat.postMessage({ channel: body.user.id, text: 'closed' });
      });
      app.action('retry_button', async ({ ack, client, body }) => {
        await ack();
        const channel = body.channel?.id ?? 'unknown';
        await client.chat.postMessage({ channel, text: 'clicked' });
      });
    });
  });

  afterEach(() => {
    fake.reset();
  });

  afterAll(async () => {
    await running.stop();
    await fake.close();
  });

  it('a signed slash command is acked with 200 and opens a modal with its trigger_id', async () => {
    const body = slashCommandBody({ command: '/ping', text: '', trigger_id: '111.222.abc', fake });
    const res = await postToApp(running.url, SIGNING_SECRET, body);
    expect(res.status).toBe(200);
    expect(res.body).toBe('');

    const call = await fake.waitFor('views.open');
    expect(call.body.trigger_id).toBe('111.222.abc');
    expect(call.token).toBe('xoxb-test-token');
    // The WebClient sends form fields with `view` as a JSON string; the fake parses it back.
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call.body.view).toMatchObject({ type: 'modal', callback_id: 'ping_modal' });
    expect(call.response?.body).toMatchObject({
      ok: true,
      view: { id: 'V00000001', callback_id: 'ping_modal' },
    });
  });

  it('respond() posts JSON to the response_url on the fake', async () => {
    const body = slashCommandBody({ command: '/echo', text: 'hello world', fake });
    const res = await postToApp(running.url, SIGNING_SECRET, body);
    expect(res.status).toBe(200);
    const post = await fake.waitForResponseUrlPost();
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.body).toEqual({ text: 'echo: hello world', response_type: 'ephemeral' });
    expect(post.path).toMatch(/^commands\/T0001\//);
  });

  it('a view submission is answered with the response_action errors body', async () => {
    const payload = viewSubmissionPayload({
      callbackId: 'ping_modal',
      viewId: 'V00000009',
      hash: '1700000000.abc',
      user: 'U0DISPATCH',
      stateValues: { weight: { value: numberInput('0') } },
    });
    const res = await postToApp(running.url, SIGNING_SECRET, interactiveBody(payload));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({ response_action: 'errors', errors: { weight: 'Enter a weight above 0 kg' } });

    const ok = viewSubmissionPayload({
      callbackId: 'ping_modal',
      stateValues: { weight: { value: numberInput(2.5) } },
    });
    const res2 = await postToApp(running.url, SIGNING_SECRET, interactiveBody(ok));
    expect(res2).toMatchObject({ status: 200, body: '' });
  });

  it('view_closed and block_actions payloads reach their listeners', async () => {
    const closed = viewClosedPayload({ callbackId: 'ping_modal', user: 'U0CLOSER' });
    expect((await postToApp(running.url, SIGNING_SECRET, interactiveBody(closed))).status).toBe(200);
    const dm = await fake.waitFor('chat.postMessage', (c) => c.body.channel === 'U0CLOSER');
    expect(dm.body.text).toBe('closed');

    const click = blockActionsPayload({ actionId: 'retry_button', value: 'WB123', channelId: 'C0DISPATCH' });
    expect((await postToApp(running.url, SIGNING_SECRET, interactiveBody(click))).status).toBe(200);
    await fake.waitFor('chat.postMessage', (c) => c.body.channel === 'C0DISPATCH');
  });

  it('refuses unsigned, wrongly signed and stale requests with 401', async () => {
    const body = slashCommandBody({ command: '/ping' });
    expect((await postToApp(running.url, SIGNING_SECRET, body, { unsigned: true })).status).toBe(401);
    expect((await postToApp(running.url, SIGNING_SECRET, body, { badSignature: true })).status).toBe(401);
    const sixMinutesAgo = nowSeconds() - 6 * 60;
    expect((await postToApp(running.url, SIGNING_SECRET, body, { timestamp: sixMinutesAgo })).status).toBe(
      401,
    );
    expect(fake.callsTo('views.open')).toHaveLength(0);
  });

  it('refuses a Content-Type with a charset suffix (400), even when correctly signed', async () => {
    const body = slashCommandBody({ command: '/ping' });
    const res = await postToApp(running.url, SIGNING_SECRET, body, {
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
    });
    expect(res.status).toBe(400);
  });

  it('serves customRoutes on the same server', async () => {
    const res = await fetch(`${running.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('scripted errors reach the listener as WebAPIPlatformError (and the app error handler)', async () => {
    fake.respond('views.open', { ok: false, error: 'expired_trigger_id' }, { times: 1 });
    const res = await postToApp(running.url, SIGNING_SECRET, slashCommandBody({ command: '/ping' }));
    // processBeforeResponse: the listener's rejection happens before the stored ack is written, so Bolt's
    // default processEventErrorHandler answers 500 instead of the ack.
    expect(res.status).toBe(500);
    const call = await fake.waitFor('views.open');
    expect(call.response?.body).toEqual({ ok: false, error: 'expired_trigger_id' });
    expect(running.logger.lines.some((l) => String(l.msg[0]).includes('expired_trigger_id'))).toBe(true);
  });

  it('state helpers produce the shapes of the Oct 2022 inputs fixture', () => {
    expect(plainText('x')).toEqual({ type: 'plain_text_input', value: 'x' });
    expect(numberInput(12345)).toEqual({ type: 'number_input', value: '12345' });
    expect(datepicker('2026-11-23')).toEqual({ type: 'datepicker', selected_date: '2026-11-23' });
    expect(timepicker('09:30', 'Asia/Manila')).toEqual({
      type: 'timepicker',
      selected_time: '09:30',
      timezone: 'Asia/Manila',
    });
    expect(staticSelect('3', ':star:')).toMatchObject({ selected_option: { value: '3' } });
  });
});

describe('fake Slack on its own', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('without botId/botUserId, Bolt calls auth.test at construction (answered by the fake)', async () => {
    const app = new App({
      token: 'xoxb-test-token',
      signingSecret: SIGNING_SECRET,
      logger: captureLogger(),
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    });
    const call = await fake.waitFor('auth.test');
    expect(call.token).toBe('xoxb-test-token');
    expect(call.response?.body).toMatchObject({
      ok: true,
      user_id: 'UBOT',
      bot_id: 'BBOT',
      team_id: 'T0001',
    });
    expect(app).toBeDefined();
  });

  it('waitFor rejects with a list of the calls seen', async () => {
    await expect(fake.waitFor('chat.update', undefined, { timeoutMs: 50 })).rejects.toThrow(
      /timed out after 50 ms waiting for 1 call\(s\) to chat.update[\s\S]*auth.test/,
    );
  });

  it('views.update keeps the view id, issues a new hash, and refuses a stale hash', async () => {
    const { WebClient } = (await import('@slack/bolt')).webApi;
    const client = new WebClient('xoxb-t', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const opened = await client.views.open({
      trigger_id: 't',
      view: { type: 'modal', title: { type: 'plain_text', text: 'A' }, blocks: [] },
    });
    const id = opened.view?.id as string;
    const updated = await client.views.update({
      view_id: id,
      hash: opened.view?.hash,
      view: { type: 'modal', title: { type: 'plain_text', text: 'B' }, blocks: [] },
    });
    expect(updated.view?.id).toBe(id);
    expect(updated.view?.hash).not.toBe(opened.view?.hash);
    await expect(
      client.views.update({
        view_id: id,
        hash: opened.view?.hash,
        view: { type: 'modal', title: { type: 'plain_text', text: 'C' }, blocks: [] },
      }),
    ).rejects.toMatchObject({ data: { ok: false, error: 'hash_conflict' } });
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'a' });
    const posted2 = await client.chat.postMessage({ channel: 'C1', text: 'b' });
    expect(Number(posted2.ts)).toBeGreaterThan(Number(posted.ts));
    const dm = await client.conversations.open({ users: 'U1' });
    expect(dm.channel?.id).toMatch(/^D/);
  });

  it('serves a file to its bearer token only, and takes uploads the way filesUploadV2 sends them', async () => {
    const { WebClient } = (await import('@slack/bolt')).webApi;
    const client = new WebClient('xoxb-t', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const file = fake.addFile({ name: 'orders.csv', content: 'a,b\n1,2\n' });
    const info = await client.files.info({ file: file.id });
    expect(info.file).toMatchObject({ id: file.id, name: 'orders.csv', size: 8, filetype: 'csv' });
    const url = info.file?.url_private_download ?? '';
    const withToken = await fetch(url, { headers: { Authorization: 'Bearer xoxb-t' } });
    expect(await withToken.text()).toBe('a,b\n1,2\n');
    const without = await fetch(url);
    expect(without.headers.get('content-type')).toMatch(/^text\/html/);
    expect(fake.downloads).toEqual([
      { fileId: file.id, token: 'xoxb-t' },
      { fileId: file.id, token: undefined },
    ]);
    await expect(client.files.info({ file: 'F404' })).rejects.toMatchObject({
      data: { error: 'file_not_found' },
    });

    await client.filesUploadV2({
      channel_id: 'C1',
      thread_ts: '1.2',
      filename: 'results.csv',
      content: 'row,outcome\n2,booked\n',
      initial_comment: 'Results',
    });
    expect(fake.uploadsCompleted()).toEqual([
      expect.objectContaining({
        filename: 'results.csv',
        text: 'row,outcome\n2,booked\n',
        channelId: 'C1',
        threadTs: '1.2',
        initialComment: 'Results',
      }),
    ]);
  });
});

describe('WebClient retries a 429 after Retry-After', () => {
  it('chat.postMessage answered 429 twice (Retry-After: 1) then ok is retried', async () => {
    const fake = await startFakeSlack();
    // retries: 2 for this client; minTimeout/maxTimeout 0 remove p-retry's own backoff (1 s, then 2 s by
    // default) on top of the Retry-After wait, so the whole exchange takes about 2 × 1 s.
    const running = await startApp(
      fake,
      (app) => {
        app.command('/post', async ({ ack, client, command }) => {
          await ack();
          await client.chat.postMessage({ channel: command.channel_id, text: 'after the rate limit' });
        });
      },
      { retries: 2, minTimeout: 0, maxTimeout: 0 },
    );
    try {
      fake.respond('chat.postMessage', { status: 429, retryAfter: 1 }, { times: 2 });
      const started = Date.now();
      const res = await postToApp(running.url, SIGNING_SECRET, slashCommandBody({ command: '/post' }));
      const elapsed = Date.now() - started;
      // processBeforeResponse: the ack is only written when the listener finishes, i.e. after the retries.
      expect(res.status).toBe(200);
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      const calls = fake.callsTo('chat.postMessage');
      expect(calls.map((c) => c.response?.status)).toEqual([429, 429, 200]);
      expect(calls[2]?.body).toMatchObject({ channel: 'C2147483705', text: 'after the rate limit' });
    } finally {
      await running.stop();
      await fake.close();
    }
  });
});
