/** A waybill update from form to thread: the draft, what changed, sending once, and telling the channel. */
import { setTimeout as delay } from 'node:timers/promises';
import type { ModalView } from '@slack/types';
import {
  type Attempt,
  type BookingRecord,
  type Draft,
  StoreUnavailableError,
  type UpdateRecordResult,
} from '../../store/index.js';
import { toBookingInput } from '../../waybill/booking-input.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { isWaybillApiError } from '../../waybill/errors.js';
import { type Booking, type FieldError, type Validation, validate } from '../../waybill/schemas.js';
import { toUpdateWire } from '../../waybill/wire.js';
import type { UpdateRequestWire } from '../../waybill/wire-types.js';
import type { BotDeps } from '../deps.js';
import { beginAttempt, type CourierAttempt, storeOutcome, updateAttempt } from '../shared/attempts.js';
import { notice } from '../shared/blocks.js';
import { bookingCard } from '../shared/booking-card.js';
import { postToChannel, postToUser, type SlackClient } from '../shared/delivery.js';
import { draftOfView, viewMetadata } from '../shared/ids.js';
import { type SendStep, showInModal } from '../shared/modal.js';
import { escapeMrkdwn } from '../shared/mrkdwn.js';
import { storedBooking } from '../shared/stored-booking.js';
import {
  changesMessage,
  type FieldChange,
  updateBusyView,
  updateDoneView,
  updateFailedView,
  updateFormView,
  updateHeldView,
  updateUnknownView,
  updateWorkingView,
} from './blocks.js';

/** An update in progress: which booking, the version it was opened at, and what is typed. */
export interface UpdateDraft {
  trackingNumber: string;
  baseVersion: number;
  input: Record<string, unknown>;
  rev: number;
}

export type UpdateAttemptResult = { changes: FieldChange[]; note: string } | { message: string };

/** A booking as form values: dates split for the pickers, in WAYBILL_TIMEZONE. */
export function formValuesOf(booking: Booking, timeZone: string): Record<string, unknown> {
  return {
    ...booking,
    pickupAt: zonedDateAndTime(booking.pickupAt, timeZone),
    expectedDeliveryAt: zonedDateAndTime(booking.expectedDeliveryAt, timeZone),
  };
}

export function unknownWaybillText(trackingNumber: string): string {
  return `I have no record of waybill \`${trackingNumber}\`, so I cannot update it: an update sends the complete record, and only waybills booked through this bot are known here. Check the tracking number (\`/waybill show ${trackingNumber}\`), or change it with the courier directly.`;
}

export async function createUpdateDraft(
  deps: BotDeps,
  where: { userId: string; channelId: string },
  trackingNumber: string,
) {
  const stored = await storedBooking(deps, trackingNumber);
  if (!stored) return undefined;
  return deps.store.drafts.create<UpdateDraft>({
    kind: 'update',
    ...where,
    data: {
      trackingNumber,
      baseVersion: stored.record.version,
      input: formValuesOf(stored.booking, deps.waybill.timeZone),
      rev: 0,
    },
  });
}

export function updateForm(deps: BotDeps, draft: Draft<UpdateDraft>, notices: string[] = []) {
  return updateFormView({
    trackingNumber: draft.data.trackingNumber,
    ...deps.forms.update,
    values: draft.data.input,
    metadata: viewMetadata({ draftId: draft.id }),
    env: deps.waybill.env,
    notices,
    rev: draft.data.rev,
  });
}

export function updateDraftOfView(deps: BotDeps, privateMetadata: string | undefined) {
  return draftOfView<UpdateDraft>(deps.store.drafts, privateMetadata, 'update');
}

/** What the courier will see change: the Update bodies before and after, key by key. */
function changesBetween(before: UpdateRequestWire, after: UpdateRequestWire): FieldChange[] {
  return (Object.keys(after) as (keyof UpdateRequestWire)[])
    .filter((key) => before[key] !== after[key])
    .map((key) => ({ key, from: before[key], to: after[key] }));
}

export interface ProposedUpdate {
  /** The stored booking with the typed changes applied (Booking-only fields kept). */
  booking: Booking;
  changes: FieldChange[];
}

/** The typed changes, validated by the Update schema, and what they change on the wire. */
export function proposedUpdate(
  deps: BotDeps,
  current: Booking,
  data: UpdateDraft,
): Validation<ProposedUpdate> {
  const input = toBookingInput(data.input, {
    trackingNumber: data.trackingNumber,
    timeZone: deps.waybill.timeZone,
    parcels: 0,
    pickerZone: 'configured',
  });
  const result = validate(deps.schemas.update, { ...input, trackingNumber: data.trackingNumber });
  if (!result.ok) return result;
  const booking = { ...current, ...result.value, trackingNumber: current.trackingNumber };
  const { timeZone } = deps.waybill;
  return {
    ok: true,
    value: {
      booking,
      changes: changesBetween(toUpdateWire(current, timeZone), toUpdateWire(booking, timeZone)),
    },
  };
}

/** The card shows the current record; the change goes in its thread (and the audit card's). */
async function announce(
  deps: BotDeps,
  client: SlackClient,
  record: BookingRecord<Booking>,
  booking: Booking,
  userId: string,
  changes: FieldChange[],
): Promise<string> {
  const { catalog, currency, env } = deps.waybill;
  const card = bookingCard({
    booking,
    trackingRefNo: record.trackingRefNo,
    bookedBy: record.bookedBy,
    bookedAt: record.bookedAt,
    catalog,
    currency,
    env,
    updatedBy: userId,
  });
  const message = changesMessage(booking.trackingNumber, userId, changes);
  const places = [
    { channel: record.cardChannelId, ts: record.cardTs },
    { channel: deps.bot.auditChannelId, ts: record.auditCardTs },
  ].filter((p): p is { channel: string; ts: string } => Boolean(p.channel && p.ts));
  for (const place of places) {
    await client.chat.update({ channel: place.channel, ts: place.ts, ...card }).catch((err: unknown) => {
      deps.logger.warn({ err, trackingNumber: booking.trackingNumber }, 'booking card could not be edited');
    });
    await client.chat
      .postMessage({ channel: place.channel, thread_ts: place.ts, ...message })
      .catch((err: unknown) => {
        deps.logger.warn(
          { err, trackingNumber: booking.trackingNumber },
          'change could not be posted in the thread',
        );
      });
  }
  if (places.length > 0) return `Posted in the thread of the booking card in <#${places[0]?.channel}>.`;
  // No card to thread under (it went out through a response_url): tell the channel directly.
  const delivered = await postToChannel(
    client,
    { channelId: record.channelId, userId },
    message,
    deps.logger,
  ).catch(() => undefined);
  return delivered ? `Posted in <#${delivered.channelId}>.` : 'Slack did not accept the change message.';
}

/** What the modal shows for an attempt already made from it (a double click, a replay). */
function viewOfUpdateAttempt(
  deps: BotDeps,
  draft: Draft<UpdateDraft>,
  attempt: { state: string; result?: UpdateAttemptResult },
) {
  const { env } = deps.waybill;
  const metadata = viewMetadata({ draftId: draft.id });
  const result = attempt.result;
  if (attempt.state === 'succeeded' && result && 'changes' in result) {
    return updateDoneView(draft.data.trackingNumber, result.changes, result.note, env, metadata);
  }
  const message = result && 'message' in result ? result.message : '';
  if (attempt.state === 'failed') return updateFailedView(message, env, metadata);
  if (attempt.state === 'unknown') return updateUnknownView(message, env, metadata);
  return updateBusyView(draft.data.trackingNumber, env, metadata);
}

/** The form again, saved as a new rev so Slack shows the draft's values, with a notice on top. */
async function formAgain(
  deps: BotDeps,
  draft: Draft<UpdateDraft>,
  data: Partial<UpdateDraft>,
  notice: string,
): Promise<ModalView> {
  const saved = await deps.store.drafts.save<UpdateDraft>(draft.id, {
    ...draft.data,
    ...data,
    rev: draft.data.rev + 1,
  });
  return updateForm(deps, saved, [notice]);
}

/** Someone changed the waybill since the form was opened, so nothing was sent: the current values. */
async function currentForm(
  deps: BotDeps,
  draft: Draft<UpdateDraft>,
  stored: { record: BookingRecord<Booking> },
): Promise<ModalView> {
  const current = await storedBooking(deps, draft.data.trackingNumber);
  const record = current?.record ?? stored.record;
  const who = record.updatedBy ? `<@${record.updatedBy}>` : 'Someone';
  return formAgain(
    deps,
    draft,
    current
      ? {
          baseVersion: current.record.version,
          input: formValuesOf(current.booking, deps.waybill.timeZone),
        }
      : {},
    `${who} changed this waybill since you opened it, so nothing was sent. The form now shows the current values: make your change again.`,
  );
}

export type UpdateCheck =
  | { ok: true; value: ProposedUpdate }
  | { ok: false; view: ModalView }
  | { ok: false; errors: FieldError[] };

/**
 * Whether the draft's update may be sent: the record is still the one the form was opened on
 * (otherwise the form with the current values), and the change is valid and changes something.
 */
export async function checkUpdate(
  deps: BotDeps,
  draft: Draft<UpdateDraft>,
  stored: { record: BookingRecord<Booking>; booking: Booking },
): Promise<UpdateCheck> {
  if (stored.record.version !== draft.data.baseVersion) {
    return { ok: false, view: await currentForm(deps, draft, stored) };
  }
  const proposal = proposedUpdate(deps, stored.booking, draft.data);
  if (!proposal.ok) return proposal;
  if (proposal.value.changes.length === 0) {
    return {
      ok: false,
      errors: [{ path: '', message: 'Nothing changed: edit a field, or close this window.' }],
    };
  }
  return proposal;
}

/** The modal an update is sent from, its draft, and the stored record the update was made on. */
interface OnScreen {
  viewId: string;
  draft: Draft<UpdateDraft>;
  record: BookingRecord<Booking>;
}

/** How often, while another update of the same version is in flight, its outcome is looked up. */
const HOLDER_POLL_MS = 200;

/** The attempt once it is no longer in flight, or as it is after `withinMs`. */
async function settled(deps: BotDeps, key: string, withinMs: number): Promise<Attempt | undefined> {
  const deadline = Date.now() + withinMs;
  let attempt = await deps.store.attempts.get(key);
  while (attempt?.state === 'in-flight' && Date.now() < deadline) {
    await delay(HOLDER_POLL_MS);
    attempt = await deps.store.attempts.get(key);
  }
  return attempt;
}

/**
 * Another update of the same version was in flight, so this one was not sent: once that one is
 * done, the form again, with its values if it went through, or with what this dispatcher typed.
 */
async function showWhenSettled(
  deps: BotDeps,
  client: SlackClient,
  viewId: string,
  draft: Draft<UpdateDraft>,
  holder: Attempt,
): Promise<void> {
  // Its courier call ends within the courier timeout; the margin covers storing and posting.
  const after = await settled(deps, holder.key, deps.waybill.timeoutMs + 5000);
  const stored = await storedBooking(deps, draft.data.trackingNumber);
  if (!stored) return;
  const who = holder.userId ? `<@${holder.userId}>` : 'Someone else';
  const what =
    after?.state === 'in-flight'
      ? 'is still being sent'
      : after?.state === 'unknown'
        ? 'has an unknown outcome'
        : 'was not taken by the courier';
  const view =
    stored.record.version !== draft.data.baseVersion
      ? await currentForm(deps, draft, stored)
      : await formAgain(
          deps,
          draft,
          {},
          `${who}'s update of this waybill ${what}, and yours was not sent. Your changes are kept: send them when you are ready.`,
        );
  await showInModal(client, viewId, view);
}

/**
 * Records the update as an attempt and, if it may go, answers "Updating…" with the courier call
 * to run. Otherwise: the outcome of the same update made before (a double click, a replay), or,
 * when another update of this version is in flight, "not sent" and the form once that one is done.
 * An update of unknown outcome never blocks a different one: the complete record replaces it.
 */
export async function startUpdate(
  deps: BotDeps,
  client: SlackClient,
  input: OnScreen & { proposal: ProposedUpdate; again?: 'failed' | 'unknown' },
): Promise<SendStep> {
  const { viewId, draft, record, proposal, again } = input;
  const { env, timeZone } = deps.waybill;
  const { trackingNumber } = draft.data;
  const metadata = viewMetadata({ draftId: draft.id });
  const request = toUpdateWire(proposal.booking, timeZone);
  const attempt = updateAttempt(draft.id, draft.data.baseVersion, request);
  const begun = await beginAttempt<UpdateAttemptResult>(
    deps.store,
    attempt,
    { userId: draft.userId, channelId: draft.channelId, viewId },
    { again, supersedeUnknown: true },
  );
  if (begun.started) {
    const replaced = begun.superseded;
    const note = replaced
      ? `This replaces an update by ${replaced.userId ? `<@${replaced.userId}>` : 'someone'} whose outcome was unknown: the courier gets the complete record as you send it.`
      : undefined;
    return {
      started: true,
      view: updateWorkingView(trackingNumber, proposal.changes, env, metadata, note),
      work: () => runUpdate(deps, client, { viewId, draft, record, attempt, request, note, ...proposal }),
    };
  }
  const existing = begun.attempt;
  if (existing.key === attempt.key) {
    return { started: false, view: viewOfUpdateAttempt(deps, draft, existing) };
  }
  if (existing.state === 'in-flight') {
    return {
      started: false,
      view: updateHeldView(trackingNumber, existing.userId, env, metadata),
      work: () => showWhenSettled(deps, client, viewId, draft, existing),
    };
  }
  // Another update of this version went through since the version was checked.
  return { started: false, view: await currentForm(deps, draft, { record }) };
}

/** The outcome as a message to the dispatcher, when the modal it belonged to was closed. */
async function tellOutside(
  deps: BotDeps,
  client: SlackClient,
  draft: Draft<UpdateDraft>,
  state: 'failed' | 'unknown',
  message: string,
): Promise<void> {
  const tn = escapeMrkdwn(draft.data.trackingNumber);
  const text =
    state === 'failed'
      ? `*\`${tn}\` was not updated.* ${escapeMrkdwn(message)} The update window was closed: type \`/waybill update ${tn}\` to change it again.`
      : `${escapeMrkdwn(message)} The update window was closed: type \`/waybill update ${tn}\` to see the last record the bot knows and send an update.`;
  await postToUser(client, draft, notice(state === 'failed' ? ':warning:' : ':question:', text)).catch(
    (err: unknown) => {
      deps.logger.error(
        { err, trackingNumber: draft.data.trackingNumber },
        'the outcome of an update could not be delivered',
      );
    },
  );
}

/**
 * After "Updating…" is on screen: send the complete record once; then, in one transaction, the
 * record (only if nobody changed it meanwhile), the audit entry and the attempt's outcome; after
 * the commit, edit the card, thread the change, and show the outcome (as a message to the
 * dispatcher when a failure finds the modal closed). The courier has acted by then, so a database
 * that does not answer is waited for (storeOutcome) rather than the outcome lost.
 */
async function runUpdate(
  deps: BotDeps,
  client: SlackClient,
  input: OnScreen & ProposedUpdate & { attempt: CourierAttempt; request: UpdateRequestWire; note?: string },
): Promise<void> {
  const { viewId, draft, record, booking, changes, attempt, request } = input;
  const { env } = deps.waybill;
  const { trackingNumber } = booking;
  const who = { userId: draft.userId, trackingNumber, operation: 'update' };
  const metadata = viewMetadata({ draftId: draft.id });
  let response: unknown;
  try {
    response = await deps.courier.update(request);
  } catch (err) {
    const message = isWaybillApiError(err) ? err.userMessage() : `Update outcome unknown: ${String(err)}`;
    const state = isWaybillApiError(err) && err.outcome === 'not-done' ? 'failed' : 'unknown';
    await storeOutcome(deps, async (tx) => {
      await tx.attempts.finish<UpdateAttemptResult>(attempt.key, state, { message });
      await tx.audit.record({ ...who, outcome: state, request, detail: message });
    }).catch((storeErr: unknown) => {
      deps.logger.error({ err: storeErr, trackingNumber, state }, 'an update outcome could not be recorded');
    });
    const view =
      state === 'failed'
        ? updateFailedView(message, env, metadata)
        : updateUnknownView(message, env, metadata);
    if (!(await showInModal(client, viewId, view))) await tellOutside(deps, client, draft, state, message);
    return;
  }
  let stored: UpdateRecordResult<Booking>;
  try {
    stored = await storeOutcome(deps, async (tx) => {
      const updated = await tx.bookings.updateRecord(
        trackingNumber,
        draft.data.baseVersion,
        booking,
        draft.userId,
      );
      await tx.audit.record({
        ...who,
        outcome: 'ok',
        request,
        response,
        detail: changes.map((c) => c.key).join(', '),
      });
      await tx.attempts.finish<UpdateAttemptResult>(attempt.key, 'succeeded', {
        changes,
        note: 'The change is being posted.',
      });
      return updated;
    });
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    deps.logger.error({ err, trackingNumber }, 'updated at the courier, but it could not be recorded');
    const note = `The courier has the update, but the bot could not record it: its database did not answer. The card was not edited and \`/waybill show\` still shows the old record; tell whoever runs the bot.`;
    if (!(await showInModal(client, viewId, updateDoneView(trackingNumber, changes, note, env, metadata)))) {
      await postToUser(client, draft, notice(':warning:', `\`${escapeMrkdwn(trackingNumber)}\`: ${note}`));
    }
    return;
  }
  if (!stored.ok)
    deps.logger.error({ trackingNumber }, 'updated at the courier, but the record changed here meanwhile');
  deps.activity.changed(draft.userId);
  const posted = await announce(
    deps,
    client,
    stored.ok ? stored.booking : record,
    booking,
    draft.userId,
    changes,
  );
  const note = input.note ? `${input.note} ${posted}` : posted;
  await deps.store.attempts
    .finish<UpdateAttemptResult>(attempt.key, 'succeeded', { changes, note })
    .catch((err: unknown) =>
      deps.logger.warn({ err, trackingNumber }, 'where the change went was not recorded'),
    );
  await showInModal(client, viewId, updateDoneView(trackingNumber, changes, note, env, metadata));
}
