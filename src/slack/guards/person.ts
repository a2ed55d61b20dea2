/** The person a request comes from, as the access rule reads them: their id, their Slack team, and their user groups, read through Slack. */
import type { Access, Person, Scope } from '../../operations/access.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';

/** How long a person's team, as users.info says it, is trusted: people rarely move between organisations. */
const TEAM_CACHE_MS = 10 * 60_000;
/** How long Slack's failure to say is kept: the person is refused meanwhile, and the log says why once. */
const FAILURE_CACHE_MS = 60_000;
const TEAM_CACHE_MAX = 5_000;

/** Teams learned through users.info, per Access (so per running bot, never shared between bots). */
const learned = new WeakMap<Access, Map<string, { teamId: string | undefined; until: number }>>();

/**
 * The installing team, asked of Slack (auth.test) once when start-up did not learn it: the org rule
 * compares every person's team with it.
 */
async function homeTeam(access: Access, client: SlackClient): Promise<void> {
  if (access.homeTeam !== undefined) return;
  access.homeTeam = (await client.auth.test()).team_id;
}

/** A person's team as Slack says in users.info, cached; undefined when Slack cannot say. */
async function teamOf(access: Access, client: SlackClient, userId: string): Promise<string | undefined> {
  let teams = learned.get(access);
  if (!teams) {
    teams = new Map();
    learned.set(access, teams);
  }
  const cached = teams.get(userId);
  if (cached && cached.until > Date.now()) return cached.teamId;
  const teamId = await client.users
    .info({ user: userId })
    .then((answer) => answer.user?.team_id)
    .catch((err: unknown) => {
      access.warn(
        { err, code: slackErrorCode(err), user: userId },
        "a person's organisation could not be read (users.info, which needs the users:read scope): refused as another organisation's",
      );
      return undefined;
    });
  if (teams.size >= TEAM_CACHE_MAX) teams.clear();
  teams.set(userId, { teamId, until: Date.now() + (teamId ? TEAM_CACHE_MS : FAILURE_CACHE_MS) });
  return teamId;
}

/**
 * `userId` as the rule reads them. `statedTeam`: the team the request itself gives for them (a
 * command's `team_id`, an interactive payload's `user.team_id`, a message's `user_team`); where it
 * gives none (a link shared, a workflow step), Slack is asked.
 */
export async function personOf(
  access: Access,
  client: SlackClient,
  userId: string,
  statedTeam?: string,
): Promise<Person> {
  await homeTeam(access, client);
  return {
    userId,
    teamId: statedTeam || (userId ? await teamOf(access, client, userId) : undefined),
    groups: async (usergroup) => (await client.usergroups.users.list({ usergroup })).users ?? [],
  };
}

/** The conversations whose bookings `userId` sees (the rule's scope), for a query or a list. */
export async function scopeOf(
  access: Access,
  client: SlackClient,
  userId: string,
  statedTeam?: string,
): Promise<Scope> {
  return access.scope(await personOf(access, client, userId, statedTeam));
}
