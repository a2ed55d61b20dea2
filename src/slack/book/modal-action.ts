/** The shape every button or select inside the booking modal shares. */
import type { App, BlockAction, BlockElementAction } from '@slack/bolt';
import type { Draft } from '../../store/index.js';
import type { BotDeps } from '../deps.js';
import type { StateValues } from '../shared/forms.js';
import { showInModal } from '../shared/modal.js';
import { bookingDraftOfView, showStep, withTyped } from './flow.js';
import type { BookingDraft, BookingStep } from './form.js';

type Changed = { data: BookingDraft; step: BookingStep } | undefined;

/**
 * The shared shape of a button or select inside the booking modal: keep what is typed on screen,
 * change the draft, show a step. The view's hash makes a stale second click a no-op.
 */
export function onBookingModalAction<Action extends BlockElementAction>(
  app: App,
  deps: BotDeps,
  actionId: string,
  change: (draft: Draft<BookingDraft>, action: Action) => Changed | Promise<Changed>,
): void {
  app.action<BlockAction<Action>>(actionId, async ({ ack, body, action, client }) => {
    await ack();
    if (!body.view) return;
    const found = await bookingDraftOfView(deps, body.view.private_metadata);
    if (!found) return;
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
      await showStep(deps, { ...draft, data: changed.data }, changed.step),
      body.view.hash,
    );
  });
}
