/** Requests no listener answered (a stale button or form after a deploy, an unknown command, an empty body): answered at once, the sender told, logged. */
import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Core } from '../core.js';
import { context, plain, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { AroundRequest } from './around-request.js';
import { partsOf, type SlackRequest } from './request-parts.js';
import { tellOutside } from './store-faults.js';

export const outOfDateText =
  'This button or form is from an older version of the bot and no longer works, so nothing was done or sent to the courier. Start again from the command or the Home tab.';

/** The notice, as a modal: in place of a stale form submitted, or on top of a modal clicked in. */
export function outOfDateView(): ModalView {
  return {
    type: 'modal',
    title: plain('Out of date'),
    close: plain('Close'),
    blocks: [section(`:warning: ${outOfDateText}`), context('Nothing was saved from this form.')],
  };
}

/** What describing and answering a request no listener matched reads of it: any of it may be missing or malformed. */
type Request = {
  type?: string;
  command?: string;
  callback_id?: string;
  actions?: { action_id?: unknown }[];
  view?: { callback_id?: string; submit?: unknown };
};

/**
 * What Slack needs back for each kind of request; a command's answer is also what its sender reads.
 * A stale form submitted shows the notice in its place; a view with no submit button (a progress or
 * outcome window) cannot be submitted from Slack, so it is only closed.
 */
function acknowledgement(body: Request): unknown {
  if (body.type === 'view_submission') {
    return body.view?.submit ? { response_action: 'update', view: outOfDateView() } : undefined;
  }
  if (body.type === 'block_suggestion') return { options: [] };
  if (body.command) {
    return {
      response_type: 'ephemeral',
      text: `:warning: \`${escapeMrkdwn(body.command)}\` is not a command this bot knows: \`/waybill help\` lists them.`,
    };
  }
  return undefined;
}

/** Kinds of request whose sender can still be told, outside the request, that what they clicked is stale. */
const TOLD_OUTSIDE = new Set(['block_actions', 'shortcut', 'message_action', 'interactive_message']);

/** Ids only: enough to see what is stale, nothing anyone typed. */
function described(body: Request) {
  const actionId = Array.isArray(body.actions) ? body.actions[0]?.action_id : undefined;
  return {
    type: body.type,
    command: body.command,
    callbackId: body.callback_id ?? body.view?.callback_id,
    actionId: typeof actionId === 'string' ? actionId : undefined,
  };
}

/** Where a request's listeners record a failure (Bolt's error handler sees the request's context). */
const REQUEST_STATE = 'unmatchedWatch';
type RequestState = { acknowledged: boolean; failure?: Error };

/** Bolt's error handler: a request whose listener failed is not one that no listener handles. */
export function markFailed(requestContext: Record<string, unknown> | undefined, error: Error): void {
  const state = requestContext?.[REQUEST_STATE] as RequestState | undefined;
  // Bolt wraps what a listener threw; the receiver's handler judges the original (a TypeError is the sender's fault).
  if (state) state.failure = (error as { original?: Error }).original ?? error;
}

/**
 * Around each request (around-request.ts). Bolt leaves a request
 * nobody acknowledged unanswered until its unhandled-request timeout (about 3 s, then 404, and
 * Slack shows an error). Instead, when processEvent is done: a request a listener failed on goes to
 * the receiver's error handler at once (as an error Bolt throws itself does), and one no listener
 * matched is acknowledged, and its sender told where Slack allows.
 */
export function answerUnmatched(
  client: App['client'],
  deps: Pick<Core, 'logger' | 'inFlight'>,
): AroundRequest {
  return (processEvent) => async (event) => {
    const state: RequestState = { acknowledged: false };
    await processEvent({
      ...event,
      ack: async (response) => {
        state.acknowledged = true;
        await event.ack(response);
      },
      customProperties: { ...event.customProperties, [REQUEST_STATE]: state },
    });
    if (state.acknowledged) return;
    if (state.failure) throw state.failure;
    const body = (event.body ?? {}) as Request;
    deps.logger.warn(
      described(body),
      'a Slack request no listener handles (out of date, or not ours): answered',
    );
    await event.ack(acknowledgement(body));
    if (TOLD_OUTSIDE.has(body.type ?? '')) {
      deps.inFlight.run('tell out of date', () =>
        tellOutside(client, partsOf(body as SlackRequest), {
          text: `:warning: ${outOfDateText}`,
          view: outOfDateView(),
        }),
      );
    }
  };
}
