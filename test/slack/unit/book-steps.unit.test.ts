/**
 * The booking modal without Bolt (milliseconds): the step of a field, typed values merged, the buttons'
 * changes (parcels added and removed, back, profile), each step and the review rendered within Slack's limits
 * (`test/support/block-kit-limits.ts`), values shown, rev in block ids, escaping.
 */
// The booking modal's pure parts without Bolt: which step shows a field, typed values merged, the
// buttons' changes, each step and the review rendered within Slack's limits, everything typed shown and escaped.
import { describe, expect, it } from 'vitest';
import { stateFor } from '../../../fakes/view-state.js';
import {
  addParcel,
  changeDetails,
  chooseProfile,
  removeParcel,
  stepBack,
} from '../../../src/slack/book/changes.js';
import { validateDraft, withTyped } from '../../../src/slack/book/draft.js';
import { type BookingDraft, bookingSteps, stepOfPath } from '../../../src/slack/book/form.js';
import {
  bookingDoneView,
  bookingExpiredView,
  bookingOutcomeView,
  bookingWorkingView,
  resolvedNotBookedView,
} from '../../../src/slack/book/outcome-view.js';
import { renderStep, stepToShow } from '../../../src/slack/book/steps.js';
import { nextRev } from '../../../src/slack/kit/drafts.js';
import { defaultCatalog } from '../../../src/waybill/catalog.js';
import type { SenderProfile } from '../../../src/waybill/profiles.js';
import { expectWithinSlackLimits, mrkdwnTexts } from '../../support/block-kit-limits.js';
import { draftOf, MAX_PARCELS, newBookingDraft, typedBooking, unitCore } from '../../support/unit-core.js';

const core = unitCore();
const hostile = '<!channel> & <@U1> <http://x|click>';
const escaped = '&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://x|click&gt;';
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const inputIds = (view: any): string[] =>
  view.blocks
    .filter((b: { type: string }) => b.type === 'input')
    .map((b: { block_id: string }) => b.block_id);
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const initialValueOf = (view: any, blockId: string) =>
  view.blocks.find((b: { block_id?: string }) => b.block_id === blockId)?.element.initial_value;

describe('stepOfPath: the step that shows a field', () => {
  it.each([
    ['trackingNumber', 'shipment'],
    ['pickupAt', 'shipment'],
    ['pickupAt.date', 'shipment'],
    ['package.weight', 'shipment'],
    ['consignee.name', 'receiver'],
    ['consignee', 'receiver'],
    ['shipper.phone', 'sender'],
    ['returnTo.city', 'sender'],
    ['merchantName', 'sender'],
    ['quantity', 'parcels'],
    ['childWaybills', 'parcels'],
    ['childWaybills.7.weight', 'parcels'],
    ['', 'shipment'],
    ['noSuchField', 'shipment'],
  ])('%s is on %s', (path, step) => {
    expect(stepOfPath(path, defaultCatalog, 2)).toBe(step);
  });
});

describe('withTyped: what the step on screen holds, merged into the draft', () => {
  it('reads the inputs back by path whatever the rev in their block ids, keeping the other steps', () => {
    const draft = newBookingDraft(core);
    const atReceiver = {
      ...draft.data,
      step: 'receiver' as const,
      rev: 7,
      input: { ...draft.data.input, x: 1 },
    };
    const view = renderStep(core, draftOf(atReceiver));
    expect(inputIds(view)).toContain('consignee.name#7');
    const typed = withTyped(atReceiver, stateFor(view.blocks, { 'consignee.name': 'Maria Santos' }));
    expect(typed.input.consignee).toMatchObject({ name: 'Maria Santos' });
    expect(typed.input.x).toBe(1);
    expect(typed.input.pickupAt).toEqual(draft.data.input.pickupAt);
    expect(atReceiver.input).not.toHaveProperty('consignee');
  });

  it('leaves a draft at the review as it is (the review has no inputs)', () => {
    const data = { ...newBookingDraft(core).data, step: 'review' as const };
    expect(withTyped(data, { 'consignee.name#1': { value: { type: 'plain_text_input', value: 'x' } } })).toBe(
      data,
    );
  });
});

describe('the booking modal’s buttons and selects', () => {
  const base = newBookingDraft(core).data;

  it('+ Add parcel: one more row of one of the first unit, up to the limit', () => {
    const one = addParcel(base, 2, 'CM');
    expect(one?.step).toBe('parcels');
    expect(one?.data.parcels).toBe(1);
    expect(one?.data.input.childWaybills).toEqual([{ quantity: '1', uom: 'CM' }]);
    const two = addParcel(one?.data as BookingDraft, 2, 'CM');
    expect(two?.data.parcels).toBe(2);
    expect(addParcel(two?.data as BookingDraft, 2, 'CM')).toBeUndefined();
    expect(base.parcels).toBe(0);
  });

  it('Remove a parcel…: that row goes, those after it move up; an unknown row changes nothing', () => {
    const rows = [{ weight: '1' }, { weight: '2' }, { weight: '3' }];
    const data = { ...base, parcels: 3, input: { ...base.input, childWaybills: rows } };
    const removed = removeParcel(data, '1');
    expect(removed?.data.parcels).toBe(2);
    expect(removed?.data.input.childWaybills).toEqual([{ weight: '1' }, { weight: '3' }]);
    expect(removed?.step).toBe('parcels');
    expect(rows).toHaveLength(3);
    for (const selected of ['3', '-1', '1.5', 'x', undefined])
      expect(removeParcel(data, selected)).toBeUndefined();
  });

  it('← Back: the step before, everything kept; the first step stays', () => {
    for (const [index, step] of bookingSteps.entries()) {
      const back = stepBack({ ...base, step });
      expect(back?.step).toBe(bookingSteps[Math.max(0, index - 1)]);
      expect(back?.data.input).toBe(base.input);
    }
  });

  it('Change details: the first step, never for a booked draft', () => {
    expect(changeDetails({ ...base, step: 'review' })?.step).toBe('shipment');
    expect(changeDetails({ ...base, bookedTrackingNumber: 'WB1' })).toBeUndefined();
  });

  it('a sender profile: the sender step with the profile applied; an unknown one changes nothing', () => {
    const profile = {
      id: 'pasig',
      label: 'Pasig',
      shipperCode: 'SC1',
      operatorContactNumber: '',
      merchantName: 'Acme',
      warehouseName: '',
      shipper: { name: 'Acme', phone: '02 8555 0100' },
    } as unknown as SenderProfile;
    const chosen = chooseProfile(base, [profile], 'pasig');
    expect(chosen?.step).toBe('sender');
    expect(chosen?.data.input).toMatchObject({ shipperCode: 'SC1', merchantName: 'Acme' });
    expect(chooseProfile(base, [profile], 'other')).toBeUndefined();
  });
});

describe('the steps, rendered', () => {
  it('a booking typed step by step reaches a review of exactly what was typed', () => {
    const data = typedBooking(core);
    const validated = validateDraft(core, data);
    expect(validated.ok).toBe(true);
    // The review carries the booking it was validated as, so nothing validates it again.
    expect(stepToShow(core, data, 'review')).toEqual({
      step: 'review',
      notices: [],
      booking: validated.ok && validated.value,
    });
    const review = renderStep(core, draftOf({ ...data, step: 'review' }));
    expectWithinSlackLimits(review);
    const shown = JSON.stringify(review);
    for (const value of ['Maria Santos', 'Acme Pasig Warehouse', 'Kitchen scales', 'WB000001', 'Scale 2'])
      expect(shown).toContain(value);
    expect(review.private_metadata).toBe(JSON.stringify({ draftId: 'D1' }));
  });

  it('every step within Slack’s limits, showing the draft’s values under block ids of its rev', () => {
    const data = typedBooking(core);
    for (const step of bookingSteps.filter((s) => s !== 'review')) {
      const view = renderStep(core, draftOf({ ...data, step, rev: 3 }));
      expectWithinSlackLimits(view);
      expect(inputIds(view).length).toBeGreaterThan(0);
      for (const id of inputIds(view)) expect(id).toMatch(/#3$/);
      // Shown again at the next rev: every input has a new block id, so Slack shows the draft's values.
      const again = renderStep(core, draftOf(nextRev({ ...data, step, rev: 3 })));
      expect(inputIds(again).filter((id) => inputIds(view).includes(id))).toEqual([]);
    }
    const receiver = renderStep(core, draftOf({ ...data, step: 'receiver', rev: 3 }));
    expect(initialValueOf(receiver, 'consignee.name#3')).toBe('Maria Santos');
  });

  it('the parcels step with as many rows as a booking may have fits one modal', () => {
    let data: BookingDraft = { ...typedBooking(core), step: 'parcels' };
    for (let i = data.parcels; i < MAX_PARCELS; i += 1)
      data = addParcel(data, MAX_PARCELS, 'CM')?.data ?? data;
    expect(data.parcels).toBe(MAX_PARCELS);
    const view = renderStep(core, draftOf(data));
    expectWithinSlackLimits(view);
    expect(JSON.stringify(view)).toContain(`Parcel ${MAX_PARCELS}: weight`);
  });

  it('a review asked for too early: the first step with a problem, three problems named and how many more', () => {
    const typed = typedBooking(core);
    const data = { ...typed, step: 'review' as const, input: { ...typed.input, consignee: {} } };
    const shown = stepToShow(core, data, 'review', ['ignored']);
    expect(shown.step).toBe('receiver');
    expect(shown.notices.length).toBeLessThanOrEqual(4);
    if (shown.notices.length === 4) expect(shown.notices[3]).toMatch(/^…and \d+ more$/);
    const view = renderStep(core, draftOf(data));
    expectWithinSlackLimits(view);
    expect(inputIds(view)).toContain('consignee.name#0');
    expect(JSON.stringify(mrkdwnTexts(view))).toContain(shown.notices[0]);
    expect(stepToShow(core, data, 'sender', ['kept'])).toEqual({ step: 'sender', notices: ['kept'] });
  });

  it('escapes what was typed and notices wherever mrkdwn shows them', () => {
    const data = typedBooking(core, { 'consignee.name': hostile, itemDescription: hostile });
    const review = renderStep(core, draftOf({ ...data, step: 'review' }));
    const step = renderStep(core, draftOf({ ...data, step: 'receiver' }), [hostile]);
    for (const view of [review, step]) {
      expectWithinSlackLimits(view);
      for (const text of mrkdwnTexts(view)) expect(text).not.toContain('<!channel>');
    }
    expect(JSON.stringify(mrkdwnTexts(review))).toContain(escaped);
    expect(JSON.stringify(mrkdwnTexts(step))).toContain(escaped);
  });

  it('the outcome views within Slack’s limits, a courier’s reason escaped', () => {
    const metadata = JSON.stringify({ draftId: 'D1' });
    const views = [
      bookingWorkingView('WB000001', 'sandbox', metadata),
      bookingDoneView('WB000001', { trackingRefNo: 'REF1' }, 'Posted in <#C1>.', 'live', metadata),
      bookingOutcomeView({ state: 'failed', message: hostile }, 'WB000001', 'test', metadata),
      bookingOutcomeView(
        { state: 'unknown', message: hostile, attemptKey: 'key-1' },
        'WB000001',
        'sandbox',
        metadata,
      ),
      bookingOutcomeView({ state: 'in-flight' }, 'WB000001', 'sandbox', metadata),
      resolvedNotBookedView('WB000001', 'sandbox', metadata),
      bookingExpiredView('sandbox'),
    ];
    for (const view of views) {
      expectWithinSlackLimits(view);
      for (const text of mrkdwnTexts(view)) expect(text).not.toContain('<!channel>');
    }
    expect(JSON.stringify(mrkdwnTexts(views[2]))).toContain(escaped);
    expect(JSON.stringify(views[1])).toContain('REF1');
  });
});
