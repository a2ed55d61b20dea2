/**
 * Updates without Bolt: what changes on the wire, the proposed update, the form and outcome views within
 * Slack's limits, escaped.
 */
// The update's pure parts without Bolt: what changes on the wire, the proposed update, the form and
// the outcome views within Slack's limits, the typed values shown and escaped.
import { describe, expect, it } from 'vitest';
import { validateDraft } from '../../../src/slack/book/draft.js';
import {
  changesMessage,
  updateDoneView,
  updateFailedView,
  updateHeldView,
  updateOutcomeView,
  updateWorkingView,
} from '../../../src/slack/update/blocks.js';
import {
  changesBetween,
  formValuesOf,
  proposedUpdate,
  type UpdateDraft,
} from '../../../src/slack/update/draft.js';
import { updateForm } from '../../../src/slack/update/steps.js';
import type { Booking } from '../../../src/waybill/schemas.js';
import { toUpdateWire } from '../../../src/waybill/wire.js';
import type { UpdateRequestWire } from '../../../src/waybill/wire-types.js';
import { expectWithinSlackLimits, mrkdwnTexts } from '../../support/block-kit-limits.js';
import { draftOf, typedBooking, unitCore } from '../../support/unit-core.js';

const core = unitCore();
const hostile = '<!channel> & <@U1> <http://x|click>';
const escaped = '&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://x|click&gt;';
const metadata = JSON.stringify({ draftId: 'D1' });

function booked(): Booking {
  const result = validateDraft(core, typedBooking(core));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

function updateDraft(booking: Booking, input = formValuesOf(booking, core.waybill.timeZone), rev = 0) {
  return draftOf<UpdateDraft>(
    { trackingNumber: booking.trackingNumber, baseVersion: 1, input, rev },
    'update',
  );
}

describe('changesBetween: what the courier will see change', () => {
  it('the keys whose values differ, in the order of the body sent, from and to, each named as the form names it', () => {
    const before = {
      a: '1',
      consigneeAddress4: '2',
      OperatorContactNumber: '3',
    } as unknown as UpdateRequestWire;
    const after = {
      OperatorContactNumber: '4',
      a: '1',
      consigneeAddress4: '',
    } as unknown as UpdateRequestWire;
    const { catalog } = core.waybill;
    expect(changesBetween(before, after, catalog)).toEqual([
      { key: 'OperatorContactNumber', field: 'Operator contact number', from: '3', to: '4' },
      { key: 'consigneeAddress4', field: 'Receiver barangay', from: '2', to: '' },
    ]);
    expect(changesBetween(after, after, catalog)).toEqual([]);
  });

  it('nothing between a booking and itself on the wire', () => {
    const wire = toUpdateWire(booked(), core.waybill.timeZone);
    expect(changesBetween(wire, { ...wire }, core.waybill.catalog)).toEqual([]);
  });
});

describe('proposedUpdate: the typed changes, validated, and what they change', () => {
  it('the form as opened changes nothing', () => {
    const booking = booked();
    const proposal = proposedUpdate(core, booking, updateDraft(booking).data);
    expect(proposal.ok && proposal.value.changes).toEqual([]);
  });

  it('a typed change is one change, the booking kept otherwise and its tracking number never changed', () => {
    const booking = booked();
    const input = formValuesOf(booking, core.waybill.timeZone);
    const typed = {
      ...input,
      consignee: { ...(input.consignee as object), name: 'Jose Rizal' },
      trackingNumber: 'X',
    };
    const proposal = proposedUpdate(core, booking, updateDraft(booking, typed).data);
    if (!proposal.ok) throw new Error(JSON.stringify(proposal.errors));
    expect(proposal.value.changes.map((c) => c.to)).toEqual(['Jose Rizal']);
    expect(proposal.value.changes[0]?.from).toBe('Maria Santos');
    expect(proposal.value.booking.trackingNumber).toBe(booking.trackingNumber);
    expect(proposal.value.booking.childWaybills).toEqual(booking.childWaybills);
  });

  it('an invalid change is refused with the field named', () => {
    const booking = booked();
    const input = formValuesOf(booking, core.waybill.timeZone);
    const typed = { ...input, consignee: { ...(input.consignee as object), name: '' } };
    const proposal = proposedUpdate(core, booking, updateDraft(booking, typed).data);
    expect(proposal.ok).toBe(false);
    if (!proposal.ok) expect(proposal.errors.map((e) => e.path)).toContain('consignee.name');
  });
});

describe('the update form and its outcomes', () => {
  it('the form shows the record’s values under block ids of the draft’s rev, within Slack’s limits', () => {
    const booking = booked();
    const form = updateForm(core, updateDraft(booking, undefined, 4), ['<@U2> changed this waybill']);
    expectWithinSlackLimits(form);
    const inputs = form.blocks.filter((b) => b.type === 'input');
    expect(inputs.length).toBeGreaterThan(0);
    for (const block of inputs) expect(block.block_id).toMatch(/#4$/);
    const name = inputs.find((b) => b.block_id === 'consignee.name#4');
    expect(JSON.stringify(name)).toContain('Maria Santos');
    expect(JSON.stringify(form)).toContain('<@U2> changed this waybill');
    expect(form.private_metadata).toBe(metadata);
  });

  it('a typed tracking number is escaped where mrkdwn shows it', () => {
    const booking = { ...booked(), trackingNumber: hostile };
    const form = updateForm(core, updateDraft(booking));
    expect(JSON.stringify(mrkdwnTexts(form))).toContain(escaped);
    for (const text of mrkdwnTexts(form)) expect(text).not.toContain('<!channel>');
  });

  it('the outcome views and the thread message within Slack’s limits, everything typed escaped', () => {
    const changes = [{ key: 'consigneeName', from: 'Maria Santos', to: hostile }];
    const surfaces = [
      updateWorkingView(hostile, changes, 'sandbox', metadata, 'Replaces an update of unknown outcome.'),
      updateDoneView(hostile, changes, 'Posted in <#C1>.', 'live', metadata),
      updateFailedView(hostile, 'test', metadata),
      updateOutcomeView(
        { state: 'unknown', message: hostile, attemptKey: 'key-1' },
        hostile,
        'sandbox',
        metadata,
      ),
      updateOutcomeView({ state: 'in-flight' }, hostile, 'sandbox', metadata),
      updateHeldView(hostile, 'U2', 'sandbox', metadata),
      changesMessage(hostile, 'U1', changes),
    ];
    for (const surface of surfaces) {
      expectWithinSlackLimits(surface);
      for (const text of mrkdwnTexts(surface)) expect(text).not.toContain('<!channel>');
      expect(JSON.stringify(mrkdwnTexts(surface))).toContain(escaped);
    }
  });
});
