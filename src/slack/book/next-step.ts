/** "Next" on a booking step. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { inputBlockIds, type StateValues, slackErrors } from '../shared/forms.js';
import { ids } from '../shared/ids.js';
import {
  bookingDraftOfView,
  errorsOfStep,
  showStep,
  validateDraft,
  withTrackingNumber,
  withTyped,
} from './flow.js';
import { bookingSteps } from './form.js';

/** "Next" on a booking step: this step's inputs validated inline, then the next step. */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.bookingStep, async ({ ack, view }) => {
    const blockIds = inputBlockIds(view.blocks);
    const found = await bookingDraftOfView(deps, view.private_metadata);
    if (!found) {
      const message = 'This booking form has expired. Close it and type /book again.';
      await ack({ response_action: 'errors', errors: { [blockIds[0] ?? '']: message } });
      return;
    }
    const typed = withTyped(found.data, view.state.values as StateValues);
    const step = typed.step;
    const data = step === 'shipment' ? await withTrackingNumber(deps, found.id, typed) : typed;
    const result = validateDraft(deps, data);
    const errors = result.ok ? [] : errorsOfStep(deps, data, step, result.errors);
    const known =
      step === 'shipment'
        ? await deps.store.bookings.get(String(data.input.trackingNumber ?? '').trim())
        : undefined;
    if (known) {
      errors.push({
        path: 'trackingNumber',
        message: `Tracking number ${known.trackingNumber} is already booked`,
      });
    }
    if (errors.length > 0) {
      await deps.store.drafts.save(found.id, data);
      await ack({ response_action: 'errors', errors: slackErrors(errors, blockIds) });
      return;
    }
    const next = bookingSteps[bookingSteps.indexOf(step) + 1] ?? 'review';
    await ack({ response_action: 'update', view: await showStep(deps, { ...found, data }, next) });
  });
}
