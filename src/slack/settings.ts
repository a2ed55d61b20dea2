/** Slack's settings: the tokens, HTTP or Socket Mode and its ports, the Web API's address, the log level. */
import * as z from 'zod';
import {
  type Env,
  type EnvSettings,
  optionalSetting,
  type Problems,
  parseEnv,
  secretsNamed,
  wholeNumber,
} from '../settings/env.js';

export interface SlackConfig {
  botToken: string;
  signingSecret: string;
  /** Set: Socket Mode. Unset: HTTP mode on `port`. */
  appToken?: string;
  port: number;
  /** Set: the probes and /metrics on a listener of their own (Socket Mode has no other). */
  healthPort?: number;
  apiUrl?: string;
  logLevel: string;
}

const slackEnvSchema = z.object({
  SLACK_BOT_TOKEN: optionalSetting(z.string().trim().startsWith('xoxb-', 'a bot token starting with xoxb-')),
  SLACK_SIGNING_SECRET: optionalSetting(
    z.string().trim().min(1, 'the signing secret from Basic Information'),
  ),
  SLACK_APP_TOKEN: optionalSetting(
    z.string().trim().startsWith('xapp-', 'an app-level token starting with xapp- (or unset for HTTP mode)'),
  ),
  PORT: optionalSetting(wholeNumber(0, 65_535, 'a port number')).default(3000),
  HEALTH_PORT: optionalSetting(wholeNumber(0, 65_535, 'a port number')),
  SLACK_API_URL: optionalSetting(
    z
      .string()
      .trim()
      .refine(
        (value) => URL.canParse(value) && value.endsWith('/'),
        'an http(s) URL ending with "/", e.g. https://slack.com/api/',
      ),
  ),
  LOG_LEVEL: optionalSetting(
    z.enum(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'a pino level such as info or debug',
    ),
  ).default('info'),
});

/** The values `.env.example` ships with: a copy never filled in is caught before Slack is asked. */
export const exampleValues = {
  SLACK_BOT_TOKEN: 'xoxb-your-bot-token',
  SLACK_SIGNING_SECRET: 'your-signing-secret',
  SLACK_APP_TOKEN: 'xapp-your-app-level-token',
} as const;

function listWords(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

function rejectExampleValues(env: Env, problems: Problems): void {
  const names = Object.keys(exampleValues) as (keyof typeof exampleValues)[];
  const unfilled = names.filter((name) => env[name]?.trim() === exampleValues[name]);
  if (unfilled.length === 0) return;
  const [holds, placeholder, them] =
    unfilled.length > 1 ? ['hold', 'placeholders', 'them'] : ['holds', 'placeholder', 'it'];
  const appTokenNote = unfilled.includes('SLACK_APP_TOKEN')
    ? '; remove SLACK_APP_TOKEN instead for HTTP mode'
    : '';
  problems.add(
    unfilled,
    `${listWords(unfilled)} still ${holds} the ${placeholder} of .env.example: you copied .env.example but did not fill ${them} in${appTokenNote} (see README: "Create the Slack app")`,
  );
}

export const slackEnv: EnvSettings<SlackConfig> = {
  schema: slackEnvSchema,
  secrets: secretsNamed('SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'),
  read(env, problems) {
    // Said first: a copy of .env.example never filled in is the likeliest mistake of all.
    rejectExampleValues(env, problems);
    const settings = parseEnv(slackEnvSchema, env, problems);
    const { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret } = settings;
    const missing = (
      [
        ['SLACK_BOT_TOKEN', botToken],
        ['SLACK_SIGNING_SECRET', signingSecret],
      ] as const
    )
      .filter(([name, value]) => !value && !problems.has(name))
      .map(([name]) => name);
    if (missing.length > 0) {
      problems.add(
        [...missing],
        `${missing.join(' and ')} must be set (see README: "Create the Slack app"); the bot cannot talk to Slack without them`,
      );
    }
    // HTTP mode listens on PORT, and the probes' own listener cannot share it (0: any free port, each).
    const { PORT: port, HEALTH_PORT: healthPort } = settings;
    if (!settings.SLACK_APP_TOKEN && port !== 0 && healthPort === port) {
      problems.add(
        ['HEALTH_PORT', 'PORT'],
        `HEALTH_PORT must differ from PORT (both ${port}): in HTTP mode Slack's requests arrive on PORT, and the probes and /metrics need a port of their own`,
      );
    }
    return {
      botToken: botToken ?? '',
      signingSecret: signingSecret ?? '',
      appToken: settings.SLACK_APP_TOKEN,
      port: settings.PORT,
      healthPort: settings.HEALTH_PORT,
      apiUrl: settings.SLACK_API_URL,
      logLevel: settings.LOG_LEVEL,
    };
  },
};
