/** record_status: a parcel's status from a workflow, in the words `/waybill status` takes, recorded once like the card's Record status. */
import type { App } from '@slack/bolt';
import { statusLabel } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { stepActor } from '../guards/request-parts.js';
import type { SlackClient } from '../runtime/delivery.js';
import { checkStatus, readStatusWords, recordStatus, tellCards, usualWords } from '../status/index.js';
import { ids } from './ids.js';
import type { GivenInputs } from './inputs.js';
import { runStep, type StepEnd, stepRequires } from './send.js';

const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

async function statusStep(
  deps: Pick<Core, 'access' | 'activity' | 'bot' | 'logger' | 'schemas' | 'store' | 'waybill'>,
  client: SlackClient,
  given: GivenInputs,
  end: StepEnd,
): Promise<void> {
  const trackingNumber = textOf(given.tracking_number);
  const read = readStatusWords(textOf(given.status));
  if ('ambiguous' in read) return void (await end.fail({ error: `status: ${read.ambiguous}` }));
  // Words after the status are its note, before the note input's.
  const note = [read.note, textOf(given.note)].filter(Boolean).join(' ');
  const checked = checkStatus({ ...read, note });
  if (!checked.ok) {
    const { status, reason, note: noteProblem } = checked.errors;
    const error = status
      ? `status: "${textOf(given.status)}" names no status: write ${usualWords()}`
      : reason
        ? `status: ${reason}`
        : `note: ${noteProblem}`;
    return void (await end.fail({ error }));
  }
  if (!trackingNumber)
    return void (await end.fail({ error: 'tracking_number: the tracking number is needed' }));
  // The guard let only a step acting for one person's ID through (stepActor).
  const actor = stepActor(given);
  const userId = actor.ok ? actor.userId : '';
  const { text, recorded, refused } = await recordStatus(deps, client, {
    userId,
    trackingNumber,
    choice: checked.value,
  });
  // No such booking, or one the person may not update: the same answer (the access rule).
  if (refused) return void (await end.fail({ error: `tracking_number: ${text}` }));
  // The same status again (a delivery again, or someone first) is recorded once: the latest is the answer.
  const latest = recorded ?? (await deps.store.statuses.latest(trackingNumber));
  if (recorded) await tellCards(deps, client, recorded);
  await end.complete({ outputs: { status: latest ? statusLabel(latest.status, latest.reason) : '' } });
}

export function register(app: App, deps: Core): void {
  app.function(ids.stepStatus, stepRequires(deps, 'update'), async ({ inputs, complete, fail, client }) => {
    const end = { complete, fail };
    runStep(deps, ids.stepStatus, end, () => statusStep(deps, client, inputs, end));
  });
}
