/** "Try again" after a failed update, and "Send again" after one of unknown outcome. */
import type { App } from '@slack/bolt';
import { storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { viewMetadata } from '../kit/ids.js';
import { ackNow, type ButtonClick, type InModal, inModal } from '../kit/listener.js';
import { sendFromButton, showInModal } from '../kit/modal.js';
import { updateWorkingView } from './blocks.js';
import type { UpdateDraft } from './draft.js';
import { ids } from './ids.js';
import { startUpdate } from './send.js';
import { checkUpdate, updateForm } from './steps.js';

/**
 * Sending the same update again: "Try again" after the courier did not take it, or "Send again"
 * after an unknown outcome (Slack asks the dispatcher to confirm they checked with the courier
 * first). If the record changed meanwhile, the form with the current values instead.
 */
export function register(app: App, deps: Core): void {
  for (const [actionId, again] of [
    [ids.updateRetry, 'failed'],
    [ids.updateSendChecked, 'unknown'],
  ] as const) {
    app.action<ButtonClick, DraftContext<UpdateDraft> & InModal>(
      actionId,
      requires(deps, 'update'),
      withDraft(deps.store.drafts, 'update'),
      ackNow,
      inModal,
      async ({ client, context: { modal: view, draft } }) => {
        const stored = await storedBooking(deps, draft.data.trackingNumber);
        if (!stored) return;
        const check = await checkUpdate(deps, draft, stored);
        if (!check.ok) {
          await showInModal(
            client,
            view.id,
            'view' in check ? check.view : updateForm(deps, draft),
            view.hash,
          );
          return;
        }
        const working = updateWorkingView(
          draft.data.trackingNumber,
          check.value.changes,
          deps.waybill.env,
          viewMetadata({ draftId: draft.id }),
        );
        await sendFromButton(deps, client, view, draft.userId, 'update', working, () =>
          startUpdate(deps, client, {
            viewId: view.id,
            draft,
            record: stored.record,
            proposal: check.value,
            again,
          }),
        );
      },
    );
  }
}
