/** What a dispatcher does in Slack, as the signed requests Slack sends: for one bot or several replicas. */
import { expect } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { FakeCall, FakeSlack } from '../../fakes/slack-fake.js';
import {
  type AppResponse,
  type BlockActionsArgs,
  blockActionsPayload,
  blockSuggestionPayload,
  eventCallbackBody,
  type FunctionExecutedArgs,
  functionExecutedEvent,
  globalShortcutPayload,
  interactiveBody,
  JSON_CONTENT_TYPE,
  messageShortcutPayload,
  type PostOptions,
  slashCommandBody,
  type UserArg,
  viewClosedPayload,
  viewSubmissionPayload,
} from '../../fakes/slack-requests.js';
import { stateFor } from '../../fakes/view-state.js';

export interface View {
  id: string;
  hash?: string;
  callback_id?: string;
  private_metadata?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
  blocks: any[];
  [key: string]: unknown;
}

/** Sends one signed request body to the bot (or to whichever replica is next). */
export type Post = (body: string, options?: PostOptions) => Promise<AppResponse>;

export interface SlackDriver {
  fake: FakeSlack;
  command(command: string, text?: string, fields?: Record<string, string>): Promise<AppResponse>;
  /** The modal most recently opened with views.open, as Slack holds it (with its id and hash). */
  openedView(): Promise<View>;
  /**
   * The view a submission answered with (`response_action: update`), as the next payload carries it:
   * Slack gives it a new hash, which the fake learns only from views.open/update, so the last of those.
   */
  ackedView(response: AppResponse, viewId: string): View;
  /** The view as last set by views.update for that id. */
  updatedView(viewId: string, predicate?: (view: View) => boolean): Promise<View>;
  /** Submits a view with these values typed (by schema path); other inputs keep their initial values. */
  submit(view: View, typed?: Record<string, string | null>, user?: string): Promise<AppResponse>;
  close(view: View, user?: string): Promise<AppResponse>;
  /** A button in a modal; `typed` is what the inputs on screen hold at that moment. */
  clickInView(
    view: View,
    actionId: string,
    value?: string,
    typed?: Record<string, string | null>,
    user?: string,
  ): Promise<AppResponse>;
  /**
   * A type-ahead menu (external_select) in a modal asking for its options as `value` is typed
   * (block_suggestion); `typed` is what the inputs on screen hold at that moment (the view's state).
   */
  suggest(
    view: View,
    blockId: string,
    actionId: string,
    value: string,
    user?: string,
    typed?: Record<string, string | null>,
  ): Promise<AppResponse>;
  /** An option chosen in a type-ahead menu that dispatches its action (block_actions, external_select). */
  pickInView(
    view: View,
    blockId: string,
    actionId: string,
    value: string,
    text: string,
    typed?: Record<string, string | null>,
    user?: string,
  ): Promise<AppResponse>;
  /** A select that dispatches its action (a sender profile, "Remove a parcel…"). */
  selectInView(
    view: View,
    actionId: string,
    value: string,
    typed?: Record<string, string | null>,
  ): Promise<AppResponse>;
  /** A button on a message; `user` as an id, or with their team (a Slack Connect guest's). */
  clickInMessage(
    actionId: string,
    value: string,
    options?: { channelId?: string; messageTs?: string; user?: UserArg },
  ): Promise<AppResponse>;
  /** An option chosen from a menu on a message (Send to printer with several printers). */
  selectInMessage(
    actionId: string,
    value: string,
    options?: { channelId?: string; messageTs?: string; user?: string },
  ): Promise<AppResponse>;
  /** A person chosen in a people picker (users_select) on a message, in the block `blockId`. */
  pickUserInMessage(
    actionId: string,
    blockId: string,
    selectedUser: string,
    options?: { channelId?: string; messageTs?: string; user?: string },
  ): Promise<AppResponse>;
  /** "Book from this message" on a message with this text (as Slack sends it), in CREQUESTS by default. */
  messageShortcut(text: string, options?: { channelId?: string; user?: string }): Promise<AppResponse>;
  /** A button on the Home tab (no conversation, no response_url). */
  clickInHome(actionId: string, value?: string, user?: string): Promise<AppResponse>;
  /** Text typed into an input on the Home tab and sent with Enter (`dispatch_action`). */
  typeInHome(actionId: string, text: string, user?: string): Promise<AppResponse>;
  /** An Events API delivery, e.g. `{ type: 'app_home_opened', user: 'UDISPATCH', tab: 'home' }`. */
  event(event: Record<string, unknown>): Promise<AppResponse>;
  /**
   * A workflow step run (`function_executed`); the same `eventId` with `retryNum` is Slack delivering
   * it again. Resolves with its completion: `functions.completeSuccess` or `functions.completeError`.
   */
  step(
    args: FunctionExecutedArgs,
    delivery?: { eventId?: string; retryNum?: number },
  ): Promise<{ response: AppResponse; completion: FakeCall }>;
  /** A global shortcut from the shortcut menu ("New booking", "New quote"). */
  globalShortcut(callbackId: string, user?: string): Promise<AppResponse>;
}

/** A view as the payloads of actions inside it carry it, with `typed` in its inputs. */
function viewArgs(view: View, typed: Record<string, string | null>) {
  return {
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
    viewId: view.id,
    hash: view.hash ?? 'h1',
    blocks: view.blocks,
    stateValues: stateFor(view.blocks, typed),
  };
}

function viewAction(
  view: View,
  actionId: string,
  typed: Record<string, string | null>,
  extra: { value?: string; blockId?: string; user?: string; action?: Record<string, unknown> },
) {
  return blockActionsPayload({ actionId, user: 'UDISPATCH', ...extra, view: viewArgs(view, typed) });
}

/** A block_actions payload from a message, with its response_url. */
function messageAction(fake: FakeSlack, args: BlockActionsArgs) {
  return blockActionsPayload({ ...args, responseUrl: fake.responseUrl('actions/1') });
}

/** Forms already handed out by openedView, per fake Slack: shared by every driver of one fake. */
const handedOutBy = new WeakMap<FakeSlack, Set<unknown>>();

/** A dispatcher (UDISPATCH in CDISPATCH unless told otherwise) whose every request goes through `post`. */
export function slackDriver(fake: FakeSlack, post: Post): SlackDriver {
  const handedOut = handedOutBy.get(fake) ?? new Set<unknown>();
  handedOutBy.set(fake, handedOut);
  return {
    fake,
    command: (command, text = '', fields = {}) =>
      post(
        slashCommandBody({ command, text, fake, user_id: 'UDISPATCH', channel_id: 'CDISPATCH', ...fields }),
      ),
    async openedView() {
      // The modal opens just after the command is acknowledged: wait for one not handed out yet.
      const call = await fake.waitFor('views.open', (c) => !handedOut.has(c));
      handedOut.add(call);
      const answer = call.response?.body as { view?: { id: string; hash: string } } | undefined;
      return { ...(call.body.view as View), id: answer?.view?.id ?? '', hash: answer?.view?.hash };
    },
    ackedView(response, viewId) {
      expect(response.body?.response_action, JSON.stringify(response.body)).toBe('update');
      const latest = fake.calls
        .filter((c) => c.method === 'views.open' || c.method === 'views.update')
        .map((c) => (c.response?.body as { view?: { id?: string; hash?: string } } | undefined)?.view)
        .filter((v) => v?.id === viewId)
        .at(-1);
      return { ...(response.body.view as View), id: viewId, hash: latest?.hash };
    },
    async updatedView(viewId, predicate = () => true) {
      const match = (body: Record<string, unknown>) =>
        body.view_id === viewId && predicate(body.view as View);
      const call = await fake.waitFor('views.update', (c) => match(c.body) && c.response?.status === 200);
      const answer = call.response?.body as { ok?: boolean; view?: { hash?: string } } | undefined;
      return { ...(call.body.view as View), id: viewId, hash: answer?.view?.hash };
    },
    submit: (view, typed = {}, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewSubmissionPayload({
            ...viewArgs(view, typed),
            // A pushed view is submitted with the root of its stack.
            ...(typeof view.root_view_id === 'string' ? { rootViewId: view.root_view_id } : {}),
            user,
          }),
        ),
      ),
    close: (view, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewClosedPayload({
            callbackId: view.callback_id,
            privateMetadata: view.private_metadata,
            viewId: view.id,
            user,
          }),
        ),
      ),
    clickInView: (view, actionId, value, typed = {}, user = 'UDISPATCH') =>
      post(interactiveBody(viewAction(view, actionId, typed, { value, user }))),
    suggest: (view, blockId, actionId, value, user = 'UDISPATCH', typed = {}) =>
      post(
        interactiveBody(
          blockSuggestionPayload({ actionId, blockId, value, user, view: viewArgs(view, typed) }),
        ),
      ),
    pickInView: (view, blockId, actionId, value, text, typed = {}, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          viewAction(view, actionId, typed, {
            blockId,
            user,
            action: {
              type: 'external_select',
              selected_option: { value, text: { type: 'plain_text', text, emoji: true } },
            },
          }),
        ),
      ),
    selectInView: (view, actionId, value, typed = {}) =>
      post(
        interactiveBody(
          viewAction(view, actionId, typed, {
            action: {
              type: 'static_select',
              selected_option: { value, text: { type: 'plain_text', text: value } },
            },
          }),
        ),
      ),
    clickInMessage: (
      actionId,
      value,
      { channelId = 'CDISPATCH', messageTs = '1.000001', user = 'UDISPATCH' } = {},
    ) => post(interactiveBody(messageAction(fake, { actionId, value, channelId, messageTs, user }))),
    pickUserInMessage: (
      actionId,
      blockId,
      selectedUser,
      { channelId = 'CDISPATCH', messageTs = '1.000001', user = 'UDISPATCH' } = {},
    ) =>
      post(
        interactiveBody(
          messageAction(fake, {
            actionId,
            blockId,
            channelId,
            messageTs,
            user,
            action: { type: 'users_select', selected_user: selectedUser },
          }),
        ),
      ),
    selectInMessage: (
      actionId,
      value,
      { channelId = 'CDISPATCH', messageTs = '1.000001', user = 'UDISPATCH' } = {},
    ) =>
      post(
        interactiveBody(
          blockActionsPayload({
            actionId,
            channelId,
            messageTs,
            user,
            responseUrl: fake.responseUrl('actions/1'),
            action: {
              type: 'static_select',
              selected_option: { value, text: { type: 'plain_text', text: value } },
            },
          }),
        ),
      ),
    typeInHome: (actionId, text, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          blockActionsPayload({
            actionId,
            user,
            action: { type: 'plain_text_input', value: text, block_id: 'find' },
            view: { type: 'home', viewId: 'VHOME0001', callbackId: '', privateMetadata: '', blocks: [] },
          }),
        ),
      ),
    clickInHome: (actionId, value, user = 'UDISPATCH') =>
      post(
        interactiveBody(
          blockActionsPayload({
            actionId,
            ...(value === undefined ? {} : { value }),
            user,
            view: { type: 'home', viewId: 'VHOME0001', callbackId: '', privateMetadata: '', blocks: [] },
          }),
        ),
      ),
    messageShortcut: (text, { channelId = 'CREQUESTS', user = 'UDISPATCH' } = {}) =>
      post(
        interactiveBody(
          messageShortcutPayload({
            callbackId: ids.bookFromMessage,
            text,
            channelId,
            user,
            responseUrl: fake.responseUrl('shortcut/1'),
          }),
        ),
      ),
    event: (event) => post(eventCallbackBody(event), { contentType: JSON_CONTENT_TYPE }),
    async step(args, { eventId, retryNum } = {}) {
      const event = functionExecutedEvent(args);
      const execution = event.function_execution_id;
      const ofThis = (call: FakeCall) => call.body.function_execution_id === execution;
      // This delivery's completion: the next one of either kind for the execution.
      const next = (method: string) =>
        fake.waitFor(method, ofThis, {
          count: fake.callsTo(method).filter(ofThis).length + 1,
          timeoutMs: 15_000,
        });
      const ending = Promise.any([next('functions.completeSuccess'), next('functions.completeError')]);
      const response = await post(eventCallbackBody(event, { eventId }), {
        contentType: JSON_CONTENT_TYPE,
        ...(retryNum
          ? { headers: { 'X-Slack-Retry-Num': String(retryNum), 'X-Slack-Retry-Reason': 'timeout' } }
          : {}),
      });
      const completion = await ending;
      return { response, completion };
    },
    globalShortcut: (callbackId, user = 'UDISPATCH') =>
      post(interactiveBody(globalShortcutPayload({ callbackId, user }))),
  };
}

/** `/book import`, the file chosen, Check file: the summary with its "Book N rows", as a dispatcher gets there. */
export async function checkedImport(driver: SlackDriver, fileId: string, user = 'UDISPATCH'): Promise<View> {
  await driver.command('/book', 'import', { user_id: user });
  const modal = await driver.openedView();
  await driver.submit(modal, { file: fileId }, user);
  return driver.updatedView(modal.id, (view) => view.callback_id === ids.bulkConfirm);
}
