/** The listener every button or select inside the booking modal shares. */
import type { BlockAction, BlockElementAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Draft } from '../../store/index.js';
import type { Core } from '../core.js';
import type { DraftContext } from '../guards/with-draft.js';
import type { StateValues } from '../kit/forms.js';
import type { InModal } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import type { Changed } from './changes.js';
import { withTyped } from './draft.js';
import type { BookingDraft } from './form.js';
import { showStep } from './steps.js';

/**
 * A button or select inside the booking modal (after `withDraft`, `ackNow` and `inModal`): keep what
 * is typed on screen, `change` the draft, show a step. The view's hash makes a stale second click a no-op.
 */
export function changeBooking<Action extends BlockElementAction>(
  deps: Pick<Core, 'store' | 'waybill' | 'schemas' | 'profiles' | 'bot'>,
  change: (draft: Draft<BookingDraft>, action: Action) => Changed | Promise<Changed>,
): Middleware<SlackActionMiddlewareArgs<BlockAction<Action>>, DraftContext<BookingDraft> & InModal> {
  return async ({ action, client, context: { draft: found, modal } }) => {
    const draft = {
      ...found,
      data: withTyped(found.data, modal.state?.values as StateValues | undefined),
    };
    const changed = await change(draft, action);
    if (!changed) {
      await deps.store.drafts.save<BookingDraft>(draft.id, draft.data);
      return;
    }
    await showInModal(
      client,
      modal.id,
      await showStep(deps, { ...draft, data: changed.data }, changed.step, changed.notices),
      modal.hash,
    );
  };
}
