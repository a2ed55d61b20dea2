/** "Send update" on the update form. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { inputBlockIds, mergeInput, readFormState, type StateValues, slackErrors } from '../kit/forms.js';
import type { UpdateDraft } from './draft.js';
import { ids } from './ids.js';
import { startUpdate } from './send.js';
import { checkUpdate } from './steps.js';

/** Said when the draft, or the booking it updates, is gone. */
const expired = 'This form has expired. Close it and open the update again.';

/**
 * "Send update": validated like a booking, refused if nothing changed or if someone else changed
 * the waybill since the form was opened; otherwise acknowledged at once and sent once.
 */
export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<UpdateDraft>>(
    ids.updateForm,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, 'update', { error: expired }),
    async ({ ack, view, body, client, context: { draft: found } }) => {
      const blockIds = inputBlockIds(view.blocks);
      const stored = await storedBooking(deps, found.data.trackingNumber);
      if (!stored) {
        await ack({ response_action: 'errors', errors: { [blockIds[0] ?? '']: expired } });
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
      if (step.work)
        deps.inFlight.run('update', step.work, { client, userId: draft.userId, viewId: view.id });
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
    },
  );
}
