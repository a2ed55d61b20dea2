/** "Next" on a booking step. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { inputBlockIds, type StateValues, slackErrors } from '../kit/forms.js';
import { errorsOfStep, validateDraftToSend, withTrackingNumber, withTyped } from './draft.js';
import { type BookingDraft, bookingSteps } from './form.js';
import { ids } from './ids.js';
import { showStep } from './steps.js';

/** "Next" on a booking step: this step's inputs validated inline, then the next step. */
export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<BookingDraft>>(
    ids.bookingStep,
    requires(deps, 'book'),
    withDraft(deps.store.drafts, 'booking', {
      error: 'This booking form has expired. Close it and type /book again.',
    }),
    async ({ ack, view, context: { draft: found } }) => {
      const blockIds = inputBlockIds(view.blocks);
      const typed = withTyped(found.data, view.state.values as StateValues);
      const step = typed.step;
      const data = step === 'shipment' ? await withTrackingNumber(deps, found.id, typed) : typed;
      const result = validateDraftToSend(deps, data);
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
      await ack({
        response_action: 'update',
        view: await showStep(deps, { ...found, data }, next, [], result),
      });
    },
  );
}
