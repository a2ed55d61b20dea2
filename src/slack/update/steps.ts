/** What the update modal shows of a draft: the form (pure), the form shown again, and whether the update may go. */
import type { ModalView } from '@slack/types';
import type { BookingRecord, Draft } from '../../store/index.js';
import type { Booking, FieldError } from '../../waybill/schemas.js';
import { storedBooking } from '../booking/index.js';
import { saveToShow } from '../kit/drafts.js';
import { viewMetadata } from '../kit/ids.js';
import { updateFormView } from './blocks.js';
import {
  formValuesOf,
  type ProposedUpdate,
  proposedUpdate,
  type UpdateDeps,
  type UpdateDraft,
} from './draft.js';
import { updateSpec } from './form.js';

/** The update form of the draft as saved, its rev in the inputs' block ids; pure. */
export function updateForm(
  deps: Pick<UpdateDeps, 'waybill' | 'schemas'>,
  draft: Draft<UpdateDraft>,
  notices: string[] = [],
) {
  return updateFormView({
    trackingNumber: draft.data.trackingNumber,
    ...updateSpec(deps),
    values: draft.data.input,
    metadata: viewMetadata({ draftId: draft.id }),
    env: deps.waybill.env,
    notices,
    rev: draft.data.rev,
    ...(draft.data.reattempt ? { reattempt: true } : {}),
  });
}

/** The form again, saved as a new rev so Slack shows the draft's values, with a notice on top. */
export async function formAgain(
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'schemas'>,
  draft: Draft<UpdateDraft>,
  data: Partial<UpdateDraft>,
  notice: string,
): Promise<ModalView> {
  return updateForm(deps, await saveToShow(deps.store.drafts, draft, data), [notice]);
}

/** Someone changed the waybill since the form was opened, so nothing was sent: the current values. */
export async function currentForm(
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'schemas' | 'logger'>,
  draft: Draft<UpdateDraft>,
  stored: { record: BookingRecord<Booking> },
): Promise<ModalView> {
  const current = await storedBooking(deps, draft.data.trackingNumber);
  const record = current?.record ?? stored.record;
  const who = record.updatedBy ? `<@${record.updatedBy}>` : 'Someone';
  return formAgain(
    deps,
    draft,
    current
      ? {
          baseVersion: current.record.version,
          input: formValuesOf(current.booking, deps.waybill.timeZone),
        }
      : {},
    `${who} changed this waybill since you opened it, so nothing was sent. The form now shows the current values: make your change again.`,
  );
}

export type UpdateCheck =
  | { ok: true; value: ProposedUpdate }
  | { ok: false; view: ModalView }
  | { ok: false; errors: FieldError[] };

/**
 * Whether the draft's update may be sent: the record is still the one the form was opened on
 * (otherwise the form with the current values), and the change is valid and changes something.
 */
export async function checkUpdate(
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'schemas' | 'logger'>,
  draft: Draft<UpdateDraft>,
  stored: { record: BookingRecord<Booking>; booking: Booking },
): Promise<UpdateCheck> {
  if (stored.record.version !== draft.data.baseVersion) {
    return { ok: false, view: await currentForm(deps, draft, stored) };
  }
  const proposal = proposedUpdate(deps, stored.booking, draft.data);
  if (!proposal.ok) return proposal;
  if (proposal.value.changes.length === 0) {
    return {
      ok: false,
      errors: [{ path: '', message: 'Nothing changed: edit a field, or close this window.' }],
    };
  }
  return proposal;
}
