/** Who may quote, book and update: one middleware in front of every listener. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import type { AccessPolicy } from '../../config.js';
import type { BotDeps } from '../deps.js';
import { context, plain, section } from './blocks.js';
import { readCommand } from './command-request.js';
import type { SlackClient } from './delivery.js';
import { chosenConversation } from './global-shortcut.js';
import { ids, readViewMetadata } from './ids.js';

/**
 * Who may quote, book and update. Checked on every entry point (command, shortcut, submission,
 * button, step), not only the slash command, in one global middleware; with no list configured, everyone
 * in the workspace may. User-group membership is read through the Web API and cached briefly.
 */

export type GuardedOperation = 'quote' | 'book' | 'update' | 'show' | 'addresses' | 'bulk';

export type Verdict = { ok: true } | { ok: false; reason: 'user' | 'channel' };

const GROUP_CACHE_MS = 5 * 60_000;

export class AccessControl {
  private readonly groups = new Map<string, { members: Set<string>; until: number }>();

  constructor(
    private readonly policy: AccessPolicy,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): boolean {
    const { userIds, userGroupIds, channelIds, bulkUserIds } = this.policy;
    return (
      userIds.length === 0 &&
      userGroupIds.length === 0 &&
      channelIds.length === 0 &&
      bulkUserIds === undefined
    );
  }

  /** Booking from a file: whoever may book, narrowed to ALLOWED_BULK_USER_IDS when that is set. */
  async allowsBulk(
    client: SlackClient,
    userId: string,
    channelId: string | undefined,
    options: { channelChosenLater?: boolean } = {},
  ): Promise<Verdict> {
    const verdict = await this.allows(client, userId, channelId, options);
    if (!verdict.ok) return verdict;
    const { bulkUserIds } = this.policy;
    return bulkUserIds === undefined || bulkUserIds.includes(userId)
      ? verdict
      : { ok: false, reason: 'user' };
  }

  /**
   * `channelChosenLater`: a global shortcut has no conversation yet; the one the dispatcher then
   * chooses for the result is checked when the choice is submitted.
   */
  async allows(
    client: SlackClient,
    userId: string,
    channelId: string | undefined,
    { channelChosenLater = false } = {},
  ): Promise<Verdict> {
    const { userIds, userGroupIds, channelIds } = this.policy;
    if (channelIds.length > 0 && !channelChosenLater && !(channelId && channelIds.includes(channelId)))
      return { ok: false, reason: 'channel' };
    if (userIds.length === 0 && userGroupIds.length === 0) return { ok: true };
    if (userIds.includes(userId)) return { ok: true };
    for (const group of userGroupIds) {
      if ((await this.members(client, group)).has(userId)) return { ok: true };
    }
    return { ok: false, reason: 'user' };
  }

  /** A group's members, cached; if Slack cannot say, nobody is let in through that group. */
  private async members(client: SlackClient, group: string): Promise<Set<string>> {
    const cached = this.groups.get(group);
    if (cached && cached.until > this.now()) return cached.members;
    try {
      const answer = await client.usergroups.users.list({ usergroup: group });
      const members = new Set(answer.users ?? []);
      this.groups.set(group, { members, until: this.now() + GROUP_CACHE_MS });
      return members;
    } catch (err) {
      this.logger.warn(
        { err, usergroup: group },
        'user-group members could not be read; refusing through it',
      );
      return new Set();
    }
  }
}

type Body = Record<string, unknown> & {
  type?: string;
  /** A shortcut's. */
  callback_id?: string;
  trigger_id?: string;
  command?: string;
  text?: string;
  user_id?: string;
  channel_id?: string;
  user?: { id?: string };
  channel?: { id?: string };
  view?: {
    id?: string;
    type?: string;
    callback_id?: string;
    private_metadata?: string;
    state?: { values?: unknown };
  };
  actions?: { action_id?: string }[];
  /** A type-ahead menu's, asking for options (block_suggestion). */
  action_id?: string;
};

/** What a request is for, from its command, callback id or action id; undefined: not guarded. */
export function operationOf(body: Body): GuardedOperation | undefined {
  if (body.command) {
    const request = readCommand(body.command, body.text ?? '');
    if (!request || request.kind === 'help') return undefined;
    if (request.kind === 'export') return 'show';
    return request.kind === 'rebook' ? 'book' : request.kind;
  }
  const id =
    body.type === 'view_submission'
      ? body.view?.callback_id
      : body.type === 'block_actions'
        ? body.actions?.[0]?.action_id
        : body.type === 'shortcut' || body.type === 'message_action'
          ? body.callback_id
          : body.type === 'block_suggestion'
            ? body.action_id
            : undefined;
  if (!id) return undefined;
  if (id.startsWith('quote_')) return 'quote';
  if (id.startsWith('bulk_')) return 'bulk';
  if (id.startsWith('export_')) return 'show';
  if (id.startsWith('book')) return 'book';
  if (id.startsWith('update_') || id === ids.waybillUpdate) return 'update';
  if (id.startsWith('addresses_')) return 'addresses';
  return undefined;
}

/**
 * The conversation a request belongs to: the command's, the message's, the modal's draft's, or,
 * before there is a draft, the one chosen in a global shortcut's first view.
 */
async function channelOf(deps: BotDeps, body: Body): Promise<string | undefined> {
  if (body.channel_id) return body.channel_id;
  if (body.channel?.id) return body.channel.id;
  const draftId = readViewMetadata(body.view?.private_metadata)?.draftId;
  if (draftId) return (await deps.store.drafts.get(draftId))?.channelId;
  return chosenConversation(body.view?.state?.values);
}

/** What a refused operation is, in the refusal's words: "may …", "… are not enabled". */
const doing: Record<GuardedOperation, [may: string, enabled: string]> = {
  quote: ['quote waybills', 'quoting'],
  book: ['book waybills', 'booking'],
  update: ['update waybills', 'waybill changes'],
  show: ['look up waybills', 'waybill changes'],
  addresses: ['use the address book', 'the address book'],
  bulk: ['book waybills from a CSV file', 'booking'],
};

const refusals = {
  user: (operation: GuardedOperation) =>
    `Sorry, you are not on the list of people who may ${doing[operation][0]} with this bot. Ask whoever runs it to add you.`,
  channel: (operation: GuardedOperation) =>
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

export function accessGuard(deps: BotDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as Body;
    const operation = operationOf(body);
    if (!operation || deps.access.open) return args.next();
    const userId = body.user_id ?? body.user?.id ?? '';
    const channelId = await channelOf(deps, body);
    // A shortcut and the Home tab come from no conversation: the one chosen next is checked then.
    const channelChosenLater = body.type === 'shortcut' || body.view?.type === 'home';
    const verdict =
      operation === 'bulk'
        ? await deps.access.allowsBulk(args.client, userId, channelId, { channelChosenLater })
        : await deps.access.allows(args.client, userId, channelId, { channelChosenLater });
    if (verdict.ok) return args.next();
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    if (body.type === 'block_suggestion') {
      // A menu asking for options, at every key typed: none. The refusal is said, and recorded,
      // when something is chosen or submitted.
      await ack?.({ options: [] });
      return;
    }
    const text = refusals[verdict.reason](operation);
    await deps.store.audit.record({
      userId,
      operation,
      outcome: 'refused',
      detail: `not allowed (${verdict.reason}) in ${channelId ?? 'an unknown conversation'}`,
    });
    deps.logger.warn(
      { user: userId, channel: channelId, operation, reason: verdict.reason },
      'request refused by access control',
    );
    if (body.command) {
      await ack?.({ response_type: 'ephemeral', text });
    } else if (
      (body.type === 'shortcut' || body.type === 'message_action' || body.view?.type === 'home') &&
      body.trigger_id
    ) {
      // Nothing to answer in: a modal saying why (the Home tab is no modal to replace).
      await ack?.();
      await args.client.views.open({ trigger_id: body.trigger_id, view: refusedView(text) });
    } else if (body.type === 'view_submission') {
      await ack?.({ response_action: 'update', view: refusedView(text) });
    } else {
      await ack?.();
      if (body.view?.id) await args.client.views.update({ view_id: body.view.id, view: refusedView(text) });
      else if (channelId) await args.client.chat.postEphemeral({ channel: channelId, user: userId, text });
    }
  };
}
