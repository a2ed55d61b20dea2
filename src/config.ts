/**
 * The bot's settings from the environment (and .env), checked once at start-up, one line per bad setting.
 * Each module declares its own settings beside what they configure (an `…Env`, src/settings/env.ts);
 * this file only composes them. Bad settings stop the program with one line each, naming the variable
 * and what it expects; secret values are never echoed.
 */
import { existsSync } from 'node:fs';
import { accessEnv } from './operations/access.js';
import { attentionEnv } from './operations/attention.js';
import { trackingNumbersEnv } from './operations/book.js';
import { receiverRiskEnv } from './operations/receiver-record.js';
import { remindersEnv } from './operations/reminders.js';
import { remittanceEnv } from './operations/remittance.js';
import { smsEnv } from './operations/sms.js';
import { type Env, type EnvSettings, Problems } from './settings/env.js';
import { bookEnv } from './slack/book/settings.js';
import { bulkEnv } from './slack/bulk/settings.js';
import { digestEnv } from './slack/digest/settings.js';
import { labelsEnv } from './slack/labels/settings.js';
import { recogniseEnv } from './slack/recognise/settings.js';
import { reportEnv } from './slack/report/settings.js';
import { slackEnv } from './slack/settings.js';
import { databaseEnv } from './store/settings.js';
import { senderProfilesEnv } from './waybill/profiles.js';
import { waybillEnv } from './waybill/settings.js';

/** Reads `.env` into process.env without overriding variables already set. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/** The bot's settings beside the courier's and Slack's, a module's each, in the order their problems are told. */
const botModules = [
  databaseEnv,
  trackingNumbersEnv,
  bookEnv,
  recogniseEnv,
  accessEnv,
  senderProfilesEnv,
  bulkEnv,
  labelsEnv,
  remittanceEnv,
  attentionEnv,
  receiverRiskEnv,
  remindersEnv,
  digestEnv,
  reportEnv,
  smsEnv,
] as const;

/** Every module's settings: the courier's, Slack's, then the bot's. */
export const settingsModules: readonly EnvSettings<unknown>[] = [waybillEnv, slackEnv, ...botModules];

type ValueOf<S> = S extends EnvSettings<infer T> ? T : never;
/** The modules' values, each an object of its own fields, merged into one. */
type Merged<M extends readonly EnvSettings<object>[]> = (
  ValueOf<M[number]> extends infer U
    ? U extends unknown
      ? (all: U) => void
      : never
    : never
) extends (all: infer I) => void
  ? I
  : never;

/** What start-up hands on of the bot's settings (src/slack/core.ts's `bot` among them). */
export type BotConfig = Merged<typeof botModules>;

function readBot(env: Env, problems: Problems): BotConfig {
  return Object.assign({}, ...botModules.map((module) => module.read(env, problems)));
}

/** `read`'s value, or every problem it found, a line each. */
function checked<T>(read: (env: Env, problems: Problems) => T, env: Env): T {
  const problems = new Problems();
  const value = read(env, problems);
  if (problems.any()) throw problems.error();
  return value;
}

export const loadWaybillConfig = (env: Env = process.env) => checked(waybillEnv.read, env);
export const loadSlackConfig = (env: Env = process.env) => checked(slackEnv.read, env);
export const loadBotConfig = (env: Env = process.env) => checked(readBot, env);

/** Every setting, every bad one among them reported at once (a line each). */
export function loadConfig(env: Env = process.env) {
  return checked(
    (env, problems) => ({
      waybill: waybillEnv.read(env, problems),
      slack: slackEnv.read(env, problems),
      bot: readBot(env, problems),
    }),
    env,
  );
}

/** The values that must never reach a log line or a message. */
export function secretsOf(env: Env = process.env): string[] {
  const values = settingsModules.flatMap((module) => module.secrets?.(env) ?? []);
  return [...new Set(values)].filter((value) => value.length >= 4);
}
