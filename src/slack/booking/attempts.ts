/** Resolve for courier calls of unknown outcome: its button, its form, and which call it names. */

import type { ActionsBlock, ModalView } from '@slack/types';
import { draftIdOfAttempt } from '../../operations/attempts.js';
import type { Attempt, Draft, Store } from '../../store/index.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { environmentNotice, plain, section } from '../kit/blocks.js';
import { VALUE_ACTION } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

/** Resolve, on a courier call of unknown outcome: the person says what the courier told them. */
export function resolveActions(attemptKey: string, actionId: string = ids.resolveOpen): ActionsBlock {
  return {
    type: 'actions',
    elements: [{ type: 'button', action_id: actionId, text: plain('Resolve'), value: attemptKey }],
  };
}

export const resolveBlocks = { verdict: 'verdict', reference: 'reference' } as const;
export const RESOLVE_VERDICTS = {
  booked: 'The courier has it',
  notBooked: 'The courier does not have it',
} as const;

/** Resolve: what the courier said about a booking (or an update) of unknown outcome. */
export function resolveForm(
  trackingNumber: string,
  env: WaybillEnv,
  metadata: string,
  callbackId: string = ids.resolveForm,
): ModalView {
  return {
    type: 'modal',
    callback_id: callbackId,
    private_metadata: metadata,
    title: plain('Resolve'),
    submit: plain('Record'),
    close: plain('Cancel'),
    blocks: [
      ...environmentNotice(env),
      section(
        `The courier may or may not have this of \`${escapeMrkdwn(trackingNumber)}\`. What did the courier say? Your answer is recorded with your name.`,
      ),
      {
        type: 'input',
        block_id: resolveBlocks.verdict,
        label: plain('The courier'),
        element: {
          type: 'static_select',
          action_id: VALUE_ACTION,
          placeholder: plain('Choose'),
          options: Object.entries(RESOLVE_VERDICTS).map(([value, text]) => ({ text: plain(text), value })),
        },
      },
      {
        type: 'input',
        block_id: resolveBlocks.reference,
        optional: true,
        label: plain('Courier reference'),
        hint: plain('If the courier has it and gave you its reference.'),
        element: { type: 'plain_text_input', action_id: VALUE_ACTION, max_length: 100 },
      },
    ],
  };
}

/** Why there is nothing to resolve, in a small modal. */
export function resolveNotice(text: string): ModalView {
  return { type: 'modal', title: plain('Resolve'), close: plain('Close'), blocks: [section(text)] };
}

/** The courier call of unknown outcome a Resolve names; or why it cannot be resolved, in words. */
export async function unresolvedAttempt<R>(
  deps: { store: Pick<Store, 'attempts' | 'audit'> },
  key: string,
): Promise<Attempt<R> | string> {
  const attempt = await deps.store.attempts.get<R>(key);
  if (!attempt) return 'There is no record of that courier call: nothing to resolve.';
  if (attempt.state === 'unknown' && !attempt.supersededBy) return attempt;
  const [last] = await deps.store.audit.list({
    trackingNumber: attempt.trackingNumber,
    operation: 'resolve',
    limit: 1,
  });
  const who = last ? ` by <@${last.userId}>` : '';
  return `The outcome of \`${escapeMrkdwn(attempt.trackingNumber ?? '')}\` is known already${who}: nothing to resolve.`;
}

/** The unknown call a Resolve names with the draft (of `kind`) it was made from; or why it cannot be resolved, in words. */
export async function unresolvedWithDraft<R, D>(
  deps: { store: Pick<Store, 'attempts' | 'audit' | 'drafts'> },
  key: string,
  kind: 'booking' | 'update',
): Promise<{ attempt: Attempt<R>; draft: Draft<D> } | string> {
  const attempt = await unresolvedAttempt<R>(deps, key);
  if (typeof attempt === 'string') return attempt;
  const draftId = draftIdOfAttempt(attempt);
  const draft = draftId ? await deps.store.drafts.get<D>(draftId) : undefined;
  if (draft?.kind === kind) return { attempt, draft };
  return `The form of \`${escapeMrkdwn(attempt.trackingNumber ?? '')}\` has expired, so it cannot be resolved here: ask whoever runs the bot.`;
}
