/**
 * Resolve, on an update whose courier outcome is unknown: "The courier has it" records the update
 * as sent (the record, the card edited, the change in its thread); "does not have it" records it as
 * not sent, and Try again sends it (the usual path). Once, whoever answers first; audited.
 */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { settleUnknown } from '../../operations/resolve.js';
import type { UpdateAttemptResult } from '../../operations/update.js';
import type { Attempt, Draft } from '../../store/index.js';
import {
  type Resolution,
  resolveButton,
  resolvedMeanwhile,
  resolveSubmission,
  type Settled,
  storedBooking,
  unresolvedWithDraft,
} from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, refusalOnBooking } from '../guards/booking-access.js';
import { viewMetadata } from '../kit/ids.js';
import { ackNow, type ButtonClick, type Told, tellClicker } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { updateDoneView, updateFailedView } from './blocks.js';
import type { UpdateDraft } from './draft.js';
import { ids } from './ids.js';
import { announce } from './send.js';
import { checkUpdate } from './steps.js';

/** The unknown update a Resolve names, with its draft; or why it cannot be resolved (by this person), in words. */
async function unresolved(deps: Core, key: string, asker: Asker) {
  const found = await unresolvedWithDraft<UpdateAttemptResult, UpdateDraft>(deps, key, 'update');
  if (typeof found === 'string') return found;
  const booking = await deps.store.bookings.get(found.draft.data.trackingNumber);
  return (booking && (await refusalOnBooking(deps, asker, 'update', booking))) || found;
}

/** Records what the person answered, once; the card and thread of an update the courier has are told after. */
async function settle(
  deps: Core,
  { attempt, draft }: { attempt: Attempt; draft: Draft<UpdateDraft> },
  { verdict, userId, client }: Resolution,
): Promise<Settled> {
  const { trackingNumber } = draft.data;
  const { env } = deps.waybill;
  const metadata = viewMetadata({ draftId: draft.id });
  const audit = (outcome: string, detail: string) => ({
    userId,
    operation: 'resolve',
    trackingNumber,
    outcome,
    detail: `${detail}: decided by ${userId}`,
  });
  if (verdict === 'notBooked') {
    const message = `Not updated: <@${userId}> checked with the courier, who does not have this update.`;
    const done = await settleUnknown(deps, {
      key: attempt.key,
      state: 'failed',
      result: { message } satisfies UpdateAttemptResult,
      audit: audit('not updated', 'the courier does not have the update'),
    });
    const reason = 'The courier does not have this update (you checked).';
    return done ? { view: updateFailedView(reason, env, metadata) } : resolvedMeanwhile;
  }
  const stored = await storedBooking(deps, trackingNumber);
  const check = stored ? await checkUpdate(deps, draft, stored) : undefined;
  if (!stored || !check?.ok)
    return { problem: 'The record changed since this update: send the update again from the form.' };
  const { booking, changes } = check.value;
  const note = 'The change is being posted.';
  const settled = await settleUnknown(deps, {
    key: attempt.key,
    state: 'succeeded',
    result: { changes, note } satisfies UpdateAttemptResult,
    audit: audit('updated', 'the courier has the update'),
    record: (tx) =>
      tx.bookings.updateRecord(
        trackingNumber,
        draft.data.baseVersion,
        booking,
        draft.userId,
        booking.pickupAt,
      ),
  });
  const updated = settled?.recorded;
  if (!updated) return resolvedMeanwhile;
  deps.activity.changed(userId);
  const record = updated.ok ? updated.booking : stored.record;
  deps.inFlight.run(
    'resolved update',
    () => announce(deps, client, record, booking, draft.userId, changes).then(() => undefined),
    { client, userId, what: `the card and thread line of \`${escapeMrkdwn(trackingNumber)}\`` },
  );
  return { view: updateDoneView(trackingNumber, changes, note, env, metadata) };
}

export function register(app: App, deps: Core): void {
  const find = (key: string, asker: Asker) => unresolved(deps, key, asker);
  app.action<ButtonClick, Told>(
    ids.resolveUpdateOpen,
    requires(deps, 'update'),
    ackNow,
    tellClicker,
    resolveButton(deps, ids.resolveUpdateForm, find),
  );
  app.view<ViewSubmitAction>(
    ids.resolveUpdateForm,
    requires(deps, 'update'),
    resolveSubmission(find, (found, resolution) => settle(deps, found, resolution)),
  );
}
