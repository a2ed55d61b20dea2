/** A waybill update from form to thread: the draft, what changed, sending once, and telling the channel. */
import type { BookingRecord, Draft } from '../../store/store.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { isWaybillApiError } from '../../waybill/errors.js';
import { type Booking, type Validation, validate } from '../../waybill/schemas.js';
import { toUpdateWire } from '../../waybill/wire.js';
import type { UpdateRequestWire } from '../../waybill/wire-types.js';
import type { BotDeps } from '../deps.js';
import { updateAttemptKey } from '../shared/attempt-keys.js';
import { bookingCard } from '../shared/booking-card.js';
import { toBookingInput } from '../shared/booking-input.js';
import { postToChannel, type SlackClient } from '../shared/delivery.js';
import { draftOfView, viewMetadata } from '../shared/ids.js';
import { showInModal } from '../shared/modal.js';
import {
  changesMessage,
  type FieldChange,
  updateBusyView,
  updateDoneView,
  updateFailedView,
  updateFormView,
  updateUnknownView,
} from './blocks.js';

/** An update in progress: which booking, the version it was opened at, and what is typed. */
export interface UpdateDraft {
  trackingNumber: string;
  baseVersion: number;
  input: Record<string, unknown>;
  rev: number;
}

export type UpdateAttemptResult = { changes: FieldChange[]; note: string } | { message: string };

/** A stored booking as the domain knows it (stored JSON has dates as text): parsed by the Booking schema. */
export function storedBooking(
  deps: BotDeps,
  trackingNumber: string,
): { record: BookingRecord<Booking>; booking: Booking } | undefined {
  const record = deps.store.bookings.get<Booking>(trackingNumber);
  if (!record) return undefined;
  const parsed = validate(deps.schemas.booking, record.record);
  if (!parsed.ok) {
    deps.logger.error({ trackingNumber, errors: parsed.errors }, 'stored booking no longer validates');
    return undefined;
  }
  return { record, booking: parsed.value };
}

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

export function createUpdateDraft(
  deps: BotDeps,
  where: { userId: string; channelId: string },
  trackingNumber: string,
) {
  const stored = storedBooking(deps, trackingNumber);
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

export function viewOfUpdateAttempt(
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

/**
 * After "Updating…" is on screen: send the complete record once, store it only if nobody changed
 * it meanwhile, then edit the card, thread the change, and show the outcome.
 */
export async function runUpdate(
  deps: BotDeps,
  client: SlackClient,
  input: { viewId: string; draft: Draft<UpdateDraft>; record: BookingRecord<Booking> } & ProposedUpdate,
): Promise<void> {
  const { viewId, draft, record, booking, changes } = input;
  const { env, timeZone } = deps.waybill;
  const key = updateAttemptKey(booking.trackingNumber, draft.data.baseVersion);
  const request = toUpdateWire(booking, timeZone);
  const who = { userId: draft.userId, trackingNumber: booking.trackingNumber, operation: 'update' };
  const metadata = viewMetadata({ draftId: draft.id });
  try {
    const response = await deps.courier.update(request);
    deps.store.audit.record({
      ...who,
      outcome: 'ok',
      request,
      response,
      detail: changes.map((c) => c.key).join(', '),
    });
  } catch (err) {
    const message = isWaybillApiError(err) ? err.userMessage() : `Update outcome unknown: ${String(err)}`;
    const state = isWaybillApiError(err) && err.outcome === 'not-done' ? 'failed' : 'unknown';
    deps.store.attempts.finish<UpdateAttemptResult>(key, state, { message });
    deps.store.audit.record({ ...who, outcome: state, request, detail: message });
    await showInModal(
      client,
      viewId,
      state === 'failed'
        ? updateFailedView(message, env, metadata)
        : updateUnknownView(message, env, metadata),
    );
    return;
  }
  const stored = deps.store.bookings.updateRecord(
    booking.trackingNumber,
    draft.data.baseVersion,
    booking,
    draft.userId,
  );
  if (!stored.ok)
    deps.logger.error(
      { trackingNumber: booking.trackingNumber },
      'updated at the courier, but the record changed here meanwhile',
    );
  const note = await announce(
    deps,
    client,
    stored.ok ? stored.booking : record,
    booking,
    draft.userId,
    changes,
  );
  deps.store.attempts.finish<UpdateAttemptResult>(key, 'succeeded', { changes, note });
  await showInModal(client, viewId, updateDoneView(booking.trackingNumber, changes, note, env, metadata));
}
