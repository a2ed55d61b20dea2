/** Who the bot is, asked of Slack before start-up so a wrong token stops it with one clear line. */

import type { Logger } from 'pino';
import { ConfigError } from '../../settings-error.js';
import { StartupError, unreachableReason } from '../../startup.js';
import type { SlackConfig } from '../settings.js';
import { webApi } from './bolt.js';
import { boltLogger } from './bolt-logger.js';
import { slackErrorCode } from './slack-errors.js';

/** Each try's bound: without one, a Slack that takes the connection and never answers holds the start for ever. */
const TRY_TIMEOUT_MS = 3000;

/**
 * Asks Slack who the bot is (auth.test) before Bolt starts, so a wrong token stops the bot with
 * one clear line instead of Bolt's unawaited check failing later; and which team installed it, whose
 * people the access rule serves.
 */
export async function identifyBot(
  slack: SlackConfig,
  logger: Logger,
): Promise<{ botId: string; botUserId: string; teamId: string }> {
  const client = new webApi.WebClient(slack.botToken, {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    logger: boltLogger(logger),
    retryConfig: { retries: 2, maxTimeout: 2000 },
    timeout: TRY_TIMEOUT_MS,
  });
  try {
    const auth = await client.auth.test();
    return { botId: auth.bot_id ?? '', botUserId: auth.user_id ?? '', teamId: auth.team_id ?? '' };
  } catch (err) {
    const code = slackErrorCode(err);
    if (code)
      throw new ConfigError(
        `SLACK_BOT_TOKEN was refused by Slack (${code}): copy the Bot User OAuth Token again (OAuth & Permissions)`,
      );
    throw new StartupError(
      `Slack (${slack.apiUrl ?? 'https://slack.com/api/'}) could not be reached to check SLACK_BOT_TOKEN: ${unreachableReason(err, TRY_TIMEOUT_MS)}`,
    );
  }
}
