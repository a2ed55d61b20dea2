/** What the guards read of any request, as Bolt types it: who sent it, from which conversation and surface, its modal. */
import type { AnyMiddlewareArgs, ViewOutput } from '@slack/bolt';

/** Any request Bolt hands a middleware or listener. */
export type SlackRequest = AnyMiddlewareArgs['body'];

export interface RequestParts {
  surface:
    | 'command'
    | 'shortcut'
    | 'message shortcut'
    | 'submission'
    | 'closed'
    | 'button'
    | 'suggestion'
    | 'event'
    | 'step'
    | 'other';
  /** Empty when the request names nobody (an event); for a workflow step, the person it acts for. */
  userId: string;
  /** The person's Slack team, where the request says it (undefined: ask Slack). */
  teamId?: string;
  channelId?: string;
  triggerId?: string;
  /** The modal or Home tab the request comes from. */
  view?: ViewOutput;
  /** An Events API delivery's id. */
  eventId?: string;
  /** A workflow step's person or channel input that is not one Slack ID: the step ends naming it. */
  problem?: string;
}

/**
 * The parts of a request. Read with care for every nested field: a request no listener matched
 * (unmatched.ts) may be of a kind, or a shape, the bot never asked for.
 */
export function partsOf(body: SlackRequest): RequestParts {
  if ('command' in body) {
    return {
      surface: 'command',
      userId: body.user_id,
      teamId: body.team_id,
      channelId: body.channel_id,
      triggerId: body.trigger_id,
    };
  }
  const userId = 'user' in body ? (body.user?.id ?? '') : '';
  const team = 'user' in body ? (body.user as { team_id?: unknown } | undefined)?.team_id : undefined;
  const teamId = typeof team === 'string' && team ? team : undefined;
  const parts = <T extends Omit<RequestParts, 'userId' | 'teamId'>>(rest: T) => ({
    ...rest,
    userId,
    ...(teamId ? { teamId } : {}),
  });
  switch (body.type) {
    case 'shortcut':
      return parts({ surface: 'shortcut', triggerId: body.trigger_id });
    case 'message_action':
      return parts({ surface: 'message shortcut', channelId: body.channel?.id, triggerId: body.trigger_id });
    case 'view_submission':
      return parts({ surface: 'submission', triggerId: body.trigger_id, view: body.view });
    case 'view_closed':
      return parts({ surface: 'closed', view: body.view });
    case 'block_actions':
      return parts({
        surface: 'button',
        channelId: body.channel?.id,
        triggerId: body.trigger_id,
        view: body.view,
      });
    case 'block_suggestion':
      return parts({ surface: 'suggestion', channelId: body.channel?.id, view: body.view });
    case 'event_callback':
      return body.event?.type === 'function_executed'
        ? stepParts(body.event.inputs, body.event_id)
        : parts({ surface: 'event', eventId: body.event_id });
    default:
      return parts({
        surface: 'other',
        channelId: 'channel' in body ? body.channel?.id : undefined,
        triggerId: 'trigger_id' in body ? body.trigger_id : undefined,
      });
  }
}

/** A person's Slack ID and a conversation's, as the commands check them. */
const PERSON_ID = /^[UW][A-Z0-9]{2,}$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;

/** Who a workflow step acts for, and the channel it names; or what is wrong with them, by the input's name. */
export type StepActor = { ok: true; userId: string; channelId?: string } | { ok: false; problem: string };

/**
 * A workflow step (`function_executed`) comes from no person. It acts for the person who ran the
 * workflow where Slack says so: its `interactivity` input, which Slack fills and no author can type.
 * Without one (a scheduled or event-started workflow), for the person its `requested_by` or
 * `recorded_by` input names, which the workflow's author chooses (the docs say so). Either must be
 * one person's ID, and `channel_id`, where given, one channel's: anything else ends the step.
 */
export function stepActor(inputs: unknown): StepActor {
  const given = typeof inputs === 'object' && inputs !== null ? (inputs as Record<string, unknown>) : {};
  const interactor = (given.interactivity as { interactor?: { id?: unknown } } | null | undefined)?.interactor
    ?.id;
  const named = given.requested_by !== undefined ? 'requested_by' : 'recorded_by';
  const userId = interactor ?? given[named];
  if (typeof userId !== 'string' || !PERSON_ID.test(userId))
    return {
      ok: false,
      problem: `${interactor === undefined ? named : 'interactivity'}: one person's ID (U… or W…), as the workflow's person input gives it`,
    };
  const channel = given.channel_id;
  if (channel === undefined || channel === null || channel === '') return { ok: true, userId };
  if (typeof channel !== 'string' || !CHANNEL_ID.test(channel))
    return {
      ok: false,
      problem: "channel_id: one channel's ID (C… or G…), as the workflow's channel input gives it",
    };
  return { ok: true, userId, channelId: channel };
}

function stepParts(inputs: unknown, eventId: string): RequestParts {
  const actor = stepActor(inputs);
  return actor.ok
    ? {
        surface: 'step',
        userId: actor.userId,
        ...(actor.channelId ? { channelId: actor.channelId } : {}),
        eventId,
      }
    : { surface: 'step', userId: '', eventId, problem: actor.problem };
}
