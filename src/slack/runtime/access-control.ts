/** Who may quote, book, update, look up, use the address book, book from a file, reconcile COD: the settings' lists, user groups read through Slack. */
import type { Logger } from 'pino';
import type { AccessPolicy } from '../../config.js';
import type { SlackClient } from '../kit/delivery.js';

/**
 * Who may quote, book and update. Checked on every entry point (command, shortcut, submission,
 * button, step), not only the slash command: every listener states what it needs where it is
 * registered (`requires`); with no list configured, everyone in the workspace may. User-group membership is read through the Web API and cached briefly.
 */

export type GuardedOperation = 'quote' | 'book' | 'update' | 'show' | 'addresses' | 'bulk' | 'remittance';

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
    const { userIds, userGroupIds, channelIds, bulkUserIds, financeUserIds, financeUserGroupIds } =
      this.policy;
    return (
      userIds.length === 0 &&
      userGroupIds.length === 0 &&
      channelIds.length === 0 &&
      bulkUserIds === undefined &&
      financeUserIds === undefined &&
      financeUserGroupIds === undefined
    );
  }

  /** The channels whose bookings may be seen (ALLOWED_CHANNEL_IDS); undefined when every channel's may. */
  get bookingChannels(): readonly string[] | undefined {
    return this.policy.channelIds.length > 0 ? this.policy.channelIds : undefined;
  }

  /**
   * COD remittances (money figures): whoever may use the bot, narrowed to ALLOWED_FINANCE_USER_IDS
   * and ALLOWED_FINANCE_USERGROUP_IDS when either is set; with neither, whoever may book from a file.
   */
  async allowsFinance(
    client: SlackClient,
    userId: string,
    channelId: string | undefined,
    options: { channelChosenLater?: boolean } = {},
  ): Promise<Verdict> {
    const { financeUserIds, financeUserGroupIds } = this.policy;
    if (financeUserIds === undefined && financeUserGroupIds === undefined) {
      return this.allowsBulk(client, userId, channelId, options);
    }
    const verdict = await this.allows(client, userId, channelId, options);
    if (!verdict.ok) return verdict;
    if (financeUserIds?.includes(userId)) return verdict;
    for (const group of financeUserGroupIds ?? []) {
      if ((await this.members(client, group)).has(userId)) return verdict;
    }
    return { ok: false, reason: 'user' };
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
