/**
 * Who may do what, and who sees a booking, where, and how much of it: the one rule every surface asks.
 *
 * The rules, in order:
 * 1. A person of another organisation (their Slack team is neither the installing team nor one that
 *    ALLOWED_TEAM_IDS names: Slack Connect) may do nothing and sees no booking, by any surface.
 * 2. A person may do an operation only if the lists allow them (ALLOWED_USER_IDS, ALLOWED_USERGROUP_IDS,
 *    and the bulk and finance lists for those operations); in a conversation only if ALLOWED_CHANNEL_IDS
 *    lists it (when set).
 * 3. A booking belongs to the conversation it was booked in. A person sees it only if they may look up
 *    waybills there (rules 1 and 2, in that conversation).
 * 4. How much of it: a booking's receiver, phone, address and COD are shown in public only in its own
 *    conversation (a message, a thread reply, an unfurl there); privately (an ephemeral message, the
 *    bot's DM, a modal, the Home tab, a file sent to the person) to whoever sees it. Anywhere else in
 *    public (another channel, an unfurl there, a workflow's outputs, which go wherever its author
 *    sends them) at most its number and status. The audit channel (AUDIT_CHANNEL_ID), where the
 *    operator chose to have every card posted, counts as every booking's own conversation.
 * 5. Posts the bot makes on its own (the digest, escalations) are public in their channel: rule 4 with
 *    the team as the viewer.
 *
 * No Slack here: who a person is, and a user group's members, come in through `Person`.
 */
import * as z from 'zod';
import { channelId, envSettings, idList, optionalSetting } from '../settings/env.js';

/** What a person asks to do. `show`: look up waybills, which is also what seeing a booking needs. */
export type Operation = 'quote' | 'book' | 'update' | 'show' | 'addresses' | 'bulk' | 'remittance';

/** The operator's lists (ALLOWED_*). */
export interface AccessPolicy {
  userIds: string[];
  userGroupIds: string[];
  channelIds: string[];
  /** Who may book from a file (and must also be allowed to book); undefined: whoever may book. */
  bulkUserIds?: string[];
  /** Who may reconcile COD remittances (money figures); both undefined: whoever may book from a file. */
  financeUserIds?: string[];
  financeUserGroupIds?: string[];
  /** Other organisations (Slack teams) whose people are treated as ours (ALLOWED_TEAM_IDS). */
  teamIds: string[];
}

/** Why a person may not: another organisation, not on the lists, or not in this conversation. */
export type Refusal = 'organisation' | 'user' | 'channel';

export type Verdict = { ok: true } | { ok: false; reason: Refusal };

/** A user group's members, as Slack says; throws when Slack cannot say. */
export type GroupMembers = (groupId: string) => Promise<readonly string[]>;

/** Who asks: a person (for a workflow step, the person it acts for). */
export interface Person {
  userId: string;
  /** Their Slack team; undefined when it could not be learned (then they are treated as another organisation's). */
  teamId: string | undefined;
  groups: GroupMembers;
}

/** Where something will be shown. */
export type Place =
  /** Only the viewer sees it: an ephemeral message, the bot's DM, a modal, the Home tab, a file sent to them. */
  | { kind: 'private' }
  /** Everyone in a conversation sees it: a message, a thread reply, an unfurl, a file shared there. */
  | { kind: 'conversation'; channelId: string }
  /** A workflow step's outputs: wherever the workflow's author sends them. */
  | { kind: 'step outputs' };

/** How much of a booking may be shown. */
export type Sight = 'whole' | 'number and status' | 'nothing';

/** Which bookings a person sees: those of every conversation, of the listed ones, or none. */
export type Scope = { channelIds: readonly string[] | 'every' } | { channelIds: 'none'; reason: Refusal };

/** What the rule needs of a booking: the conversation it belongs to. */
export type Owned = { channelId: string };

const GROUP_CACHE_MS = 5 * 60_000;

export class Access {
  private readonly groupCache = new Map<string, { members: Set<string>; until: number }>();
  private home: string | undefined;

  constructor(
    private readonly policy: AccessPolicy,
    readonly warn: (detail: object, message: string) => void,
    private readonly options: { auditChannelId?: string | undefined; now?: () => number } = {},
  ) {}

  /** Rules 3 and 4 for this bot (its audit channel): how much of `booking` to show at `place`. */
  sight(scope: Scope, place: Place, booking: Owned): Sight {
    return sight(scope, place, booking, this.options.auditChannelId);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The installing team (auth.test's team_id), learned once at start-up. */
  set homeTeam(teamId: string | undefined) {
    this.home = teamId;
  }

  get homeTeam(): string | undefined {
    return this.home;
  }

  /** Whether a request's conversation matters (ALLOWED_CHANNEL_IDS is set). */
  get listsChannels(): boolean {
    return this.policy.channelIds.length > 0;
  }

  /** Rule 1: the person's organisation is ours, or one the operator named. */
  ofOurs(teamId: string | undefined): boolean {
    return teamId !== undefined && (teamId === this.home || this.policy.teamIds.includes(teamId));
  }

  /**
   * Rules 1 and 2: whether `person` may do `operation` in `channelId`. `channelChosenLater`: a global
   * shortcut, the Home tab or a step without a channel has no conversation yet; the one chosen is
   * checked when it is.
   */
  async allows(
    person: Person,
    operation: Operation,
    channelId: string | undefined,
    { channelChosenLater = false } = {},
  ): Promise<Verdict> {
    if (!this.ofOurs(person.teamId)) return { ok: false, reason: 'organisation' };
    const { channelIds } = this.policy;
    if (channelIds.length > 0 && !channelChosenLater && !(channelId && channelIds.includes(channelId)))
      return { ok: false, reason: 'channel' };
    if (!(await this.listed(person))) return { ok: false, reason: 'user' };
    if (operation === 'bulk' || operation === 'remittance') {
      const { bulkUserIds, financeUserIds, financeUserGroupIds } = this.policy;
      if (operation === 'remittance' && (financeUserIds || financeUserGroupIds)) {
        if (financeUserIds?.includes(person.userId)) return { ok: true };
        return (await this.inAnyGroup(person, financeUserGroupIds ?? []))
          ? { ok: true }
          : { ok: false, reason: 'user' };
      }
      if (bulkUserIds !== undefined && !bulkUserIds.includes(person.userId))
        return { ok: false, reason: 'user' };
    }
    return { ok: true };
  }

  /** Rule 3: the conversations whose bookings `person` sees (a query's condition). */
  async scope(person: Person): Promise<Scope> {
    const verdict = await this.allows(person, 'show', undefined, { channelChosenLater: true });
    if (!verdict.ok) return { channelIds: 'none', reason: verdict.reason };
    return teamScope(this.policy);
  }

  /** The team's own view (rule 5). */
  get teamScope(): Scope {
    return teamScope(this.policy);
  }

  /** On the user lists (or in a listed group); everyone when none is set. */
  private async listed(person: Person): Promise<boolean> {
    const { userIds, userGroupIds } = this.policy;
    if (userIds.length === 0 && userGroupIds.length === 0) return true;
    return userIds.includes(person.userId) || this.inAnyGroup(person, userGroupIds);
  }

  private async inAnyGroup(person: Person, groups: readonly string[]): Promise<boolean> {
    for (const group of groups) {
      if ((await this.members(person.groups, group)).has(person.userId)) return true;
    }
    return false;
  }

  /** A group's members, cached; if Slack cannot say, nobody is let in through that group. */
  private async members(read: GroupMembers, group: string): Promise<Set<string>> {
    const cached = this.groupCache.get(group);
    if (cached && cached.until > this.now()) return cached.members;
    try {
      const members = new Set(await read(group));
      this.groupCache.set(group, { members, until: this.now() + GROUP_CACHE_MS });
      return members;
    } catch (err) {
      this.warn({ err, usergroup: group }, 'user-group members could not be read; refusing through it');
      return new Set();
    }
  }
}

/**
 * The team's own view (rule 5), and so any booker's: whoever may book passed rules 1 and 2, so sees
 * every booking of the conversations ALLOWED_CHANNEL_IDS lists (all, when unset).
 */
export function teamScope(policy: Pick<AccessPolicy, 'channelIds'>): Scope {
  return { channelIds: policy.channelIds.length > 0 ? policy.channelIds : 'every' };
}

/** Rule 3 on one booking: whether a person with this scope sees it at all. */
export function sees(scope: Scope, booking: Owned): boolean {
  const { channelIds } = scope;
  return channelIds === 'every' || (channelIds !== 'none' && channelIds.includes(booking.channelId));
}

/**
 * Rules 3 and 4: how much of `booking` a viewer with `scope` may be shown at `place`; `auditChannelId`
 * is every booking's own conversation too.
 */
export function sight(scope: Scope, place: Place, booking: Owned, auditChannelId?: string): Sight {
  if (!sees(scope, booking)) return 'nothing';
  if (place.kind === 'private') return 'whole';
  if (
    place.kind === 'conversation' &&
    (place.channelId === booking.channelId || place.channelId === auditChannelId)
  )
    return 'whole';
  return 'number and status';
}

/** The scope as a query's condition: undefined for every conversation. */
export function scopeChannels(scope: Scope): readonly string[] | undefined {
  const { channelIds } = scope;
  return channelIds === 'every' ? undefined : channelIds === 'none' ? [] : channelIds;
}

const userIds = () => idList(/^[UW][A-Z0-9]{2,}$/, 'user IDs such as U0123ABCD');
const userGroupIds = () => idList(/^S[A-Z0-9]{2,}$/, 'user-group IDs such as S0123ABCD');

/** The lists (ALLOWED_*), and the audit channel, which sees every booking (AUDIT_CHANNEL_ID). */
export const accessEnv = envSettings(
  z.object({
    AUDIT_CHANNEL_ID: optionalSetting(channelId()),
    ALLOWED_USER_IDS: optionalSetting(userIds()),
    ALLOWED_USERGROUP_IDS: optionalSetting(userGroupIds()),
    ALLOWED_CHANNEL_IDS: optionalSetting(idList(/^[CGD][A-Z0-9]{2,}$/, 'channel IDs such as C0123ABCD')),
    ALLOWED_TEAM_IDS: optionalSetting(idList(/^[TE][A-Z0-9]{2,}$/, 'team IDs such as T0123ABCD')),
    ALLOWED_BULK_USER_IDS: optionalSetting(userIds()),
    ALLOWED_FINANCE_USER_IDS: optionalSetting(userIds()),
    ALLOWED_FINANCE_USERGROUP_IDS: optionalSetting(userGroupIds()),
  }),
  (settings): { access: AccessPolicy; auditChannelId?: string } => ({
    auditChannelId: settings.AUDIT_CHANNEL_ID,
    access: {
      userIds: settings.ALLOWED_USER_IDS ?? [],
      userGroupIds: settings.ALLOWED_USERGROUP_IDS ?? [],
      channelIds: settings.ALLOWED_CHANNEL_IDS ?? [],
      bulkUserIds: settings.ALLOWED_BULK_USER_IDS,
      financeUserIds: settings.ALLOWED_FINANCE_USER_IDS,
      financeUserGroupIds: settings.ALLOWED_FINANCE_USERGROUP_IDS,
      teamIds: settings.ALLOWED_TEAM_IDS ?? [],
    },
  }),
);
