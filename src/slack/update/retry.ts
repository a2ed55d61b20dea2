/** "Try again" after a failed update. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { updateAttemptKey } from '../shared/attempt-keys.js';
import { onModalButton } from '../shared/buttons.js';
import { ids, viewMetadata } from '../shared/ids.js';
import { retryAttempt, showInModal } from '../shared/modal.js';
import { updateWorkingView } from './blocks.js';
import { proposedUpdate, runUpdate, storedBooking, updateDraftOfView, updateForm } from './flow.js';

/**
 * "Try again" after an update the courier did not take: the same changes, sent again, if the
 * record is still the one they were made on; otherwise back to the form with the current values.
 */
export function register(app: App, deps: BotDeps): void {
  onModalButton(app, ids.updateRetry, async (view, client) => {
    const draft = updateDraftOfView(deps, view.private_metadata);
    const stored = draft ? storedBooking(deps, draft.data.trackingNumber) : undefined;
    if (!draft || !stored) return;
    const proposal = proposedUpdate(deps, stored.booking, draft.data);
    if (!proposal.ok || stored.record.version !== draft.data.baseVersion) {
      await showInModal(client, view.id, updateForm(deps, draft), view.hash);
      return;
    }
    const { trackingNumber, baseVersion } = draft.data;
    await retryAttempt(deps, client, view, {
      key: updateAttemptKey(trackingNumber, baseVersion),
      operation: 'update',
      working: updateWorkingView(
        trackingNumber,
        proposal.value.changes,
        deps.waybill.env,
        viewMetadata({ draftId: draft.id }),
      ),
      work: () =>
        runUpdate(deps, client, { viewId: view.id, draft, record: stored.record, ...proposal.value }),
    });
  });
}
