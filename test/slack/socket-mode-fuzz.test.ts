/**
 * Property-based: random and malformed Socket Mode envelopes (any type, any payload, not JSON, bytes), each
 * one with an id acknowledged within 3 s (also envelopes of 1-8 MB, one at a time), a command without an id
 * not acted on, no unhandled rejection, no courier call, still serving.
 */
// Random and malformed Socket Mode envelopes: each one acknowledged, no crash, no courier call.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import {
  blockActionsPayload,
  blockSuggestionPayload,
  messageShortcutPayload,
  slashCommandFields,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';
import { viewMetadata } from '../../src/slack/kit/ids.js';
import { nastyString } from '../support/arbitraries.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

/**
 * What reaches a Socket Mode connection is not signed HTTP but envelopes on a WebSocket, read by
 * Slack's Socket Mode client before Bolt sees them. Slack sends an envelope again until it is
 * acknowledged, so every envelope with an id is acknowledged (within Slack's 3 seconds), whatever
 * its type or payload; nothing throws where nobody catches it; nothing reaches the courier.
 */

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 40) * 5;
const ACK_WITHIN_MS = 3000;
const MB = 1024 * 1024;

/** Slack's own control messages: answered by the client, never acknowledged. */
const CONTROL = new Set(['hello', 'disconnect']);

let bot: TestBot;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  bot = await startTestBot({ socketMode: true });
});

afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await bot?.stop();
});

const anyJson = fc.jsonValue({ maxDepth: 3 });
const actionIds = fc.oneof(fc.constantFrom(...Object.values(ids)), nastyString);
const someone = fc.oneof(fc.constant('UDISPATCH'), nastyString);
/** Any value where a field is expected: the right kind, another, or none. */
const field = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: right }, { weight: 1, arbitrary: anyJson }, fc.constant(undefined));

const slashCommand = fc
  .record({
    command: field(fc.constantFrom('/quote', '/book', '/waybill', '/nope')),
    text: field(nastyString),
    user_id: field(someone),
    channel_id: field(fc.constantFrom('CDISPATCH', 'C404')),
  })
  .map((typed) => ({
    ...slashCommandFields({
      command: '/quote',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      channel_id: 'CDISPATCH',
    }),
    ...typed,
  }));

const viewArgs = fc.record({
  callbackId: actionIds,
  privateMetadata: fc.oneof(nastyString, fc.constant(viewMetadata({ draftId: 'no-such-draft' }))),
  viewId: fc.constant('VFUZZ'),
  stateValues: fc.constant({}),
});

const interaction = fc.oneof(
  fc
    .record({ actionId: actionIds, value: nastyString, user: someone, inModal: fc.boolean(), view: viewArgs })
    .map(({ inModal, view, ...args }) => blockActionsPayload({ ...args, ...(inModal ? { view } : {}) })),
  viewArgs.map((view) => viewSubmissionPayload({ ...view, user: 'UDISPATCH' })),
  fc
    .record({ actionId: actionIds, blockId: nastyString, value: nastyString, view: viewArgs })
    .map((args) => blockSuggestionPayload(args)),
  fc
    .record({ callbackId: actionIds, text: nastyString })
    .map((args) => messageShortcutPayload({ ...args, user: 'UDISPATCH' })),
);

/** A payload with one top-level field replaced by anything, or removed. */
const mangled = (payload: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(payload, fc.string({ maxLength: 12 }), fc.option(anyJson)).map(([p, key, value]) => {
    const keys = Object.keys(p);
    const chosen = keys.length > 0 ? (keys[key.length % keys.length] as string) : key;
    const copy: Record<string, unknown> = { ...p };
    if (value === null) delete copy[chosen];
    else copy[chosen] = value;
    return copy;
  });

const event = fc.record({
  type: field(fc.constantFrom('event_callback', 'url_verification')),
  event: field(
    fc.record({
      type: field(fc.constantFrom('app_home_opened', 'message', 'error', '__proto__', 'constructor')),
      user: field(someone),
      tab: field(fc.constantFrom('home', 'messages')),
      channel: field(fc.constant('DHOME')),
    }),
  ),
  event_id: field(fc.string()),
});

const envelopeType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('events_api', 'slash_commands', 'interactive') },
  {
    weight: 2,
    // Names the Socket Mode client also uses for its own events.
    arbitrary: fc.constantFrom(
      'error',
      'ws_message',
      'slack_event',
      'connecting',
      'connected',
      'authenticated',
      'disconnecting',
      'disconnected',
      'reconnecting',
      'outgoing_message',
      '__proto__',
      'constructor',
      'hello',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: anyJson },
  // Objects no String() can convert: their toString and valueOf are not functions.
  { weight: 1, arbitrary: fc.constantFrom({ toString: '' }, { toString: null, valueOf: 1 }) },
);

const envelope = fc
  .record({
    type: envelopeType,
    payload: fc.oneof(
      { weight: 2, arbitrary: slashCommand },
      { weight: 3, arbitrary: interaction },
      { weight: 2, arbitrary: mangled(interaction) },
      { weight: 2, arbitrary: event },
      { weight: 1, arbitrary: anyJson },
    ),
    accepts_response_payload: field(fc.boolean()),
    retry_attempt: field(fc.nat(3)),
    retry_reason: field(fc.constant('timeout')),
  })
  .map((fields) => ({ envelope_id: randomUUID(), ...fields }))
  .filter((message) => message.type !== 'disconnect');

/** Text that is not an envelope: not JSON, JSON of another shape, bytes. */
const notAnEnvelope = fc.oneof(
  fc.string({ maxLength: 200 }),
  anyJson.map((value) => JSON.stringify(value)),
  fc.constantFrom('null', '5', '[]', '"x"', '{}', '{"type":null}', '{"type":"events_api"}'),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

describe('Socket Mode envelopes, random and malformed', () => {
  it('acknowledges every envelope with an id within 3 s; nothing crashes or reaches the courier', async () => {
    const socket = bot.socket;
    if (!socket) throw new Error('no Socket Mode connection');
    // Sent one after another without waiting, as Slack does; each awaited acknowledgement noted.
    const awaited: { message: unknown; acked: boolean }[] = [];
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: envelope }, notAnEnvelope), async (message) => {
        const acked = socket.sendRaw(message);
        const expectAck =
          !Buffer.isBuffer(message) &&
          typeof message === 'object' &&
          !(typeof message.type === 'string' && CONTROL.has(message.type));
        if (!expectAck) return;
        const noted = { message, acked: false };
        awaited.push(noted);
        void acked.then(() => {
          noted.acked = true;
        });
      }),
      { numRuns: NUM_RUNS },
    );
    const sentAt = Date.now();
    while (awaited.some((a) => !a.acked) && Date.now() - sentAt < ACK_WITHIN_MS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const unacknowledged = awaited.filter((a) => !a.acked).map((a) => a.message);
    await bot.idle();
    expect(unacknowledged.slice(0, 3), `${unacknowledged.length} envelopes never acknowledged`).toEqual([]);
    expect(rejections).toEqual([]);
    expect(bot.sandbox.received).toEqual([]);

    // Still connected, still serving.
    const opened = bot.fake.callsTo('views.open').length;
    expect((await bot.command('/quote')).status).toBe(200);
    await bot.fake.waitFor('views.open', undefined, { count: opened + 1 });
  });

  it('acknowledges an envelope whose type no String() can convert, without throwing', async () => {
    const socket = bot.socket;
    if (!socket) throw new Error('no Socket Mode connection');
    for (const type of [{ toString: '' }, { toString: null, valueOf: 1 }]) {
      const acked = socket.sendRaw({ envelope_id: randomUUID(), type, payload: {} });
      await Promise.race([
        acked,
        new Promise((_, reject) => {
          setTimeout(
            () => reject(new Error(`no acknowledgement for type ${JSON.stringify(type)}`)),
            ACK_WITHIN_MS,
          ).unref();
        }),
      ]);
    }
    expect(rejections).toEqual([]);
  });

  it('huge envelopes (MBs, far past what Slack sends) acknowledged within 3 s each; a request without an envelope_id dropped unread; still serving', async () => {
    const socket = bot.socket;
    if (!socket) throw new Error('no Socket Mode connection');
    const received = bot.sandbox.received.length;
    const withoutId = () =>
      bot.logs.filter((line) => line.includes('a Socket Mode envelope without an id was ignored')).length;
    const droppedBefore = withoutId();
    // Slack never sends one without an id: it could not be acknowledged, so it is not acted on.
    const unacknowledgeable = slashCommandFields({
      command: '/quote',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      trigger_id: 'T-WITHOUT-ID',
    });
    await socket.sendRaw({ type: 'slash_commands', payload: unacknowledgeable });
    await socket.sendRaw(`{"type":"events_api","payload":"${'x'.repeat(8 * MB)}`);
    const envelopes: [string, unknown][] = [
      [
        'slash_commands',
        slashCommandFields({ command: '/book', text: `receiver=${'x'.repeat(MB)}`, fake: bot.fake }),
      ],
      [
        'slash_commands',
        slashCommandFields({ command: '/quote', text: 'weight=1 '.repeat(MB / 9), fake: bot.fake }),
      ],
      [
        'interactive',
        messageShortcutPayload({
          callbackId: ids.bookFromMessage,
          text: 'Rcvr 0917 '.repeat(MB / 10),
          responseUrl: bot.fake.responseUrl(),
        }),
      ],
      [
        'interactive',
        blockActionsPayload({
          actionId: ids.resolveOpen,
          value: 'x'.repeat(MB),
          responseUrl: bot.fake.responseUrl(),
        }),
      ],
      [
        'interactive',
        viewSubmissionPayload({
          callbackId: ids.quoteForm,
          privateMetadata: '{'.repeat(MB),
          viewId: 'VHUGE',
          stateValues: { big: { value: { type: 'plain_text_input', value: 'x'.repeat(MB) } } },
          user: 'UDISPATCH',
        }),
      ],
      ['events_api', { event: { type: 'x'.repeat(8 * MB) } }],
      ['x'.repeat(MB), {}],
    ];
    const late: string[] = [];
    // One at a time, so each is timed on its own.
    for (const [type, payload] of envelopes) {
      const sentAt = performance.now();
      await socket.sendRaw({ envelope_id: randomUUID(), type, payload });
      if (performance.now() - sentAt > ACK_WITHIN_MS) late.push(type.slice(0, 20));
      await bot.idle();
    }
    expect(late).toEqual([]);
    expect(rejections).toEqual([]);
    expect(bot.sandbox.received).toHaveLength(received);
    expect(withoutId()).toBe(droppedBefore + 1);
    // The command without an id opened nothing; still connected, still serving.
    const openedFor = (trigger: string) =>
      bot.fake.callsTo('views.open').filter((c) => c.body.trigger_id === trigger);
    expect(openedFor(unacknowledgeable.trigger_id)).toEqual([]);
    const quote = slashCommandFields({
      command: '/quote',
      fake: bot.fake,
      user_id: 'UDISPATCH',
      trigger_id: 'T-AFTER',
    });
    expect(
      await socket.sendRaw({ envelope_id: randomUUID(), type: 'slash_commands', payload: quote }),
    ).toBeDefined();
    await bot.fake.waitFor('views.open', (c) => c.body.trigger_id === quote.trigger_id);
  }, 30_000);
});
