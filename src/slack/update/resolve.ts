/**
 * Resolve, on an update whose courier outcome is unknown: "The courier has it" records the update
 * as sent (the record, the card edited, the change in its thread); "does not have it" records it as
 * not sent, and Try again sends it (the usual path). Once, whoever answers first; audited. The
 * bookkeeping is settleUpdate's; this turns its result into views.
 */

import type { App, ViewSubmitAction } from '@slack/bolt';
import { settleUpdate, type UpdateAttemptResult } from '../../operations/update.js';
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
import type { UpdateDeps, UpdateDraft } from './draft.js';
import { ids } from './ids.js';
import { announce } from './send.js';
import { checkUpdate } from './steps.js';

/** The unknown update a Resolve names, with its draft; or why it cannot be resolved (by this person), in words. */
async function unresolved(deps: Pick<UpdateDeps, 'store' | 'access' | 'logger'>, key: string, asker: Asker) {
  const found = await unresolvedWithDraft<UpdateAttemptResult, UpdateDraft>(deps, key, 'update');
  if (typeof found === 'string') return found;
  const booking = await deps.store.bookings.get(found.draft.data.trackingNumber);
  return (booking && (await refusalOnBooking(deps, asker, 'update', booking))) || found;
}

/** Records what the person answered, once (settleUpdate); the card and thread of an update the courier has are told after. */
async function settle(
  deps: Pick<UpdateDeps, 'store' | 'logger' | 'activity' | 'inFlight' | 'waybill' | 'schemas' | 'bot'>,
  { attempt, draft }: { attempt: Attempt; draft: Draft<UpdateDraft> },
  { verdict, userId, client }: Resolution,
): Promise<Settled> {
  const { trackingNumber } = draft.data;
  const { env } = deps.waybill;
  const metadata = viewMetadata({ draftId: draft.id });
  const verdictOn = { key: attempt.key, trackingNumber, decidedBy: userId };
  if (verdict === 'notBooked') {
    const settled = await settleUpdate(deps, verdictOn);
    const reason = 'The courier does not have this update (you checked).';
    return settled.state === 'not updated'
      ? { view: updateFailedView(reason, env, metadata) }
      : resolvedMeanwhile;
  }
  const stored = await storedBooking(deps, trackingNumber);
  const check = stored ? await checkUpdate(deps, draft, stored) : undefined;
  if (!stored || !check?.ok)
    return { problem: 'The record changed since this update: send the update again from the form.' };
  const { booking, changes } = check.value;
  const settled = await settleUpdate(deps, {
    ...verdictOn,
    updated: { booking, changes, baseVersion: draft.data.baseVersion, updatedBy: draft.userId },
  });
  if (settled.state !== 'updated') return resolvedMeanwhile;
  const record = settled.recorded.ok ? settled.recorded.booking : stored.record;
  deps.inFlight.run(
    'resolved update',
    () => announce(deps, client, record, booking, draft.userId, changes).then(() => undefined),
    { client, userId, what: `the card and thread line of \`${escapeMrkdwn(trackingNumber)}\`` },
  );
  return { view: updateDoneView(trackingNumber, changes, settled.note, env, metadata) };
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
