/** Block Kit for updates: the form, the changes, the outcome modals, and /waybill help. */
import type { ActionsBlock, KnownBlock, ModalView } from '@slack/types';
import type { FieldChange } from '../../operations/update.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { bookingIds, resolveActions } from '../booking/index.js';
import { context, environmentNotice, header, plain, retryActions, section } from '../kit/blocks.js';
import { inputBlocks } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { type Outcome, type OutcomeWords, outcomeScreen, outcomeView, type Screen } from '../kit/outcome.js';
import type { FieldGroup } from './form.js';
import { ids } from './ids.js';

export interface UpdateFormInput {
  trackingNumber: string;
  groups: readonly FieldGroup[];
  required: ReadonlySet<string>;
  values: unknown;
  metadata: string;
  env: WaybillEnv;
  /** mrkdwn the bot wrote (user ids only, nothing typed). */
  notices?: readonly string[];
  /** Bumped on every render, so Slack shows these values rather than state it kept. */
  rev: number;
  /** Opened by Reattempt, after a failed attempt: says what to correct and what follows. */
  reattempt?: true;
}

/** What the form says when Reattempt opened it. */
const reattemptNotice =
  ':repeat: *Reattempt*: correct what made the attempt fail (the receiver phone or address) or set a new delivery date. Once the courier has the update, the parcel is recorded *In transit* for its next attempt.';

export function updateFormView(input: UpdateFormInput): ModalView {
  const blocks: KnownBlock[] = [
    ...environmentNotice(input.env),
    section(
      `Updating \`${escapeMrkdwn(input.trackingNumber)}\`. The courier receives the complete record with your changes.`,
    ),
    ...(input.reattempt ? [section(reattemptNotice)] : []),
    ...(input.notices ?? []).map((notice) => section(`:warning: ${notice}`)),
  ];
  for (const group of input.groups) {
    blocks.push(
      header(group.title),
      ...inputBlocks(group.fields, {
        values: input.values,
        required: input.required,
        suffix: String(input.rev),
      }),
    );
  }
  return {
    type: 'modal',
    callback_id: ids.updateForm,
    title: plain('Update waybill'),
    submit: plain('Send update'),
    close: plain('Cancel'),
    private_metadata: input.metadata,
    notify_on_close: true,
    blocks,
  };
}

const shown = (value: string) => (value === '' ? '_(empty)_' : `\`${escapeMrkdwn(value)}\``);

/** "• *Receiver phone*: `0917…` → `0918…`", one line per changed field. */
export function changeLines(changes: readonly FieldChange[]): string {
  return changes
    .map((c) => `• *${escapeMrkdwn(c.field ?? c.key)}*: ${shown(c.from)} → ${shown(c.to)}`)
    .join('\n');
}

export function changesMessage(trackingNumber: string, userId: string, changes: readonly FieldChange[]) {
  const text = `<@${userId}> updated \`${escapeMrkdwn(trackingNumber)}\`:\n${changeLines(changes)}`;
  return { text, blocks: [section(`:pencil2: ${text}`)] };
}

/** What an update shows while it is sent and once it is done: its changes, and a note (mrkdwn the bot wrote, user ids only). */
export interface UpdateShown {
  changes: readonly FieldChange[];
  note?: string;
}

/** The way forward from an unknown outcome: send again, only once the dispatcher says they checked. */
function sendAgainActions(): ActionsBlock {
  return {
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: ids.updateSendChecked,
        text: plain('Send again'),
        confirm: {
          title: plain('Checked with the courier?'),
          text: plain(
            'Check with the courier first. Sending again replaces the whole record at the courier with this one, whether or not the first try arrived.',
          ),
          confirm: plain('Send again'),
          deny: plain('Not yet'),
        },
      },
      { type: 'button', action_id: ids.updateBack, text: plain('Back to the form') },
    ],
  };
}

/** The update's words for each outcome of its courier call (rendered by kit/outcome.ts). */
const updateOutcomes: OutcomeWords<UpdateShown, UpdateShown> = {
  callbackId: bookingIds.updateOutcome,
  working: ({ changes, note }, trackingNumber) => ({
    title: 'Updating…',
    blocks: [
      section(
        `:hourglass_flowing_sand: *Updating \`${escapeMrkdwn(trackingNumber)}\`…*\n${changeLines(changes)}`,
      ),
      ...(note ? [context(note)] : []),
      context("You can close this window: the change will be posted in the booking card's thread."),
    ],
  }),
  done: ({ changes, note = '' }, trackingNumber) => ({
    title: 'Updated',
    blocks: [
      section(`:white_check_mark: *Updated \`${escapeMrkdwn(trackingNumber)}\`*\n${changeLines(changes)}`),
      context(note),
    ],
  }),
  failed: (reason) => ({
    title: 'Update failed',
    blocks: [
      section(`:warning: *Not updated.*\n${escapeMrkdwn(reason)}`),
      context('Your changes are kept: try again as they are, or go back to the form.'),
      retryActions(ids.updateBack, ids.updateRetry),
    ],
  }),
  unknown: (reason, attemptKey) => {
    const actions = sendAgainActions();
    return {
      title: 'Outcome unknown',
      blocks: [
        section(`:question: *${escapeMrkdwn(reason)}*`),
        context(
          'The bot will not send this update again by itself, and keeps the last record it knows. Check with the courier, then *Resolve* (say whether it has the update) or send it again, or go back to the form to change it: a changed update is sent as a new one.',
        ),
        {
          ...actions,
          elements: [...actions.elements, ...resolveActions(attemptKey, ids.resolveUpdateOpen).elements],
        },
      ],
    };
  },
  inFlight: (trackingNumber) => ({
    title: 'Updating…',
    blocks: [
      section(
        `:hourglass_flowing_sand: An update of \`${escapeMrkdwn(trackingNumber)}\` is already being sent; it is sent once.`,
      ),
    ],
  }),
};

/** The outcome modal of an update. */
export function updateOutcomeView(
  outcome: Outcome<UpdateShown, UpdateShown>,
  trackingNumber: string,
  env: WaybillEnv,
  metadata: string,
): ModalView {
  return outcomeView(updateOutcomes, outcome, { trackingNumber, env, metadata });
}

/** `note`: mrkdwn the bot wrote (user ids only), e.g. that this replaces an update of unknown outcome. */
export function updateWorkingView(
  trackingNumber: string,
  changes: readonly FieldChange[],
  env: WaybillEnv,
  metadata: string,
  note?: string,
) {
  return updateOutcomeView({ state: 'working', detail: { changes, note } }, trackingNumber, env, metadata);
}

export function updateDoneView(
  trackingNumber: string,
  changes: readonly FieldChange[],
  note: string,
  env: WaybillEnv,
  metadata: string,
) {
  return updateOutcomeView({ state: 'done', detail: { changes, note } }, trackingNumber, env, metadata);
}

export function updateFailedView(reason: string, env: WaybillEnv, metadata: string) {
  return updateOutcomeView({ state: 'failed', message: reason }, '', env, metadata);
}

/** Someone else's update of the same version is on its way: this one waits for its result. */
export function updateHeldView(
  trackingNumber: string,
  senderId: string | undefined,
  env: WaybillEnv,
  metadata: string,
) {
  const who = senderId ? `<@${senderId}>` : 'Someone';
  const screen: Screen = {
    title: 'Not sent',
    blocks: [
      section(
        `:hourglass_flowing_sand: ${who} is sending an update of \`${escapeMrkdwn(trackingNumber)}\` right now. Yours was not sent.`,
      ),
      context('When theirs is done, this window shows the form again with the current values.'),
    ],
  };
  return outcomeScreen(updateOutcomes, screen, { env, metadata });
}
