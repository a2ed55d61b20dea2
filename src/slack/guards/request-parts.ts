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
  /** Empty when the request names nobody (an event); for a workflow step, the user its inputs name. */
  userId: string;
  channelId?: string;
  triggerId?: string;
  /** The modal or Home tab the request comes from. */
  view?: ViewOutput;
  /** An Events API delivery's id. */
  eventId?: string;
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
      channelId: body.channel_id,
      triggerId: body.trigger_id,
    };
  }
  const userId = 'user' in body ? (body.user?.id ?? '') : '';
  switch (body.type) {
    case 'shortcut':
      return { surface: 'shortcut', userId, triggerId: body.trigger_id };
    case 'message_action':
      return { surface: 'message shortcut', userId, channelId: body.channel?.id, triggerId: body.trigger_id };
    case 'view_submission':
      return { surface: 'submission', userId, triggerId: body.trigger_id, view: body.view };
    case 'view_closed':
      return { surface: 'closed', userId, view: body.view };
    case 'block_actions':
      return {
        surface: 'button',
        userId,
        channelId: body.channel?.id,
        triggerId: body.trigger_id,
        view: body.view,
      };
    case 'block_suggestion':
      return { surface: 'suggestion', userId, channelId: body.channel?.id, view: body.view };
    case 'event_callback':
      return body.event?.type === 'function_executed'
        ? stepParts(body.event.inputs, body.event_id)
        : { surface: 'event', userId, eventId: body.event_id };
    default:
      return {
        surface: 'other',
        userId,
        channelId: 'channel' in body ? body.channel?.id : undefined,
        triggerId: 'trigger_id' in body ? body.trigger_id : undefined,
      };
  }
}

/**
 * A workflow step (`function_executed`) comes from no person: it acts for the user its inputs name
 * (`requested_by`, `recorded_by`), in the channel they name, if any.
 */
function stepParts(inputs: unknown, eventId: string): RequestParts {
  const given = typeof inputs === 'object' && inputs !== null ? (inputs as Record<string, unknown>) : {};
  const text = (key: string) => (typeof given[key] === 'string' ? given[key] : undefined);
  return {
    surface: 'step',
    userId: text('requested_by') ?? text('recorded_by') ?? '',
    channelId: text('channel_id') || undefined,
    eventId,
  };
}
