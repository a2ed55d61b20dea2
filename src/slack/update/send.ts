/** Sending an update from its modal: the attempt begun, the update operation run, the card and its thread told, and the outcome shown. */
import { setTimeout as delay } from 'node:timers/promises';
import {
  beginAttempt,
  type CourierAttempt,
  noteSucceeded,
  updateAttempt,
} from '../../operations/attempts.js';
import { type FieldChange, sendUpdate, type UpdateAttemptResult } from '../../operations/update.js';
import type { Attempt, BookingRecord, Draft } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import { toUpdateWire } from '../../waybill/wire.js';
import type { UpdateRequestWire } from '../../waybill/wire-types.js';
import { cardPlaces, storedBooking, storedBookingCard, threadPlaces } from '../booking/index.js';
import { notice } from '../kit/blocks.js';
import { viewMetadata } from '../kit/ids.js';
import { type SendStep, showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { outcomeOfAttempt, outcomeOfFailure } from '../kit/outcome.js';
import { postToChannel, postToUser, type SlackClient } from '../runtime/delivery.js';
import { recordStatus, tellCards } from '../status/index.js';
import {
  changesMessage,
  type UpdateShown,
  updateDoneView,
  updateHeldView,
  updateOutcomeView,
  updateWorkingView,
} from './blocks.js';
import type { ProposedUpdate, UpdateDeps, UpdateDraft } from './draft.js';
import { currentForm, formAgain } from './steps.js';

const isUpdated = (result: unknown): result is UpdateShown =>
  typeof result === 'object' && result !== null && 'changes' in result;

/** What the modal shows for an attempt already made from it (a double click, a replay). */
function viewOfUpdateAttempt(
  deps: Pick<UpdateDeps, 'waybill'>,
  draft: Draft<UpdateDraft>,
  attempt: { key: string; state: string; result?: UpdateAttemptResult },
) {
  const outcome = outcomeOfAttempt<UpdateShown, UpdateShown>(attempt, isUpdated);
  const metadata = viewMetadata({ draftId: draft.id });
  return updateOutcomeView(outcome, draft.data.trackingNumber, deps.waybill.env, metadata);
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
async function settled(
  deps: Pick<UpdateDeps, 'store'>,
  key: string,
  withinMs: number,
): Promise<Attempt | undefined> {
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
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'schemas' | 'logger'>,
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
  deps: Pick<
    UpdateDeps,
    'store' | 'waybill' | 'schemas' | 'logger' | 'courier' | 'now' | 'activity' | 'bot' | 'access'
  >,
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
  deps: Pick<UpdateDeps, 'logger'>,
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
 * After "Updating…" is on screen: the update operation (the complete record sent once; then, in one
 * transaction, the record replaced if nobody changed it meanwhile, the audit entry and the attempt's
 * outcome); after the commit, edit the card, thread the change, and show the outcome (as a message
 * to the dispatcher when a failure finds the modal closed).
 */
async function runUpdate(
  deps: Pick<
    UpdateDeps,
    'store' | 'waybill' | 'schemas' | 'logger' | 'courier' | 'now' | 'activity' | 'bot' | 'access'
  >,
  client: SlackClient,
  input: OnScreen & ProposedUpdate & { attempt: CourierAttempt; request: UpdateRequestWire; note?: string },
): Promise<void> {
  const { viewId, draft, record, booking, changes, attempt } = input;
  const { env } = deps.waybill;
  const { trackingNumber } = booking;
  const metadata = viewMetadata({ draftId: draft.id });
  const sent = await sendUpdate(deps, {
    attempt,
    request: input.request,
    booking,
    baseVersion: draft.data.baseVersion,
    changes,
    userId: draft.userId,
  });
  if (sent.state === 'failed' || sent.state === 'unknown') {
    const view = updateOutcomeView(outcomeOfFailure(sent, attempt.key), trackingNumber, env, metadata);
    if (!(await showInModal(client, viewId, view)))
      await tellOutside(deps, client, draft, sent.state, sent.message);
    return;
  }
  if (sent.state === 'unrecorded') {
    const note = `The courier has the update, but the bot could not record it: its database did not answer. The card was not edited and \`/waybill show\` still shows the old record; tell whoever runs the bot.`;
    if (!(await showInModal(client, viewId, updateDoneView(trackingNumber, changes, note, env, metadata)))) {
      await postToUser(client, draft, notice(':warning:', `\`${escapeMrkdwn(trackingNumber)}\`: ${note}`));
    }
    return;
  }
  const stored = sent.recorded;
  if (!stored.ok)
    deps.logger.error({ trackingNumber }, 'updated at the courier, but the record changed here meanwhile');
  const posted = await announce(
    deps,
    client,
    stored.ok ? stored.booking : record,
    booking,
    draft.userId,
    changes,
  );
  const reattempted = draft.data.reattempt ? await backInTransit(deps, client, draft) : undefined;
  const note = [input.note, posted, reattempted].filter(Boolean).join(' ');
  await noteSucceeded<UpdateAttemptResult>(deps.store, attempt.key, { changes, note }).catch((err: unknown) =>
    deps.logger.warn({ err, trackingNumber }, 'where the change went was not recorded'),
  );
  await showInModal(client, viewId, updateDoneView(trackingNumber, changes, note, env, metadata));
}

/**
 * After a Reattempt's update reached the courier: the parcel recorded back in transit for its next
 * attempt, by whoever sent it, on the cards and in their threads; what was recorded, in words. Not
 * when a status other than the failed attempt was recorded meanwhile (delivered, returned).
 */
async function backInTransit(
  deps: Parameters<typeof recordStatus>[0] & Parameters<typeof tellCards>[0],
  client: SlackClient,
  draft: Draft<UpdateDraft>,
): Promise<string | undefined> {
  const latest = await deps.store.statuses.latest(draft.data.trackingNumber);
  if (latest?.status !== 'failed_attempt') return undefined;
  const { text, recorded } = await recordStatus(deps, client, {
    userId: draft.userId,
    trackingNumber: draft.data.trackingNumber,
    choice: { status: 'in_transit', note: 'Reattempt, with the update sent to the courier' },
  });
  if (recorded) await tellCards(deps, client, recorded);
  return text;
}

/** The card shows the current record; the change goes in its thread (and the audit card's). */
export async function announce(
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'schemas' | 'logger' | 'bot'>,
  client: SlackClient,
  record: BookingRecord<Booking>,
  booking: Booking,
  userId: string,
  changes: FieldChange[],
): Promise<string> {
  // A recorded status and what remittance files paid stay on the card through an update.
  const card = await storedBookingCard(deps, record, booking, userId);
  const message = changesMessage(booking.trackingNumber, userId, changes);
  for (const place of cardPlaces(deps, record)) {
    await client.chat.update({ channel: place.channel, ts: place.ts, ...card }).catch((err: unknown) => {
      deps.logger.warn({ err, trackingNumber: booking.trackingNumber }, 'booking card could not be edited');
    });
  }
  // A booking from a file has no card: its import's thread names it.
  const places = await threadPlaces(deps, record);
  for (const place of places) {
    await client.chat
      .postMessage({ channel: place.channel, thread_ts: place.ts, ...message })
      .catch((err: unknown) => {
        deps.logger.warn(
          { err, trackingNumber: booking.trackingNumber },
          'change could not be posted in the thread',
        );
      });
  }
  if (places.length > 0) return `Posted in the thread of the booking in <#${places[0]?.channel}>.`;
  // No thread to post under (its card went out through a response_url): tell the channel directly.
  const delivered = await postToChannel(
    client,
    { channelId: record.channelId, userId },
    message,
    deps.logger,
  ).catch(() => undefined);
  return delivered ? `Posted in <#${delivered.channelId}>.` : 'Slack did not accept the change message.';
}
