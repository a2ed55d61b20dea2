/** Who may quote, book and update: `requires(op)`, the middleware each listener is registered with. */

import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Access, Operation, Refusal, Verdict } from '../../operations/access.js';
import { recordRefusal } from '../../operations/audit.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { context, plain, section } from '../kit/blocks.js';
import { firstWord, HELP } from '../kit/command-request.js';
import { chosenConversation } from '../kit/global-shortcut.js';
import { readViewMetadata } from '../kit/ids.js';
import { type Guard, type Permission, REQUIRED } from '../kit/listener.js';
import type { SlackClient } from '../runtime/delivery.js';
import { personOf } from './person.js';
import { partsOf, type RequestParts, type SlackRequest } from './request-parts.js';

/**
 * The conversation a request belongs to: the command's, the message's, the modal's draft's, or,
 * before there is a draft, the one chosen in a global shortcut's first view.
 */
async function channelOf(
  store: Pick<Core['store'], 'drafts'>,
  request: RequestParts,
): Promise<string | undefined> {
  if (request.channelId) return request.channelId;
  const draftId = readViewMetadata(request.view?.private_metadata)?.draftId;
  if (draftId) return (await store.drafts.get(draftId))?.channelId;
  return chosenConversation(request.view?.state?.values);
}

/** What a refused operation is, in the refusal's words: "may …", "… are not enabled". */
export const doing: Record<Operation, [may: string, enabled: string]> = {
  quote: ['quote waybills', 'quoting'],
  book: ['book waybills', 'booking'],
  update: ['update waybills', 'waybill changes'],
  show: ['look up waybills', 'waybill changes'],
  addresses: ['use the address book', 'the address book'],
  bulk: ['book waybills from a CSV file', 'booking'],
  remittance: ['reconcile COD remittance files', 'COD remittances'],
};

const refusals: Record<Refusal, (operation: Operation) => string> = {
  organisation: () =>
    "Sorry, this bot answers only its own organisation's people. Ask whoever runs it if your organisation should be added.",
  user: (operation) =>
    `Sorry, you are not on the list of people who may ${doing[operation][0]} with this bot. Ask whoever runs it to add you.`,
  channel: (operation) =>
    `Sorry, ${doing[operation][1]} ${operation === 'addresses' ? 'is' : 'are'} not enabled in this conversation. Use one of the dispatch channels.`,
};

function refusedView(text: string) {
  return {
    type: 'modal' as const,
    title: plain('Not allowed'),
    close: plain('Close'),
    blocks: [section(`:no_entry: ${text}`), context('Nothing was sent to the courier.')],
  };
}

/** Whether `userId` (of `teamId`, when the request says) may do `operation` in `channelId`: the rule's verdict. */
export async function verdictOn(
  access: Access,
  operation: Operation,
  where: {
    client: SlackClient;
    userId: string;
    teamId?: string | undefined;
    channelId: string | undefined;
    channelChosenLater?: boolean;
  },
): Promise<Verdict> {
  const { client, userId, teamId, channelId, channelChosenLater = false } = where;
  const person = await personOf(access, client, userId, teamId);
  return access.allows(person, operation, channelId, { channelChosenLater });
}

/** A refusal in one line, for the person refused. */
export function refusalText(reason: Refusal, operation: Operation): string {
  return refusals[reason](operation);
}

/** What a listener's first middleware says it requires; undefined when it is not a `requires` guard. */
export function declaredPermission(middleware: unknown): Permission | 'per request' | undefined {
  return typeof middleware === 'function' ? (middleware as Partial<Guard>)[REQUIRED] : undefined;
}

/** A workflow step's end with an error, as Bolt hands it to a step's middleware. */
type StepFail = { fail: (params: { error: string }) => Promise<unknown> };

/** Requests that act on what the bot put in a conversation, never begin anything there. */
const DM_SURFACES = new Set<RequestParts['surface']>(['button', 'suggestion', 'submission', 'closed']);

/**
 * The listener middleware that lets a request through only if its sender may do `permission` in its
 * conversation (a function: what this request needs, as a command's words say). A refusal is recorded,
 * logged and said where the request came from; it never reaches the listener.
 */
export function requires(
  core: Pick<Core, 'access' | 'logger'> & { store: Pick<Store, 'audit' | 'drafts'> },
  permission: Permission | ((body: SlackRequest) => Permission),
): Guard {
  const guard: Middleware<AnyMiddlewareArgs> = async (args) => {
    const operation = typeof permission === 'function' ? permission(args.body) : permission;
    if (operation === 'nothing') return args.next();
    const request = partsOf(args.body);
    if (request.problem) {
      // A step whose person or channel input is not one Slack ID: ended naming the input.
      await (args as unknown as StepFail).fail({ error: request.problem });
      return;
    }
    // A modal's conversation is read from its draft only where it matters (a channel list is set).
    const channelId = core.access.listsChannels ? await channelOf(core.store, request) : request.channelId;
    const { userId, teamId, view, triggerId } = request;
    // A shortcut and the Home tab come from no conversation: the one chosen next is checked then. A
    // workflow step naming no channel (a quote, a status) is checked on its user alone.
    // A click, a menu or a modal in the bot's own DM (a reminder, find results) is checked on its user
    // alone: a DM is never a listed channel, and the booking it names is checked in its own
    // conversation (refusalOnBooking). A command or message shortcut there would start work in the DM:
    // still refused.
    const inBotDm = channelId?.startsWith('D') === true && DM_SURFACES.has(request.surface);
    const channelChosenLater =
      request.surface === 'shortcut' ||
      view?.type === 'home' ||
      (request.surface === 'step' && !channelId) ||
      inBotDm;
    const verdict = await verdictOn(core.access, operation, {
      client: args.client,
      userId,
      teamId,
      channelId,
      channelChosenLater,
    });
    if (verdict.ok) return args.next();
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    if (request.surface === 'suggestion') {
      // A menu asking for options, at every key typed: none. The refusal is said, and recorded,
      // when something is chosen or submitted.
      await ack?.({ options: [] });
      return;
    }
    const text = refusalText(verdict.reason, operation);
    await recordRefusal(core.store, {
      userId,
      operation,
      reason: verdict.reason,
      where: channelId ?? 'an unknown conversation',
    });
    core.logger.warn(
      { user: userId, channel: channelId, operation, reason: verdict.reason },
      'request refused by access control',
    );
    if (request.surface === 'step') {
      // Bolt acknowledged the event already; the workflow shows the step's error to its builder.
      await (args as unknown as StepFail).fail({ error: text });
    } else if (request.surface === 'command') {
      await ack?.({ response_type: 'ephemeral', text });
    } else if (
      (request.surface === 'shortcut' || request.surface === 'message shortcut' || view?.type === 'home') &&
      triggerId
    ) {
      // Nothing to answer in: a modal saying why (the Home tab is no modal to replace).
      await ack?.();
      await args.client.views.open({ trigger_id: triggerId, view: refusedView(text) });
    } else if (request.surface === 'submission') {
      await ack?.({ response_action: 'update', view: refusedView(text) });
    } else {
      await ack?.();
      if (view?.id) await args.client.views.update({ view_id: view.id, view: refusedView(text) });
      else if (channelId) await args.client.chat.postEphemeral({ channel: channelId, user: userId, text });
    }
  };
  return Object.assign(guard, {
    [REQUIRED]: typeof permission === 'function' ? 'per request' : permission,
  }) as Guard;
}

/**
 * A slash command's permission, from its first word (lower case) as the command reads it: help, and
 * what is no command, need nothing.
 */
export function byCommand(permission: (verb: string) => Permission) {
  return (body: SlackRequest): Permission => {
    const verb = 'command' in body ? firstWord(body.text) : HELP;
    return verb === HELP ? 'nothing' : permission(verb);
  };
}
