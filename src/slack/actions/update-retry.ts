import type { App } from '@slack/bolt';
import { toUpdateWire } from '../../waybill/wire.js';
import { updateWorkingView } from '../blocks/update.js';
import type { BotDeps } from '../deps.js';
import { ids, viewMetadata } from '../ids.js';
import { showInModal } from '../modal.js';
import {
  changesBetween,
  runUpdate,
  storedBooking,
  updateAttemptKey,
  updateDraftOfView,
  updatedBooking,
  updateForm,
} from '../updating.js';

/**
 * "Try again" after an update the courier did not take: the same changes, sent again, if the
 * record is still the one they were made on; otherwise back to the form with the current values.
 */
export function register(app: App, deps: BotDeps): void {
  app.action(ids.updateRetry, async ({ ack, body, client }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.view) return;
    const view = body.view;
    const draft = updateDraftOfView(deps, view.private_metadata);
    const stored = draft ? storedBooking(deps, draft.data.trackingNumber) : undefined;
    if (!draft || !stored) return;
    const result = updatedBooking(deps, stored.booking, draft.data);
    if (!result.ok || stored.record.version !== draft.data.baseVersion) {
      await showInModal(client, view.id, updateForm(deps, draft), view.hash);
      return;
    }
    const { timeZone, env } = deps.waybill;
    const changes = changesBetween(
      toUpdateWire(stored.booking, timeZone),
      toUpdateWire(result.value, timeZone),
    );
    const key = updateAttemptKey(draft.data.trackingNumber, draft.data.baseVersion);
    deps.store.attempts.clearFailed(key);
    if (!deps.store.attempts.begin(key, 'update').started) return;
    const working = updateWorkingView(
      draft.data.trackingNumber,
      changes,
      env,
      viewMetadata({ draftId: draft.id }),
    );
    if (!(await showInModal(client, view.id, working, view.hash))) {
      deps.store.attempts.finish(key, 'failed', { message: 'The retry was not started.' });
      return;
    }
    deps.inFlight.run('update', () =>
      runUpdate(deps, client, {
        viewId: view.id,
        draft,
        record: stored.record,
        booking: result.value,
        changes,
      }),
    );
  });
}
