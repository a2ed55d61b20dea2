/** Posting a result where the dispatcher will see it, with fallbacks where the bot cannot post. */
import type { App } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { Logger } from 'pino';
import { slackErrorCode } from './slack-errors.js';

/**
 * Posting a result so it is never lost: in the channel where the command was typed (public
 * channels work without the bot joining, through chat:write.public); where the bot cannot post
 * (a private channel or DM it is not in), through the command's response_url, then as an
 * ephemeral message, then as a DM from the bot.
 */

export type SlackClient = App['client'];

export interface Destination {
  channelId: string;
  userId: string;
  /** The slash command's response_url: it reaches the conversation even where the bot is not a member. */
  responseUrl?: string;
}

export interface Message {
  text: string;
  blocks: KnownBlock[];
}

export type Delivered =
  | { via: 'channel'; channelId: string; ts: string }
  | { via: 'response_url'; channelId: string }
  | { via: 'ephemeral'; channelId: string }
  | { via: 'dm'; channelId: string; ts: string };

/** Errors that mean "not here", as opposed to Slack being down. */
const cannotPostHere = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'ekm_access_denied',
  'team_access_not_granted',
  'user_not_in_channel',
]);

async function viaResponseUrl(responseUrl: string, message: Message): Promise<boolean> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ response_type: 'in_channel', replace_original: false, ...message }),
    signal: AbortSignal.timeout(5000),
  });
  return response.ok;
}

export async function postToChannel(
  client: SlackClient,
  destination: Destination,
  message: Message,
  logger: Logger,
): Promise<Delivered> {
  try {
    const posted = await client.chat.postMessage({ channel: destination.channelId, ...message });
    return { via: 'channel', channelId: posted.channel ?? destination.channelId, ts: posted.ts ?? '' };
  } catch (err) {
    const code = slackErrorCode(err);
    if (!code || !cannotPostHere.has(code)) throw err;
    logger.info({ channel: destination.channelId, error: code }, 'cannot post in channel, falling back');
  }
  if (destination.responseUrl) {
    const ok = await viaResponseUrl(destination.responseUrl, message).catch(() => false);
    if (ok) return { via: 'response_url', channelId: destination.channelId };
  }
  return postToUser(client, destination, message);
}

/** To the user alone: ephemeral in the channel if possible, else a DM from the bot. */
export async function postToUser(
  client: SlackClient,
  destination: Pick<Destination, 'channelId' | 'userId'>,
  message: Message,
): Promise<Delivered> {
  try {
    await client.chat.postEphemeral({ channel: destination.channelId, user: destination.userId, ...message });
    return { via: 'ephemeral', channelId: destination.channelId };
  } catch (err) {
    const code = slackErrorCode(err);
    if (!code || !cannotPostHere.has(code)) throw err;
  }
  const dm = await client.conversations.open({ users: destination.userId });
  const channelId = dm.channel?.id ?? destination.userId;
  const posted = await client.chat.postMessage({ channel: channelId, ...message });
  return { via: 'dm', channelId, ts: posted.ts ?? '' };
}

/** Where it went, in words for the dispatcher (mrkdwn; ids only, nothing typed). */
export function deliveredNote(delivered: Delivered): string {
  switch (delivered.via) {
    case 'channel':
      return `Posted in <#${delivered.channelId}>.`;
    case 'response_url':
      return 'Posted in the conversation where you typed the command.';
    case 'ephemeral':
      return `Shown only to you in <#${delivered.channelId}>: the bot cannot post there. Invite it with \`/invite\` to share results with the channel.`;
    case 'dm':
      return 'Sent to you in a direct message: the bot cannot post in that conversation.';
  }
}
