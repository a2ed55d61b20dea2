import type { ModalView } from '@slack/types';
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
