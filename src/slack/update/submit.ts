/** "Send update" on the update form. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { inputBlockIds, mergeInput, readFormState, type StateValues, slackErrors } from '../shared/forms.js';
import { ids } from '../shared/ids.js';
import { storedBooking } from '../shared/stored-booking.js';
import { checkUpdate, startUpdate, type UpdateDraft, updateDraftOfView } from './flow.js';

/**
 * "Send update": validated like a booking, refused if nothing changed or if someone else changed
 * the waybill since the form was opened; otherwise acknowledged at once and sent once.
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.updateForm, async ({ ack, view, body, client }) => {
    const blockIds = inputBlockIds(view.blocks);
    const found = await updateDraftOfView(deps, view.private_metadata);
    const stored = found ? await storedBooking(deps, found.data.trackingNumber) : undefined;
    if (!found || !stored) {
      await ack({
        response_action: 'errors',
        errors: { [blockIds[0] ?? '']: 'This form has expired. Close it and open the update again.' },
      });
      return;
    }
    const input = mergeInput(found.data.input, readFormState(view.state.values as StateValues));
    const draft = await deps.store.drafts.save<UpdateDraft>(found.id, { ...found.data, input });
    const check = await checkUpdate(deps, draft, stored);
    if (!check.ok) {
      await ack(
        'view' in check
          ? { response_action: 'update', view: check.view }
          : { response_action: 'errors', errors: slackErrors(check.errors, blockIds) },
      );
      return;
    }
    const step = await startUpdate(deps, client, {
      viewId: view.id,
      draft,
      record: stored.record,
      proposal: check.value,
    });
    // Before the ack, which fails when this answer comes too late for Slack (a slow database): an
    // update once recorded as begun is sent, and its outcome shown, whatever happened to the ack.
    if (step.work) deps.inFlight.run('update', step.work);
    await ack({ response_action: 'update', view: step.view });
    if (step.started) {
      deps.logger.info(
        {
          trackingNumber: draft.data.trackingNumber,
          user: body.user.id,
          changed: check.value.changes.length,
        },
        'update confirmed',
      );
    }
  });
}
