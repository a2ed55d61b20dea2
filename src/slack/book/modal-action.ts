/** The shape every button or select inside the booking modal shares. */
import type { App, BlockAction, BlockElementAction } from '@slack/bolt';
import type { Draft } from '../../store/index.js';
import type { Core } from '../core.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import type { StateValues } from '../kit/forms.js';
import type { Guard } from '../kit/listener.js';
import { showInModal } from '../kit/modal.js';
import type { Changed } from './changes.js';
import { withTyped } from './draft.js';
import type { BookingDraft } from './form.js';
import { showStep } from './steps.js';

/**
 * The shared shape of a button or select inside the booking modal: keep what is typed on screen,
 * change the draft, show a step. The view's hash makes a stale second click a no-op.
 */
export function onBookingModalAction<Action extends BlockElementAction>(
  app: App,
  deps: Pick<Core, 'store' | 'waybill' | 'schemas' | 'profiles' | 'bot'>,
  actionId: string,
  guard: Guard,
  change: (draft: Draft<BookingDraft>, action: Action) => Changed | Promise<Changed>,
): void {
  app.action<BlockAction<Action>, DraftContext<BookingDraft>>(
    actionId,
    guard,
    withDraft(deps.store.drafts, 'booking'),
    async ({ ack, body, action, client, context: { draft: found } }) => {
      await ack();
      if (!body.view) return;
      const draft = {
        ...found,
        data: withTyped(found.data, body.view.state?.values as StateValues | undefined),
      };
      const changed = await change(draft, action);
      if (!changed) {
        await deps.store.drafts.save<BookingDraft>(draft.id, draft.data);
        return;
      }
      await showInModal(
        client,
        body.view.id,
        await showStep(deps, { ...draft, data: changed.data }, changed.step, changed.notices),
        body.view.hash,
      );
    },
  );
}
