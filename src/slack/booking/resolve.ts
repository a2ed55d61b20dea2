/** Resolve on a courier call of unknown outcome: the button, the form and its checks, for bookings and updates alike. */
import type {
  Middleware,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Attempt } from '../../store/index.js';
import type { Core } from '../core.js';
import { askerOf } from '../guards/booking-access.js';
import { readFormState, type StateValues } from '../kit/forms.js';
import { readViewMetadata, viewMetadata } from '../kit/ids.js';
import type { ButtonClick, Told } from '../kit/listener.js';
import { openModalSoon, showInModal } from '../kit/modal.js';
import type { SlackClient } from '../runtime/delivery.js';
import { resolveBlocks, resolveForm, resolveNotice } from './attempts.js';

/** What the person answered: the courier has it (with its reference, maybe) or does not. */
export interface Resolution {
  verdict: 'booked' | 'notBooked';
  reference: string;
  userId: string;
  client: SlackClient;
}

/** What settling answers: the modal to show, or why not (under the verdict). */
export type Settled = { view: ModalView } | { problem: string };

/** Someone else answered first (on any replica). */
export const resolvedMeanwhile: Settled = { problem: 'Someone resolved it meanwhile.' };

/**
 * `find` reads the attempt a button or form names, and its draft, or says why it cannot be resolved
 * (by the person asking, too); `settle` records the answer (once) and says what the modal shows.
 */
type Find<F> = (key: string, asker: { client: SlackClient; userId: string }) => Promise<F | string>;

/**
 * The Resolve button's listener (after `ackNow` and `tellClicker`): in the outcome modal the form
 * takes its place; from a message (the private one, the digest) it opens.
 */
export function resolveButton<F extends { attempt: Attempt; draft: { id: string } }>(
  deps: Pick<Core, 'waybill' | 'inFlight' | 'logger'>,
  formId: string,
  find: Find<F>,
): Middleware<SlackActionMiddlewareArgs<ButtonClick>, Told> {
  return async ({ body, action, client, context: { tell } }) => {
    const found = await find(action.value ?? '', askerOf(client, body));
    if (typeof found === 'string') {
      if (body.view) await client.views.push({ trigger_id: body.trigger_id, view: resolveNotice(found) });
      else await tell({ response_type: 'ephemeral', replace_original: false, text: found });
      return;
    }
    const { attempt, draft } = found;
    const metadata = viewMetadata({ draftId: draft.id, attemptKey: attempt.key });
    const form = resolveForm(attempt.trackingNumber ?? '', deps.waybill.env, metadata, formId);
    if (body.view) await showInModal(client, body.view.id, form);
    else
      openModalSoon(deps, client, {
        triggerId: body.trigger_id,
        respond: tell,
        again: 'click *Resolve*',
        view: () => form,
      });
  };
}

/** The Resolve form's listener: the answer checked (said under its input), then settled. */
export function resolveSubmission<F extends { attempt: Attempt; draft: { id: string } }>(
  find: Find<F>,
  settle: (found: F, resolution: Resolution) => Promise<Settled>,
): Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>> {
  return async ({ ack, view, body, client }) => {
    const errors = (problem: string, field: string = resolveBlocks.verdict) =>
      ack({ response_action: 'errors', errors: { [field]: problem } });
    const found = await find(readViewMetadata(view.private_metadata)?.attemptKey ?? '', {
      client,
      userId: body.user.id,
    });
    if (typeof found === 'string') return errors(found);
    const form = readFormState(view.state.values as StateValues);
    const verdict = form[resolveBlocks.verdict];
    const typed = form[resolveBlocks.reference];
    const reference = typeof typed === 'string' ? typed.trim() : '';
    if (verdict !== 'booked' && verdict !== 'notBooked') return errors('Say what the courier has.');
    if (verdict === 'notBooked' && reference)
      return errors('A courier reference goes with "The courier has it" only.', resolveBlocks.reference);
    const settled = await settle(found, { verdict, reference, userId: body.user.id, client });
    if ('problem' in settled) return errors(settled.problem);
    await ack({ response_action: 'update', view: settled.view });
  };
}
