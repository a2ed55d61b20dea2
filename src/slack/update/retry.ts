/** "Try again" after a failed update, and "Send again" after one of unknown outcome. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onModalButton } from '../shared/buttons.js';
import { ids, viewMetadata } from '../shared/ids.js';
import { sendFromButton, showInModal } from '../shared/modal.js';
import { storedBooking } from '../shared/stored-booking.js';
import { updateWorkingView } from './blocks.js';
import { checkUpdate, startUpdate, updateDraftOfView, updateForm } from './flow.js';

/**
 * Sending the same update again: "Try again" after the courier did not take it, or "Send again"
 * after an unknown outcome (Slack asks the dispatcher to confirm they checked with the courier
 * first). If the record changed meanwhile, the form with the current values instead.
 */
export function register(app: App, deps: BotDeps): void {
  for (const [actionId, again] of [
    [ids.updateRetry, 'failed'],
    [ids.updateSendChecked, 'unknown'],
  ] as const) {
    onModalButton(app, actionId, async (view, client) => {
      const draft = await updateDraftOfView(deps, view.private_metadata);
      const stored = draft ? await storedBooking(deps, draft.data.trackingNumber) : undefined;
      if (!draft || !stored) return;
      const check = await checkUpdate(deps, draft, stored);
      if (!check.ok) {
        await showInModal(client, view.id, 'view' in check ? check.view : updateForm(deps, draft), view.hash);
        return;
      }
      const working = updateWorkingView(
        draft.data.trackingNumber,
        check.value.changes,
        deps.waybill.env,
        viewMetadata({ draftId: draft.id }),
      );
      await sendFromButton(deps, client, view, 'update', working, () =>
        startUpdate(deps, client, {
          viewId: view.id,
          draft,
          record: stored.record,
          proposal: check.value,
          again,
        }),
      );
    });
  }
}
