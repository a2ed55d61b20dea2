/** "Send update" on the update form. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { updateAttemptKey } from '../shared/attempt-keys.js';
import { inputBlockIds, mergeInput, readFormState, type StateValues, slackErrors } from '../shared/forms.js';
import { ids, viewMetadata } from '../shared/ids.js';
import { updateWorkingView } from './blocks.js';
import {
  formValuesOf,
  proposedUpdate,
  runUpdate,
  storedBooking,
  type UpdateAttemptResult,
  type UpdateDraft,
  updateDraftOfView,
  updateForm,
  viewOfUpdateAttempt,
} from './flow.js';

/**
 * "Send update": validated like a booking, refused if nothing changed or if someone else changed
 * the waybill since the form was opened; otherwise acknowledged at once and sent once.
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.updateForm, async ({ ack, view, body, client }) => {
    const blockIds = inputBlockIds(view.blocks);
    const found = updateDraftOfView(deps, view.private_metadata);
    const stored = found ? storedBooking(deps, found.data.trackingNumber) : undefined;
    if (!found || !stored) {
      await ack({
        response_action: 'errors',
        errors: { [blockIds[0] ?? '']: 'This form has expired. Close it and open the update again.' },
      });
      return;
    }
    const input = mergeInput(found.data.input, readFormState(view.state.values as StateValues));
    const draft = deps.store.drafts.save<UpdateDraft>(found.id, { ...found.data, input });
    if (stored.record.version !== draft.data.baseVersion) {
      const who = stored.record.updatedBy ? `<@${stored.record.updatedBy}>` : 'Someone';
      const refreshed = deps.store.drafts.save<UpdateDraft>(draft.id, {
        ...draft.data,
        baseVersion: stored.record.version,
        input: formValuesOf(stored.booking, deps.waybill.timeZone),
        rev: draft.data.rev + 1,
      });
      const notice = `${who} changed this waybill since you opened it, so nothing was sent. The form now shows the current values: make your change again.`;
      await ack({ response_action: 'update', view: updateForm(deps, refreshed, [notice]) });
      return;
    }
    const proposal = proposedUpdate(deps, stored.booking, draft.data);
    if (!proposal.ok) {
      await ack({ response_action: 'errors', errors: slackErrors(proposal.errors, blockIds) });
      return;
    }
    const { changes } = proposal.value;
    if (changes.length === 0) {
      await ack({
        response_action: 'errors',
        errors: { [blockIds[0] ?? '']: 'Nothing changed: edit a field, or close this window.' },
      });
      return;
    }
    const key = updateAttemptKey(draft.data.trackingNumber, draft.data.baseVersion);
    const attempt = deps.store.attempts.begin<UpdateAttemptResult>(key, 'update');
    if (!attempt.started) {
      await ack({ response_action: 'update', view: viewOfUpdateAttempt(deps, draft, attempt.attempt) });
      return;
    }
    await ack({
      response_action: 'update',
      view: updateWorkingView(
        draft.data.trackingNumber,
        changes,
        deps.waybill.env,
        viewMetadata({ draftId: draft.id }),
      ),
    });
    deps.logger.info(
      { trackingNumber: draft.data.trackingNumber, user: body.user.id, changed: changes.length },
      'update confirmed',
    );
    deps.inFlight.run('update', () =>
      runUpdate(deps, client, { viewId: view.id, draft, record: stored.record, ...proposal.value }),
    );
  });
}
