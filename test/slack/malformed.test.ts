/**
 * Malformed and unknown Slack requests (those no listener handles answered at once, with Bolt's own timeout
 * set to 10 minutes, and the sender told), commands without text, forms Slack will not open.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import {
  type AppResponse,
  blockActionsPayload,
  interactiveBody,
  slashCommandBody,
  slashCommandFields,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';
import { outOfDateText } from '../../src/slack/guards/unmatched.js';
import { viewMetadata } from '../../src/slack/kit/ids.js';
import { secrets, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

/**
 * Requests Slack would never send (or sends rarely, like org-wide installs with `team: null`): each gets
 * a 2xx/4xx answer, a log line where it matters, nothing reaches the courier, and the bot keeps serving.
 */

let bot: TestBot;
let quoteView: View;

const textOf = (value: unknown): string => JSON.stringify(value);

const post = (body: string) => postToApp(bot.url, secrets.signingSecret, body);

/** Log lines (their `msg` and error message) written since `from`. */
function logsSince(from: number): string[] {
  return bot.logs.slice(from).map((line) => {
    const parsed = JSON.parse(line) as { msg?: string; err?: { message?: string } };
    return `${parsed.msg ?? ''} ${parsed.err?.message ?? ''}`;
  });
}

async function expectLogged(from: number, pattern: RegExp): Promise<void> {
  await bot.idle();
  expect(
    logsSince(from).some((line) => pattern.test(line)),
    logsSince(from).join('\n'),
  ).toBe(true);
}

/** A view submission of the quote form with these top-level payload fields / view fields replaced. */
function quoteSubmission(payload: Record<string, unknown> = {}, view: Record<string, unknown> = {}) {
  const base = viewSubmissionPayload({
    callbackId: ids.quoteForm,
    privateMetadata: quoteView.private_metadata,
    viewId: quoteView.id,
    blocks: quoteView.blocks,
    stateValues: {},
    user: 'UDISPATCH',
  });
  Object.assign(base.view as object, view);
  return interactiveBody({ ...base, ...payload });
}

function buttonClick(payload: Record<string, unknown> = {}, actionId: string = ids.waybillUpdate) {
  const base = blockActionsPayload({
    actionId,
    value: 'WB404',
    user: 'UDISPATCH',
    channelId: 'CDISPATCH',
    responseUrl: bot.fake.responseUrl('actions/1'),
  });
  return interactiveBody({ ...base, ...payload });
}

function commandWithout(field: string, command = '/quote', text = ''): string {
  const fields: Record<string, string> = {
    ...slashCommandFields({ command, text, fake: bot.fake, user_id: 'UDISPATCH', channel_id: 'CDISPATCH' }),
  };
  delete fields[field];
  return new URLSearchParams(fields).toString();
}

function expectNot5xx(response: AppResponse): void {
  expect(response.status).toBeGreaterThanOrEqual(200);
  expect(response.status).toBeLessThan(500);
}

beforeEach(async () => {
  bot = await startTestBot({ unhandledRequestTimeoutMs: 600_000 });
  await bot.command('/quote');
  quoteView = await bot.openedView();
});

afterEach(async () => {
  // Still serving: a valid /quote opens its modal.
  await bot.idle();
  const opened = bot.fake.callsTo('views.open').length;
  const response = await bot.command('/quote');
  expect(response.status).toBe(200);
  await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  expect(bot.sandbox.received).toEqual([]);
  await bot.stop();
});

describe('interactive payloads Bolt cannot use', () => {
  it('answers a payload that is not JSON with 400 and logs it', async () => {
    const from = bot.logs.length;
    const response = await post('payload=not-json');
    expect(response.status).toBe(400);
    await expectLogged(from, /Malformed request body/);
  });

  it('answers an over-sized body with 413 and logs it', async () => {
    const from = bot.logs.length;
    const response = await post(`payload=${'a'.repeat(4 * 1024 * 1024 + 16)}`);
    expect(response.status).toBe(413);
    await expectLogged(from, /body could not be read.*too large/);
  });

  // The bot checks signatures itself and hands Bolt the decoded payload (guards/body-guard.ts).
  it('refuses unsigned, wrongly signed and stale requests (401); answers ssl_check, never reading what was smuggled with it', async () => {
    const from = bot.logs.length;
    const opened = bot.fake.callsTo('views.open').length;
    const command = slashCommandBody({
      command: '/quote',
      text: '',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
    });
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;
    const responses = await Promise.all([
      postToApp(bot.url, secrets.signingSecret, quoteSubmission(), { unsigned: true }),
      postToApp(bot.url, secrets.signingSecret, quoteSubmission(), { badSignature: true }),
      postToApp(bot.url, secrets.signingSecret, command, { timestamp: stale }),
      postToApp(bot.url, secrets.signingSecret, command, { unsigned: true }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    await expectLogged(from, /without a valid signature: answered 401/);
    // A command or a submission smuggled into an unsigned ssl_check is never read.
    for (const smuggled of [command, quoteSubmission()]) {
      const sslCheck = await postToApp(bot.url, secrets.signingSecret, `ssl_check=1&${smuggled}`, {
        unsigned: true,
      });
      expect([sslCheck.status, sslCheck.body]).toEqual([200, '']);
    }
    await bot.idle();
    expect(bot.fake.callsTo('views.open').length).toBe(opened);
  });

  it('reads a payload however it is encoded (%20 or + for a space, every byte escaped), and one whose escapes are broken as Bolt does (400)', async () => {
    const json = decodeURIComponent(quoteSubmission().slice('payload='.length));
    const everyByte = [...Buffer.from(json)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const bodies = [
      interactiveBody(JSON.parse(json)),
      new URLSearchParams({ payload: json }).toString(),
      `payload=${everyByte}`,
    ];
    expect(bodies[1]?.includes('+')).toBe(true);
    for (const body of bodies) {
      const response = await post(body);
      expect(response.status).toBe(200);
      // An empty form: answered with its inline errors, each on its field.
      expect(textOf(response.body)).toContain('"response_action":"errors"');
    }
    const from = bot.logs.length;
    expect((await post('payload=%7B%22type%ZZ')).status).toBe(400);
    await expectLogged(from, /Malformed request body/);
  });

  // Bolt reads a field of the parsed body before checking it is an object: these were never answered.
  it('answers a signed body that is JSON but not an object (payload=null, a JSON null, an array) with 400', async () => {
    const from = bot.logs.length;
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const json = { contentType: 'application/json' };
      const responses = await Promise.all([
        post('payload=null'),
        post('payload=5'),
        post(interactiveBody([])),
        postToApp(bot.url, secrets.signingSecret, 'null', json),
        postToApp(bot.url, secrets.signingSecret, '"text"', json),
        // JSON's white space before the value: still not an object.
        post(`payload=${encodeURIComponent(' \n\t[]')}`),
        postToApp(bot.url, secrets.signingSecret, '\r\n null', json),
      ]);
      expect(responses.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
      await expectLogged(from, /body is not an object: answered 400/);
      // Unsigned, the same body is refused as any unsigned request is.
      expect(
        (await postToApp(bot.url, secrets.signingSecret, 'payload=null', { unsigned: true })).status,
      ).toBe(401);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  });

  // No listener matches these. Bolt would leave them unanswered until its unhandled-request timeout
  // (about 3 s, then 404, and Slack shows an error); this file's bots wait 10 minutes for that, so an
  // answer that arrives at all came from the bot itself. All sent at once.
  it('answers requests no listener handles at once (200), says what is out of date where Slack allows, and logs it', async () => {
    const from = bot.logs.length;
    const { type: _type, ...untyped } = JSON.parse(decodeURIComponent(quoteSubmission().slice(8)));
    const { actions: _actions, ...noActions } = JSON.parse(decodeURIComponent(buttonClick().slice(8)));
    const bodies = {
      'no type': interactiveBody(untyped),
      'empty body': '',
      'unknown view callback id': quoteSubmission({}, { callback_id: 'no_such_form' }),
      'the progress window submitted': quoteSubmission(
        {},
        { callback_id: ids.bulkProgress, submit: undefined },
      ),
      'unknown action id': buttonClick({}, 'no_such_button'),
      'block action without actions': interactiveBody(noActions),
      'block action with actions: []': buttonClick({ actions: [] }),
      'unknown slash command': slashCommandBody({ command: '/nope', fake: bot.fake }),
    };
    const responses = await Promise.all(Object.values(bodies).map(post));
    const answers = Object.fromEntries(Object.keys(bodies).map((name, i) => [name, responses[i]]));
    for (const [name, response] of Object.entries(answers)) expect(response?.status, name).toBe(200);

    // A stale form submitted: the notice in its place. A window with nothing to submit: closed.
    expect(answers['unknown view callback id']?.body).toMatchObject({ response_action: 'update' });
    expect(textOf(answers['unknown view callback id']?.body.view)).toContain(outOfDateText.slice(0, 60));
    expect(answers['the progress window submitted']?.body).toBe('');
    // An unknown command: said in the answer, which only its sender sees.
    expect(answers['unknown slash command']?.body).toMatchObject({ response_type: 'ephemeral' });
    expect(answers['unknown slash command']?.body.text).toContain('`/nope` is not a command this bot knows');
    // A stale button on a message: its clicker is told privately in the conversation, once per click.
    const told = await bot.fake.waitFor('chat.postEphemeral', undefined, { count: 3 });
    expect(told.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
    expect(String(told.body.text)).toContain(outOfDateText);

    await expectLogged(from, /a Slack request no listener handles/);
    const logged = bot.logs.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ type: 'block_actions', actionId: 'no_such_button', level: 40 }),
    );
    expect(logged).toContainEqual(expect.objectContaining({ command: '/nope' }));
    expect(logsSince(from).some((line) => /not acknowledged within 3 seconds/.test(line))).toBe(false);
  });

  it('answers a payload whose view is not an object (Bolt fails matching it) with 400 at once, logged', async () => {
    const from = bot.logs.length;
    const response = await post(quoteSubmission({ view: 'x' }));
    expect(response.status).toBe(400);
    await expectLogged(from, /a Slack request could not be processed/);
  });

  it('a stale button in a modal: acknowledged, and the notice put on top of the modal', async () => {
    const response = await post(
      interactiveBody(
        blockActionsPayload({
          actionId: 'no_such_button',
          user: 'UDISPATCH',
          view: { viewId: quoteView.id, callbackId: ids.quoteForm, blocks: quoteView.blocks },
        }),
      ),
    );
    expect(response.status).toBe(200);
    const pushed = await bot.fake.waitFor('views.push');
    expect(textOf(pushed.body.view)).toContain(outOfDateText.slice(0, 60));
  });

  // Bolt throws on these before any listener runs; the receiver's error handler answers 400 and logs it.
  for (const [name, body] of [
    ['a view submission without `user`', () => quoteSubmission({ user: undefined })],
    ['a view submission without `view`', () => quoteSubmission({ view: undefined })],
    ['a block action without `user`', () => buttonClick({ user: undefined })],
    ['a block action with `actions: {}`', () => buttonClick({ actions: {} })],
  ] as const) {
    it(`answers ${name} with a 4xx, not 500`, async () => {
      const from = bot.logs.length;
      const response = await post(body());
      await expectLogged(from, /a Slack request could not be processed/);
      expectNot5xx(response);
    });
  }
});

describe('org-wide installs (team: null)', () => {
  const orgWide = {
    team: null,
    is_enterprise_install: true,
    enterprise: { id: 'E0001', name: 'Org' },
  };

  it('opens /quote for a command with no team_id', async () => {
    const opened = bot.fake.callsTo('views.open').length;
    const response = await post(
      slashCommandBody({
        command: '/quote',
        fake: bot.fake,
        team_id: '',
        extra: { is_enterprise_install: 'true' },
      }),
    );
    expect(response.status).toBe(200);
    await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  });

  it('validates a view submission with team: null', async () => {
    const response = await post(quoteSubmission(orgWide));
    expect(response.status).toBe(200);
    expect(response.body.response_action).toBe('errors');
  });

  it('answers a block action with team: null', async () => {
    const response = await post(buttonClick(orgWide));
    expect(response.status).toBe(200);
    const reply = await bot.fake.waitForResponseUrlPost();
    expect(String(reply.body.text)).toContain('no record of waybill');
  });
});

describe('slash commands with fields missing', () => {
  it('logs a /quote without trigger_id that Slack refuses to open, answers 200, and says so', async () => {
    bot.fake.respond('views.open', { ok: false, error: 'invalid_arguments' }, { times: 1 });
    const from = bot.logs.length;
    const response = await post(commandWithout('trigger_id'));
    expectNot5xx(response);
    await expectLogged(from, /a form could not be opened.*invalid_arguments/);
    const reply = await bot.fake.waitForResponseUrlPost();
    expect(String(reply.body.text)).toContain('Slack refused to show the form');
  });

  for (const field of ['channel_id', 'user_id']) {
    it(`logs a /book without ${field}, answers 200, and says the form could not be prepared`, async () => {
      const from = bot.logs.length;
      const response = await post(commandWithout(field, '/book'));
      expectNot5xx(response);
      await expectLogged(from, /a form could not be opened/);
      const reply = await bot.fake.waitForResponseUrlPost();
      expect(String(reply.body.text)).toContain('Something went wrong while preparing the form');
    });
  }

  // Slack always sends `text`, empty when nothing was typed: without it the body is not Slack's.
  it('answers a command without text 400, with one warning each and no error', async () => {
    const from = bot.logs.length;
    const commands = ['/waybill', '/quote', '/book'];
    for (const command of commands)
      expect((await post(commandWithout('text', command))).status, command).toBe(400);
    await bot.idle();
    const logged = bot.logs.slice(from).map((line) => JSON.parse(line) as { level: number });
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    expect(logsSince(from).filter((line) => line.includes('a slash command without its text'))).toHaveLength(
      commands.length,
    );
  });

  it('answers /waybill show without user_id', async () => {
    const response = await post(commandWithout('user_id', '/waybill', 'show WB1'));
    expect(response.status).toBe(200);
    expect(response.body.text).toContain('no record of waybill');
  });
});

describe('view submissions whose private_metadata does not lead to a draft of their kind', () => {
  const forms = [
    { callbackId: ids.quoteForm, kind: 'quote', other: 'booking' },
    { callbackId: ids.bookingStep, kind: 'booking', other: 'update' },
    { callbackId: ids.bookingReview, kind: 'booking', other: 'quote' },
    { callbackId: ids.updateForm, kind: 'update', other: 'booking' },
  ];

  function submitWith(callbackId: string, privateMetadata: string) {
    return post(
      interactiveBody(
        viewSubmissionPayload({
          callbackId,
          privateMetadata,
          viewId: quoteView.id,
          blocks: quoteView.blocks,
          stateValues: {},
          user: 'UDISPATCH',
        }),
      ),
    );
  }

  function expectExpired(response: AppResponse, callbackId: string) {
    expect(response.status).toBe(200);
    if (callbackId === ids.bookingReview) {
      expect(response.body.response_action).toBe('update');
      expect(JSON.stringify(response.body.view)).toContain('expired');
    } else {
      expect(response.body.response_action).toBe('errors');
      expect(Object.keys(response.body.errors)).toEqual([
        quoteView.blocks.find((b) => b.type === 'input').block_id,
      ]);
      expect(String(Object.values(response.body.errors)[0])).toContain('expired');
    }
  }

  for (const { callbackId, other } of forms) {
    it(`${callbackId}: garbage, a missing draft, and a draft of another kind`, async () => {
      for (const metadata of [
        'garbage{',
        '',
        'null',
        '{"draftId":42}',
        viewMetadata({ draftId: 'missing' }),
      ]) {
        expectExpired(await submitWith(callbackId, metadata), callbackId);
      }
      const draft = await bot.deps.store.drafts.create({
        kind: other,
        userId: 'UDISPATCH',
        channelId: 'CDISPATCH',
        data: { input: {}, step: 'review', parcels: 0, rev: 0, trackingNumber: 'WB1', baseVersion: 1 },
      });
      expectExpired(await submitWith(callbackId, viewMetadata({ draftId: draft.id })), callbackId);
    });
  }

  // A quote form naming a booking draft must not overwrite that draft's input (quote-submit checks the kind).
  it('quote_form: a booking draft id is refused as expired and the draft is left alone', async () => {
    const draft = await bot.deps.store.drafts.create({
      kind: 'booking',
      userId: 'UDISPATCH',
      channelId: 'CDISPATCH',
      data: { input: { itemDescription: 'Kitchen scales' }, step: 'receiver', parcels: 0, rev: 0 },
    });
    const response = await submitWith(ids.quoteForm, viewMetadata({ draftId: draft.id }));
    expect((await bot.deps.store.drafts.get(draft.id))?.data).toEqual(draft.data);
    expectExpired(response, ids.quoteForm);
  });
});
