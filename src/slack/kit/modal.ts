/** Modal plumbing: replace what a modal shows, open one after the ack, send from a button in one. */
import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { StoreUnavailableError } from '../../store/index.js';
import type { Core } from '../core.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import { storeUnavailableText } from './blocks.js';
import { escapeMrkdwn } from './mrkdwn.js';

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

export type Respond = (message: {
  response_type: 'ephemeral';
  replace_original?: boolean;
  text: string;
}) => Promise<unknown>;

/**
 * Opens a modal after the request was acknowledged, as background work, so a burst of commands
 * is acknowledged first (what the form shows is read then too; when there is nothing to show, the
 * dispatcher is told why instead). If the form cannot be opened (the trigger_id lived past its 3 seconds,
 * Slack refused the view), the dispatcher is told why in plain words and asked to do it again.
 */
export function openModalSoon(
  deps: Pick<Core, 'inFlight' | 'logger'>,
  client: SlackClient,
  {
    triggerId,
    view,
    respond,
    again,
  }: {
    triggerId: string;
    /** The form, or why there is none (said to the dispatcher instead). */
    view: () => ModalView | string | Promise<ModalView | string>;
    respond: Respond;
    again: string;
  },
): void {
  deps.inFlight.run('open modal', async () => {
    try {
      const form = await view();
      if (typeof form === 'string') {
        await respond({ response_type: 'ephemeral', replace_original: false, text: form });
        return;
      }
      await client.views.open({ trigger_id: triggerId, view: form });
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        deps.logger.warn({ err }, 'a form could not be prepared: the database did not answer');
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          text: `:warning: ${storeUnavailableText}`,
        });
        return;
      }
      const code = slackErrorCode(err);
      if (code !== 'expired_trigger_id') deps.logger.error({ err }, 'a form could not be opened');
      await respond({ response_type: 'ephemeral', replace_original: false, text: notOpened(code, again) });
    }
  });
}

/** Why a form did not open, for the dispatcher: Slack's own code is kept, in brackets, for whoever runs the bot. */
function notOpened(code: string | undefined, again: string): string {
  if (code === 'expired_trigger_id') return `Slack took too long to open the form. Please ${again} again.`;
  const why =
    code === 'invalid_arguments'
      ? 'Slack refused to show the form: it would not accept something in it (invalid_arguments)'
      : code
        ? `Slack could not open the form (${escapeMrkdwn(code)})`
        : 'Something went wrong while preparing the form';
  return `:warning: ${why}. Nothing was sent to the courier. Please ${again} again; if this keeps happening, tell whoever runs the bot.`;
}

/** A modal as Slack reports it, as a view to show again (without what Slack adds: id, hash, state…). */
function asShown(view: ViewOutput): ModalView {
  return {
    type: 'modal',
    callback_id: view.callback_id,
    title: { type: 'plain_text', text: view.title.text },
    ...(view.close ? { close: { type: 'plain_text', text: view.close.text } } : {}),
    ...(view.submit ? { submit: { type: 'plain_text', text: view.submit.text } } : {}),
    blocks: view.blocks,
    private_metadata: view.private_metadata,
    notify_on_close: view.notify_on_close,
  };
}

/** What a modal shows once a send was asked for, and the background work that follows, if any. */
export interface SendStep {
  /** True when the courier call was recorded and `work` makes it. */
  started: boolean;
  view: ModalView;
  work?: () => Promise<void>;
}

/**
 * A button that sends again ("Try again", a confirmed "Send again"), clicked by `userId`: `working`
 * replaces the modal only if the one clicked is still on screen (its hash), so a second click
 * starts nothing; then `start` records the attempt, and what it answers replaces `working` unless
 * the call started.
 */
export async function sendFromButton(
  deps: Pick<Core, 'inFlight'>,
  client: SlackClient,
  view: ViewOutput,
  userId: string,
  operation: string,
  working: ModalView,
  start: () => Promise<SendStep>,
): Promise<void> {
  if (!(await showInModal(client, view.id, working, view.hash))) return;
  const step = await start().catch(async (err: unknown) => {
    // Nothing started: the modal shows what it showed before the click, with its buttons.
    if (err instanceof StoreUnavailableError) await showInModal(client, view.id, asShown(view));
    throw err;
  });
  if (!step.started) await showInModal(client, view.id, step.view);
  if (step.work) deps.inFlight.run(operation, step.work, { client, userId, viewId: view.id });
}
