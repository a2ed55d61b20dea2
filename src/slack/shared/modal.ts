/** Modal plumbing: replace what a modal shows, open one after the ack, retry an attempt from one. */
import type { ModalView } from '@slack/types';
import type { BotDeps } from '../deps.js';
import type { SlackClient } from './delivery.js';
import { slackErrorCode } from './slack-errors.js';

/**
 * Replaces what a modal shows. False when the user has closed it (not_found), so the caller can
 * deliver the outcome another way, or when the view changed since `hash` was read (hash_conflict:
 * a second click on a button that was already acted on).
 */
export async function showInModal(
  client: SlackClient,
  viewId: string,
  view: ModalView,
  hash?: string,
): Promise<boolean> {
  try {
    await client.views.update({ view_id: viewId, view, ...(hash ? { hash } : {}) });
    return true;
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === 'not_found' || code === 'hash_conflict') return false;
    throw err;
  }
}

type Respond = (message: {
  response_type: 'ephemeral';
  replace_original?: boolean;
  text: string;
}) => Promise<unknown>;

/**
 * Opens a modal after the request was acknowledged, as background work, so a burst of commands
 * is acknowledged first. The trigger_id lives 3 seconds: if Slack says it expired, the
 * dispatcher is asked to do it again.
 */
export function openModalSoon(
  deps: Pick<BotDeps, 'inFlight'>,
  client: SlackClient,
  {
    triggerId,
    view,
    respond,
    again,
  }: { triggerId: string; view: () => ModalView; respond: Respond; again: string },
): void {
  deps.inFlight.run('open modal', async () => {
    try {
      await client.views.open({ trigger_id: triggerId, view: view() });
    } catch (err) {
      if (slackErrorCode(err) !== 'expired_trigger_id') throw err;
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: `Slack took too long to open the form. Please ${again} again.`,
      });
    }
  });
}

/**
 * "Try again" on a failed booking or update: the attempt (one whose outcome is unknown never
 * qualifies) starts afresh once, shown as working in the modal, then `work` runs in the background.
 * A second click on the same button finds the attempt under way, or the modal's hash stale.
 */
export async function retryAttempt(
  deps: Pick<BotDeps, 'inFlight' | 'store'>,
  client: SlackClient,
  view: { id: string; hash: string },
  attempt: { key: string; operation: string; working: ModalView; work: () => Promise<void> },
): Promise<void> {
  deps.store.attempts.clearFailed(attempt.key);
  if (!deps.store.attempts.begin(attempt.key, attempt.operation).started) return;
  if (!(await showInModal(client, view.id, attempt.working, view.hash))) {
    deps.store.attempts.finish(attempt.key, 'failed', { message: 'The retry was not started.' });
    return;
  }
  deps.inFlight.run(attempt.operation, attempt.work);
}
