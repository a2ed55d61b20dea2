/** Property-based: random payloads at every form. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteTyped } from '../../fakes/quote-values.js';
import type { AppResponse } from '../../fakes/slack-requests.js';
import { stateFor } from '../../fakes/view-state.js';
import type { BookingDraft } from '../../src/slack/book/form.js';
import { pathOfBlock } from '../../src/slack/kit/forms.js';
import { viewMetadata } from '../../src/slack/kit/ids.js';
import { wireRequestSchemas } from '../../src/waybill/sandbox/wire-schemas.js';
import {
  expectNoErrorLogs,
  expectSafeViewAck,
  expectWireValid,
  nastyValue,
  submitRaw,
  type Typed,
  typedInto,
  wrongShapedState,
} from '../support/arbitraries.js';
import { bookThroughModal, next, parcel, receiver, shipment } from '../support/booking-flow.js';
import { startTestBot, type TestBot, type View } from '../support/bot-harness.js';

/**
 * Random input thrown at every view submission handler: whatever is typed (or however broken the
 * state Slack sends), the answer is one Slack accepts, nothing throws, and the courier is never sent a
 * body its interface refuses.
 */

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 40);

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

const senderTyped: Typed = {
  'shipper.name': 'Acme',
  'shipper.phone': '0917 000 0202',
  'shipper.street': '1 A St',
  'shipper.city': 'Pasig',
  'shipper.country': 'PH',
};

const parcelsTyped: Typed = { ...parcel(0, '1.5'), ...parcel(1, '2') };

const FREE_TEXT =
  /(^|\.)(street|region|city|district|barangay|name|itemDescription|handlingInstructions|remarks|reference\d|merchantName|warehouseName|shipperCode)$/;

function inputPaths(view: View): string[] {
  return view.blocks.filter((b) => b.type === 'input').map((b) => pathOfBlock(b.block_id));
}

/** Free-text inputs of a view (path → max length): any printable text validates there. */
function freeTextOf(view: View): Record<string, number> {
  const free: Record<string, number> = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || block.element.type !== 'plain_text_input') continue;
    const path = pathOfBlock(block.block_id);
    if (FREE_TEXT.test(path)) free[path] = block.element.max_length ?? 3000;
  }
  return free;
}

function draftIdOf(view: View): string {
  return JSON.parse(view.private_metadata ?? '{}').draftId;
}

/** One run: submit, wait for every background task, then check the answer, the logs and what the courier got. */
async function checkRun(bot: TestBot, view: View, submit: () => Promise<AppResponse>): Promise<void> {
  const logsFrom = bot.logs.length;
  const sentFrom = bot.sandbox.received.length;
  const response = await submit();
  await bot.idle();
  expectSafeViewAck(response, view);
  expectNoErrorLogs(bot, logsFrom);
  expectWireValid(bot, sentFrom);
}

function runProperty<T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) {
  return fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: NUM_RUNS });
}

describe('quote_form', () => {
  let bot: TestBot;
  let view: View;

  beforeAll(async () => {
    bot = await startTestBot();
    await bot.command('/quote', 'weight=2.5 to_city="Cebu City"');
    view = await bot.openedView();
    expect(view.callback_id).toBe(ids.quoteForm);
  });
  afterAll(() => bot.stop());

  it('answers any typed values safely, and quotes only with valid wire bodies', async () => {
    await runProperty(typedInto(inputPaths(view), quoteTyped, freeTextOf(view)), (typed) =>
      checkRun(bot, view, () => bot.submit(view, typed)),
    );
    // The baseline prices: some runs got through to the courier.
    expect(bot.sandbox.received.length).toBeGreaterThan(0);
  });

  it('answers wrong-shaped state values safely', async () => {
    await runProperty(wrongShapedState(stateFor(view.blocks, quoteTyped)), (values) =>
      checkRun(bot, view, () => submitRaw(bot, view, values)),
    );
  });
});

describe('booking_step', () => {
  let bot: TestBot;
  const steps: Record<string, { view: View; data: BookingDraft; baseline: Typed }> = {};

  beforeAll(async () => {
    bot = await startTestBot();
    const store = bot.deps.store.drafts;
    await bot.command('/book');
    const first = await bot.openedView();
    const draftId = draftIdOf(first);
    const snapshot = async () =>
      structuredClone((await store.get<BookingDraft>(draftId))?.data) as BookingDraft;
    steps.shipment = { view: first, data: await snapshot(), baseline: shipment };
    const second = await next(bot, first, shipment);
    steps.receiver = { view: second, data: await snapshot(), baseline: receiver };
    const third = await next(bot, second, receiver);
    steps.sender = { view: third, data: await snapshot(), baseline: senderTyped };
    const fourth = await next(bot, third, senderTyped);
    await bot.clickInView(fourth, ids.bookingAddParcel);
    let rows = await bot.updatedView(fourth.id, (v) => textOf(v.blocks).includes('Parcel 1: weight'));
    await bot.clickInView(rows, ids.bookingAddParcel, undefined, parcel(0, '1.5'));
    rows = await bot.updatedView(fourth.id, (v) => textOf(v.blocks).includes('Parcel 2: weight'));
    steps.parcels = { view: rows, data: await snapshot(), baseline: parcelsTyped };
    for (const [step, { data }] of Object.entries(steps)) expect(data.step).toBe(step);
  });
  afterAll(() => bot.stop());

  for (const step of ['shipment', 'receiver', 'sender', 'parcels']) {
    it(`${step}: answers any typed values safely`, async () => {
      const { view, data, baseline } = steps[step] as (typeof steps)[string];
      const store = bot.deps.store.drafts;
      await runProperty(typedInto(inputPaths(view), baseline, freeTextOf(view)), async (typed) => {
        await store.save(draftIdOf(view), data);
        await checkRun(bot, view, () => bot.submit(view, typed));
      });
      expect(bot.sandbox.received).toEqual([]);
    });

    it(`${step}: answers wrong-shaped state values safely`, async () => {
      const { view, data, baseline } = steps[step] as (typeof steps)[string];
      const store = bot.deps.store.drafts;
      await runProperty(wrongShapedState(stateFor(view.blocks, baseline)), async (values) => {
        await store.save(draftIdOf(view), data);
        await checkRun(bot, view, () => submitRaw(bot, view, values));
      });
    });
  }

  const blockOf = (view: View, path: string) =>
    view.blocks.find((b) => b.type === 'input' && pathOfBlock(b.block_id) === path)?.block_id as string;

  // Regression test (was a bug, fixed in src):
  it('refuses an impossible pickup date inline on the shipment step', async () => {
    const { view, data } = steps.shipment as (typeof steps)[string];
    await bot.deps.store.drafts.save(draftIdOf(view), data);
    const response = await bot.submit(view, { ...shipment, 'pickupAt.date': '2026-02-31' });
    expect(response.body.response_action).toBe('errors');
    expect(Object.keys(response.body.errors)).toContain(blockOf(view, 'pickupAt.date'));
  });

  // Regression test (was a bug, fixed in src):
  it('refuses an impossible pickup time inline on the shipment step', async () => {
    const { view, data } = steps.shipment as (typeof steps)[string];
    await bot.deps.store.drafts.save(draftIdOf(view), data);
    const response = await bot.submit(view, { ...shipment, 'pickupAt.time': '25:75' });
    expect(response.body.response_action).toBe('errors');
  });

  // Regression test (was a bug, fixed in src):
  it('a block id `__proto__.x` does not pollute Object.prototype', async () => {
    const { view, data, baseline } = steps.receiver as (typeof steps)[string];
    await bot.deps.store.drafts.save(draftIdOf(view), data);
    const values = {
      ...stateFor(view.blocks, baseline),
      '__proto__.pollutedByTest': { value: { type: 'plain_text_input', value: 'yes' } },
    };
    try {
      const response = await submitRaw(bot, view, values);
      expect(response.status).toBe(200);
      expect(({} as Record<string, unknown>).pollutedByTest).toBeUndefined();
    } finally {
      delete (Object.prototype as Record<string, unknown>).pollutedByTest;
    }
  });

  // Regression test (was a bug, fixed in src):
  it('a huge parcel index in a block id does not blow up the stored draft', async () => {
    const { view, data, baseline } = steps.parcels as (typeof steps)[string];
    const draftId = draftIdOf(view);
    await bot.deps.store.drafts.save(draftId, data);
    const values = {
      ...stateFor(view.blocks, baseline),
      'childWaybills.1000000.weight#9': { value: { type: 'number_input', value: '1' } },
    };
    const response = await submitRaw(bot, view, values);
    expect(response.status).toBe(200);
    expect(JSON.stringify((await bot.deps.store.drafts.get(draftId))?.data).length).toBeLessThan(100_000);
  });
});

/** Leaf paths of an object (`consignee.name`, `childWaybills.1.weight`, `pickupAt.date`). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key));
}

function withPath(target: unknown, path: string, value: unknown): unknown {
  const [head = '', ...rest] = path.split('.');
  const node: Record<string, unknown> = Array.isArray(target)
    ? ([...target] as unknown as Record<string, unknown>)
    : typeof target === 'object' && target !== null
      ? { ...(target as Record<string, unknown>) }
      : {};
  node[head] = rest.length === 0 ? value : withPath(node[head], rest.join('.'), value);
  return node;
}

describe('booking_review', () => {
  let bot: TestBot;
  let review: View;
  let input: Record<string, unknown>;

  beforeAll(async () => {
    bot = await startTestBot();
    await bot.command('/book');
    let view = await bot.openedView();
    for (const typed of [shipment, receiver, senderTyped]) view = await next(bot, view, typed);
    await bot.clickInView(view, ids.bookingAddParcel);
    const rows = await bot.updatedView(view.id, (v) => textOf(v.blocks).includes('Parcel 1: weight'));
    review = await next(bot, rows, parcel(0, '1.5'));
    expect(review.callback_id).toBe(ids.bookingReview);
    input =
      structuredClone((await bot.deps.store.drafts.get<BookingDraft>(draftIdOf(review)))?.data.input) ?? {};
  });
  afterAll(() => bot.stop());

  it('answers any stored draft input safely, and books only with valid wire bodies', async () => {
    const paths = [...leafPaths(input), 'childWaybills.1.weight', 'returnTo.name', 'package.volume'];
    const value = fc.oneof(
      { weight: 6, arbitrary: nastyValue },
      { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    );
    const corrupted = fc
      .dictionary(fc.constantFrom(...paths), value, { maxKeys: 5 })
      .map((changes) =>
        Object.entries(changes).reduce<unknown>((acc, [path, v]) => withPath(acc, path, v), input),
      );
    const draftInput = fc.oneof(
      { weight: 6, arbitrary: corrupted },
      { weight: 1, arbitrary: fc.constant<unknown>(input) },
      // Not null/undefined: that case has its own test below.
      { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).filter((v) => v !== null && v !== undefined) },
    );
    let run = 0;
    await runProperty(
      // At most 2 parcel rows keeps each run fast; the many-rows case has its own test below.
      fc.record({ input: draftInput, parcels: fc.integer({ min: 0, max: 2 }) }),
      async ({ input: randomInput, parcels }) => {
        run += 1;
        const draft = await bot.deps.store.drafts.create<BookingDraft>({
          kind: 'booking',
          userId: 'UDISPATCH',
          channelId: 'CDISPATCH',
          data: {
            input: randomInput as Record<string, unknown>,
            step: 'review',
            parcels,
            rev: 0,
            generatedTrackingNumber: `RV${String(run).padStart(4, '0')}`,
          },
        });
        const view = { ...review, private_metadata: viewMetadata({ draftId: draft.id }) };
        await checkRun(bot, view, () => bot.submit(view));
      },
    );
    expect(bot.sandbox.received.some((r) => r.operation === 'book')).toBe(true);
  });

  async function reviewDraft(
    draftInput: Record<string, unknown>,
    parcels: number,
    trackingNumber: string,
  ): Promise<View> {
    const draft = await bot.deps.store.drafts.create<BookingDraft>({
      kind: 'booking',
      userId: 'UDISPATCH',
      channelId: 'CDISPATCH',
      data: { input: draftInput, step: 'review', parcels, rev: 0, generatedTrackingNumber: trackingNumber },
    });
    return { ...review, private_metadata: viewMetadata({ draftId: draft.id }) };
  }

  // Regression test (was a bug, fixed in src):
  it('a draft at review that no longer validates is answered with a modal of at most 100 blocks', async () => {
    const rows = Array.from({ length: 10 }, () => ({}));
    const view = await reviewDraft({ ...input, childWaybills: rows }, 10, 'RVBLOCKS');
    const response = await bot.submit(view);
    expect(response.body.response_action).toBe('update');
    expect(response.body.view.blocks.length).toBeLessThanOrEqual(100);
  });

  // Regression test (was a bug, fixed in src):
  it('a draft at review whose input is null is still answered', async () => {
    const logsFrom = bot.logs.length;
    const view = await reviewDraft(null as unknown as Record<string, unknown>, 0, 'RVNULL');
    const response = await bot.submit(view);
    expectSafeViewAck(response, view);
    expectNoErrorLogs(bot, logsFrom);
  });

  // Regression test (was a bug, fixed in src):
  it('never sends the courier a five-digit year', async () => {
    const from = bot.sandbox.received.length;
    const view = await reviewDraft(
      {
        ...input,
        pickupAt: { date: '10000-01-01', time: { time: '10:00', timeZone: 'Asia/Manila' } },
        expectedDeliveryAt: { date: '10000-01-02', time: { time: '17:00', timeZone: 'Asia/Manila' } },
      },
      1,
      'RVYEAR',
    );
    await bot.submit(view);
    await bot.idle();
    for (const request of bot.sandbox.received.slice(from)) {
      expect(wireRequestSchemas[request.operation].safeParse(request.body).success).toBe(true);
    }
  });
});

describe('update_form', () => {
  let bot: TestBot;
  let form: View;
  let data: Record<string, unknown>;

  beforeAll(async () => {
    bot = await startTestBot({ env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    await bookThroughModal(bot);
    await bot.command('/waybill', 'update WB000001');
    form = await bot.openedView();
    expect(form.callback_id).toBe(ids.updateForm);
    data =
      structuredClone((await bot.deps.store.drafts.get<Record<string, unknown>>(draftIdOf(form)))?.data) ??
      {};
  });
  afterAll(() => bot.stop());

  /** The draft as opened, at the booking's current version, so every run is checked as a fresh edit. */
  async function restoreDraft() {
    const version = (await bot.deps.store.bookings.get('WB000001'))?.version;
    await bot.deps.store.drafts.save(draftIdOf(form), { ...data, baseVersion: version });
  }

  it('answers any typed values safely, and updates only with valid wire bodies', async () => {
    await runProperty(typedInto(inputPaths(form), {}, freeTextOf(form)), async (typed) => {
      await restoreDraft();
      await checkRun(bot, form, () => bot.submit(form, typed));
    });
    expect(bot.sandbox.received.some((r) => r.operation === 'update')).toBe(true);
  });

  it('answers wrong-shaped state values safely', async () => {
    await runProperty(wrongShapedState(stateFor(form.blocks, {})), async (values) => {
      await restoreDraft();
      await checkRun(bot, form, () => submitRaw(bot, form, values));
    });
  });
});
