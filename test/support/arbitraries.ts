/** fast-check generators for the property tests: hostile text, wrong-shaped state, odd bodies. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { postToApp } from '../../fakes/post-to-app.js';
import {
  type AppResponse,
  interactiveBody,
  type StateValues,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';
import { wireRequestSchemas } from '../../src/waybill/sandbox/wire-schemas.js';
import { secrets, type TestBot, type View } from './bot-harness.js';

/**
 * fast-check arbitraries for what a dispatcher (or a broken client) might type, and the checks every
 * answer to a view submission must pass whatever was typed.
 */

/** Strings that have broken Slack bots before: mrkdwn control sequences, odd numbers, odd unicode. */
export const nastyConstants: readonly string[] = [
  '',
  ' ',
  '   \t  ',
  '\n\n',
  '\u00a0\u2003\u200b',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U123>',
  '<#C123|general>',
  '<http://evil|click>',
  '<!channel> <@U123> <http://evil|click> & co',
  '&amp;',
  '&lt;!channel&gt;',
  '*bold* _it_ ~strike~ `code` ```block```',
  '0',
  '-0',
  '-1',
  '-1500.50',
  '1e309',
  '-1e309',
  '1e-309',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '1,500.50',
  '12.345',
  '99999999999999999999999',
  '٣٫٥',
  '１２３',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '{"a":1}',
  '__proto__',
  'constructor',
  'toString',
  'مرحبا بالعالم',
  'שלום עולם',
  '\u202eevil\u202c',
  'e\u0301\u0301\u0301',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '𠜎𠜱𠝹',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u0000',
  '\u0007bell',
  '\u001b[31mred',
  '\u007f',
  '\u0085',
  "'; DROP TABLE drafts; --",
  '2026-11-23',
  '2026-02-31',
  '0000-01-01',
  '10:00',
  '24:00',
  'PH',
  'ph',
  'PHL',
  'COD',
  'BOX',
  '+63 917 555 0100',
  'a@b.co',
  'WB000001',
];

const whitespace = fc.string({
  unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u200b', '\u3000'),
  maxLength: 20,
});

/**
 * Up to 60 of any code point but lone surrogates, as `fc.string({ unit: 'binary' })` draws them, without
 * the start-up cost of `fc.string`: fitting its built-in slices (`__proto__`, `toString`…) to this unit maps
 * all 1.1 million code points, about 0.7 s of CPU in every test process that imports this file.
 * nastyConstants holds the slices that matter here.
 */
const anyCodePoints = fc
  .array(
    fc.mapToConstant(
      { num: 0xd800, build: (at) => String.fromCodePoint(at) },
      { num: 0x110000 - 0xe000, build: (at) => String.fromCodePoint(0xe000 + at) },
    ),
    { maxLength: 60 },
  )
  .map((units) => units.join(''));

const numbersAsText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double({ min: 0, max: 1e6, noNaN: true }).map((n) => n.toFixed(3)),
);

/** Up to 5000 characters: a repeated nasty constant, or random text. */
const longText = fc.oneof(
  fc
    .tuple(fc.constantFrom(...nastyConstants.filter(Boolean)), fc.integer({ min: 50, max: 5000 }))
    .map(([text, length]) => text.repeat(Math.ceil(length / text.length)).slice(0, length)),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 5000 }),
);

/** Anything a text input might hold. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...nastyConstants) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: anyCodePoints },
  { weight: 1, arbitrary: whitespace },
  { weight: 1, arbitrary: numbersAsText },
  { weight: 1, arbitrary: longText },
);

/** A typed value, or `null` (an input left empty). */
export const nastyValue: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 9, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Text a validating form accepts in a free-text field (no control characters). */
export const printableText = (maxLength: number) =>
  fc
    .string({ unit: 'grapheme', maxLength })
    .filter((s) => !/[^\P{Cc}\t\n\r]/u.test(s) && [...s].length <= maxLength);

export type Typed = Record<string, string | null>;

/**
 * What is typed into a form: the valid baseline with a few fields corrupted, or every field corrupted.
 * Free-text fields (`freeText`: path → max length) sometimes get random printable text that validates,
 * so that submissions also get past validation and reach the courier with unusual text.
 */
export function typedInto(
  paths: readonly string[],
  baseline: Typed,
  freeText: Record<string, number> = {},
): fc.Arbitrary<Typed> {
  const free = Object.keys(freeText);
  const validFree =
    free.length === 0
      ? fc.constant({})
      : fc.dictionary(
          fc.constantFrom(...free),
          fc.constant(null).chain(() => printableText(30)),
          { maxKeys: 6 },
        );
  const someCorrupted = fc
    .tuple(validFree, fc.dictionary(fc.constantFrom(...paths), nastyValue, { maxKeys: 5 }))
    .map(([valid, corrupted]) => ({ ...baseline, ...valid, ...corrupted }));
  const allCorrupted = fc.record(Object.fromEntries(paths.map((path) => [path, nastyValue])));
  const validOnly = validFree.map((valid) => ({ ...baseline, ...valid }));
  return fc.oneof(
    { weight: 5, arbitrary: someCorrupted },
    { weight: 2, arbitrary: validOnly },
    { weight: 1, arbitrary: allCorrupted },
  );
}

/** A state value of the wrong shape, as a broken or hostile client might send it. */
const wrongStateValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant('x'),
  fc.integer(),
  fc.constant([]),
  fc.constant({}),
  fc.record({ type: fc.constant('plain_text_input'), value: fc.oneof(fc.integer(), fc.double()) }),
  fc.record({ type: fc.constant('plain_text_input'), value: fc.constantFrom({ a: 1 }, [1, 2], ['x'], true) }),
  fc.record({ type: fc.constant('number_input'), value: fc.oneof(fc.double(), fc.constant({})) }),
  fc.record({ type: fc.constant('static_select'), selected_option: fc.constant(null) }),
  fc.record({ type: fc.constant('static_select'), selected_option: fc.constant('BOX') }),
  fc.record({
    type: fc.constant('static_select'),
    selected_option: fc.record({ value: fc.oneof(nastyString, fc.integer(), fc.constant({})) }),
  }),
  fc.record({ type: fc.constant('static_select'), value: nastyString }),
  fc.record({ type: fc.constant('datepicker'), selected_date: fc.oneof(nastyString, fc.integer()) }),
  fc.record({
    type: fc.constant('timepicker'),
    selected_time: fc.oneof(nastyString, fc.integer()),
    timezone: fc.oneof(nastyString, fc.constant(undefined), fc.integer()),
  }),
  fc.record({ type: fc.constantFrom('checkboxes', 'users_select', 'rich_text_input', 'unknown') }),
  fc.record({ type: fc.integer(), value: nastyString }),
  fc.anything({ maxDepth: 2 }),
);

/** Block ids that are not in the form (never `__proto__`: see the pollution test). */
const unknownBlockId = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => !s.split(/[.#]/).includes('__proto__')),
  fc.constantFrom('', '.', '..', 'a.b.c', 'childWaybills', 'childWaybills.x.weight', 'package', 'shipper'),
);

/**
 * `view.state.values` of the wrong shape, built from a valid one: blocks dropped, action ids renamed,
 * values replaced by the wrong type, unknown blocks added, or the whole thing replaced.
 */
export function wrongShapedState(valid: StateValues): fc.Arbitrary<unknown> {
  const blockIds = Object.keys(valid);
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), blockId: fc.constantFrom(...blockIds) }),
    fc.record({
      kind: fc.constant('rename' as const),
      blockId: fc.constantFrom(...blockIds),
      actionId: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('VALUE', 'values', '')),
    }),
    fc.record({
      kind: fc.constant('replace' as const),
      blockId: fc.constantFrom(...blockIds),
      value: wrongStateValue,
    }),
    fc.record({
      kind: fc.constant('actions' as const),
      blockId: fc.constantFrom(...blockIds),
      value: fc.oneof(fc.constant(null), fc.constant('x'), fc.integer(), fc.constant([])),
    }),
    fc.record({ kind: fc.constant('add' as const), blockId: unknownBlockId, value: wrongStateValue }),
  );
  const edited = fc.array(edit, { minLength: 1, maxLength: 8 }).map((edits) => {
    const state: Record<string, unknown> = structuredClone(valid);
    for (const e of edits) {
      switch (e.kind) {
        case 'drop':
          delete state[e.blockId];
          break;
        case 'rename': {
          const actions = state[e.blockId];
          if (actions && typeof actions === 'object') {
            const [first] = Object.values(actions);
            state[e.blockId] = { [e.actionId]: first };
          }
          break;
        }
        case 'replace':
          state[e.blockId] = { value: e.value };
          break;
        case 'actions':
          state[e.blockId] = e.value;
          break;
        case 'add':
          state[e.blockId] = { value: e.value };
          break;
      }
    }
    return state;
  });
  return fc.oneof(
    { weight: 8, arbitrary: edited },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(null, {}, [], 'values', 42, { '': null }, { value: { value: {} } }),
    },
  );
}

/** A view submission with `view.state.values` exactly as given (any shape). */
export function submitRaw(
  bot: TestBot,
  view: View,
  values: unknown,
  user = 'UDISPATCH',
): Promise<AppResponse> {
  const payload = viewSubmissionPayload({
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
    viewId: view.id,
    hash: view.hash ?? 'h1',
    blocks: view.blocks,
    user,
  });
  (payload.view as { state: unknown }).state = { values };
  return postToApp(bot.url, secrets.signingSecret, interactiveBody(payload));
}

/** Error-level (pino level ≥ 50) log lines among these. */
export function errorLines(lines: readonly string[]): string[] {
  return lines.filter((line) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return /listener failed|background task failed/.test(line);
    }
  });
}

/** Why Slack would refuse this answer to a view submission; none if it accepts it. */
function viewAckProblems(response: AppResponse, submitted: View): string[] {
  if (response.status !== 200) return [`status ${response.status}`];
  if (response.body === '' || response.body === undefined) return [];
  if (typeof response.body !== 'object') return [`a ${typeof response.body} body`];
  const action = response.body.response_action;
  if (!['errors', 'update', 'clear'].includes(action)) return [`response_action ${action}`];
  const problems: string[] = [];
  if (action === 'errors') {
    const errors = response.body.errors as Record<string, unknown>;
    if (typeof errors !== 'object' || errors === null || Object.keys(errors).length === 0)
      return ['errors for no input'];
    const blockIds = new Set(submitted.blocks.map((b) => b.block_id).filter(Boolean));
    for (const [blockId, message] of Object.entries(errors)) {
      if (!blockIds.has(blockId)) problems.push(`${blockId} is not a block of the view`);
      if (typeof message !== 'string' || message.length === 0 || message.length > 2000)
        problems.push(`${blockId}: not a message of 1 to 2,000 characters`);
    }
  }
  if (action === 'update') {
    const view = response.body.view;
    if (view?.type !== 'modal') problems.push(`a ${view?.type} view`);
    if (typeof view?.title?.text !== 'string' || view.title.text.length > 24)
      problems.push('a title not of at most 24 characters');
    if (!Array.isArray(view?.blocks) || view.blocks.length > 100)
      problems.push('blocks not a list of at most 100');
  }
  return problems;
}

/**
 * What Slack accepts as the answer to a view submission: an empty 200, or a JSON ack with
 * `errors` for inputs of this view, a modal to `update` to, or `clear`.
 */
export function expectSafeViewAck(response: AppResponse, submitted: View): void {
  const problems = viewAckProblems(response, submitted);
  // The answer is written out only for a failure: for every run of a property it cost more than the checks.
  expect(problems, problems.length > 0 ? JSON.stringify(response.body).slice(0, 2000) : undefined).toEqual(
    [],
  );
}

/** Every request the courier sandbox received (from the `from`-th on) is one the interface's strict wire schema accepts. */
export function expectWireValid(bot: TestBot, from = 0): void {
  for (const request of bot.sandbox.received.slice(from)) {
    const result = wireRequestSchemas[request.operation].safeParse(request.body);
    expect(
      result.success,
      `${request.operation} body refused by the wire schema: ${JSON.stringify(result.error?.issues ?? []).slice(0, 1000)}\n${JSON.stringify(request.body).slice(0, 2000)}`,
    ).toBe(true);
  }
}

/** No error-level log line from `from` on. */
export function expectNoErrorLogs(bot: TestBot, from = 0): void {
  expect(errorLines(bot.logs.slice(from))).toEqual([]);
}
