/** The bot's settings from the environment (and .env), checked once at start-up, one line per bad setting. */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { AccessPolicy } from './operations/access.js';
import type { AttentionSettings } from './operations/attention.js';
import type { ReceiverRiskSettings, RiskThreshold } from './operations/receiver-record.js';
import type { ReminderSettings } from './operations/reminders.js';
import type { SmsSettings } from './operations/sms.js';
import { ConfigError } from './settings-error.js';
import { SEMAPHORE_URL } from './sms/gateway.js';
import { DEFAULT_QUIET_HOURS } from './sms/quiet-hours.js';
import {
  SMS_EVENTS,
  SMS_LANGUAGES,
  type SmsEvent,
  type SmsLanguage,
  SmsTemplates,
  TemplateError,
} from './sms/templates.js';
import { passwordEndsHostEarly } from './store/errors.js';
import type { Catalog, Choice } from './waybill/catalog.js';
import { defaultCatalog } from './waybill/catalog.js';
import { type CodFeeRule, parsePercent } from './waybill/cod-fee.js';
import { formatCents, MAX_MONEY_CENTS, parseCents } from './waybill/fields.js';
import type { PlaceCheck } from './waybill/schemas.js';

/**
 * Settings come from the environment (a `.env` file is read first when present) and are
 * validated once at start-up. Bad settings stop the program with one line each, naming the
 * variable and what it expects; secret values are never echoed.
 */

type Env = Record<string, string | undefined>;

/** Reads `.env` into process.env without overriding variables already set. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

const secretNames = new Set([
  'WAYBILL_API_TOKEN',
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SEMAPHORE_API_KEY',
  // PostgreSQL's own variable: the password of a DATABASE_URL that has none (compose.yaml).
  'PGPASSWORD',
]);

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalSetting = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const baseUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'an http(s) URL')
  .refine((value) => value.endsWith('/'), 'a URL ending with "/" (the endpoint path is appended directly)');

const timeZone = z
  .string()
  .trim()
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as UTC or Asia/Manila');

const wholeNumber = (min: number, max: number, what: string) => {
  const expected = `${what} between ${min} and ${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, expected)
    .transform(Number)
    .refine((n) => n >= min && n <= max, expected);
};

/** An amount such as `25` or `25.50`, in cents. */
const moneySetting = z
  .string()
  .trim()
  .transform((value) => parseCents(value) ?? -1n)
  .refine(
    (cents) => cents >= 0n && cents <= MAX_MONEY_CENTS,
    `an amount such as 25.00, at most ${formatCents(MAX_MONEY_CENTS)}`,
  );

const percentSetting = z
  .string()
  .trim()
  .transform((value) => parsePercent(value) ?? -1n)
  .refine((percent) => percent >= 0n, 'a percentage between 0 and 100 such as 2.75 (at most four decimals)');

/** A day as YYYY-MM-DD that the calendar has. */
const daySetting = z
  .string()
  .trim()
  .refine(
    (day) => /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    'a day as YYYY-MM-DD, such as 2026-12-01',
  );
const DURATION_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration written `15m`, `24h` or `5d` (at most a year), or `0` for off: milliseconds, 0 when off. */
export const duration = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,5}[mhd])$/, 'a duration such as 15m, 24h or 5d, or 0 for off')
  .transform((text) =>
    text === '0'
      ? 0
      : Number(text.slice(0, -1)) * DURATION_UNITS_MS[text.at(-1) as keyof typeof DURATION_UNITS_MS],
  )
  .refine((ms) => ms <= 366 * DURATION_UNITS_MS.d, 'a duration of at most a year (366d)');

/** The receiver risk rule's `count/window` (`1/5`: one or more among the latest 5 parcels), or `0` for off: null when off. */
const riskThreshold = z
  .string()
  .trim()
  .regex(
    /^(0|\d{1,3}\/\d{1,3})$/,
    'count/window such as 1/5 (that many among the latest parcels), or 0 for off',
  )
  .transform((text): RiskThreshold | null => {
    // Null, not undefined: the setting's default stands for undefined.
    if (text === '0') return null;
    const [count = 0, window = 0] = text.split('/').map(Number);
    return { count, window };
  })
  .refine(
    (rule) => !rule || (rule.count >= 1 && rule.count <= rule.window && rule.window <= 100),
    'count/window with a count from 1 to the window and a window of at most 100 parcels, such as 1/5, or 0 for off',
  );

/** Quiet hours written `20:00-08:00` (across midnight when the first is later), or `off`: null when off (unset is the default). */
const quietHours = z
  .string()
  .trim()
  .regex(
    /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/,
    'HH:MM-HH:MM such as 20:00-08:00 (in WAYBILL_TIMEZONE), or off',
  )
  .refine((text) => text.slice(0, 5) !== text.slice(6), 'two different times, such as 20:00-08:00, or off')
  .transform((text) => (text === 'off' ? null : { from: text.slice(0, 5), to: text.slice(6) }));

/** A list written as `VALUE=Label,VALUE2=Label two` (the label is optional). */
const choiceList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item): Choice => {
        const [value = '', ...label] = item.split('=');
        return { value: value.trim(), label: label.join('=').trim() || value.trim() };
      }),
  )
  .refine(
    (list) => list.length >= 1 && list.length <= 100,
    'a comma-separated list of 1 to 100 VALUE=Label items',
  )
  .refine(
    (list) => list.every((c) => c.value.length > 0 && c.value.length <= 150 && c.label.length <= 75),
    'items with a value of at most 150 and a label of at most 75 characters',
  )
  .refine((list) => new Set(list.map((c) => c.value)).size === list.length, 'a list without repeated values');

const waybillEnvSchema = z.object({
  WAYBILL_ENV: optionalSetting(z.enum(['sandbox', 'test', 'live'], 'one of sandbox, test, live')).default(
    'sandbox',
  ),
  WAYBILL_TEST_BASE_URL: optionalSetting(baseUrl),
  WAYBILL_LIVE_BASE_URL: optionalSetting(baseUrl),
  WAYBILL_API_TOKEN: optionalSetting(z.string().trim()),
  WAYBILL_TIMEZONE: optionalSetting(timeZone).default('UTC'),
  WAYBILL_TIMEOUT_MS: optionalSetting(wholeNumber(500, 120_000, 'a whole number of milliseconds')).default(
    15_000,
  ),
  WAYBILL_CURRENCY: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'a three-letter currency code such as PHP')
      .transform((code) => code.toUpperCase()),
  ).default('PHP'),
  WAYBILL_SERVICE_TYPES: optionalSetting(choiceList),
  WAYBILL_PAYMENT_METHODS: optionalSetting(choiceList),
  WAYBILL_COD_PAYMENT_METHOD: optionalSetting(z.string().trim()),
  WAYBILL_PACKAGE_TYPES: optionalSetting(choiceList),
  WAYBILL_UNITS: optionalSetting(choiceList),
  WAYBILL_SANDBOX_LATENCY_MS: optionalSetting(
    wholeNumber(0, 120_000, 'a whole number of milliseconds'),
  ).default(0),
  WAYBILL_PLACE_CHECK: optionalSetting(z.enum(['refuse', 'warn'], 'one of refuse, warn')).default('refuse'),
});

export type WaybillEnv = 'sandbox' | 'test' | 'live';

export interface WaybillConfig {
  env: WaybillEnv;
  /** Base address of the real upstream; absent in sandbox mode (the embedded sandbox supplies it). */
  baseUrl?: string;
  token?: string;
  timeZone: string;
  timeoutMs: number;
  currency: string;
  catalog: Catalog;
  sandboxLatencyMs: number;
  /** Philippine places that do not fit together: refused, or warned of on the review (docs/places.md). */
  placeCheck: PlaceCheck;
}

/** What is wrong with the settings: one line per setting, so each is named once. */
class Problems {
  private readonly lines: string[] = [];
  private readonly named = new Set<string>();

  /** A problem involving the settings `names`, unless one of them has one already. */
  add(names: string[], line: string): void {
    if (names.some((name) => this.named.has(name))) return;
    for (const name of names) this.named.add(name);
    this.lines.push(line);
  }

  has(name: string): boolean {
    return this.named.has(name);
  }

  any(): boolean {
    return this.lines.length > 0;
  }

  error(): ConfigError {
    return new ConfigError(this.lines);
  }
}

/**
 * The settings of `schema`, each bad one a problem; the others are still read (a bad one as if unset),
 * so the checks between settings run on what is left.
 */
function parseEnv<T extends z.ZodObject>(schema: T, env: Env, problems: Problems): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  // In the schema's order (the docs' order), whichever check zod ran first.
  const order = Object.keys(schema.shape);
  const issues = result.error.issues
    .map((issue) => ({ name: String(issue.path[0]), message: issue.message }))
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  for (const { name, message } of issues) problems.add([name], `${name} must be ${message}`);
  const unset = Object.fromEntries(issues.map(({ name }) => [name, undefined]));
  const rest = schema.safeParse({ ...env, ...unset });
  if (!rest.success) throw problems.error();
  return rest.data;
}

export function loadWaybillConfig(env: Env = process.env): WaybillConfig {
  const problems = new Problems();
  const settings = parseEnv(waybillEnvSchema, env, problems);
  const paymentMethods = settings.WAYBILL_PAYMENT_METHODS ?? defaultCatalog.paymentMethods;
  const codPaymentMethod = settings.WAYBILL_COD_PAYMENT_METHOD ?? defaultCatalog.codPaymentMethod;
  if (!paymentMethods.some((method) => method.value === codPaymentMethod)) {
    problems.add(
      ['WAYBILL_COD_PAYMENT_METHOD', 'WAYBILL_PAYMENT_METHODS'],
      `WAYBILL_COD_PAYMENT_METHOD must be one of the values in WAYBILL_PAYMENT_METHODS (${paymentMethods.map((m) => m.value).join(', ')})`,
    );
  }
  const config: WaybillConfig = {
    env: settings.WAYBILL_ENV,
    timeZone: settings.WAYBILL_TIMEZONE,
    timeoutMs: settings.WAYBILL_TIMEOUT_MS,
    currency: settings.WAYBILL_CURRENCY,
    sandboxLatencyMs: settings.WAYBILL_SANDBOX_LATENCY_MS,
    placeCheck: settings.WAYBILL_PLACE_CHECK,
    catalog: {
      serviceTypes: settings.WAYBILL_SERVICE_TYPES ?? defaultCatalog.serviceTypes,
      paymentMethods,
      codPaymentMethod,
      packageTypes: settings.WAYBILL_PACKAGE_TYPES ?? defaultCatalog.packageTypes,
      units: settings.WAYBILL_UNITS ?? defaultCatalog.units,
    },
  };
  if (config.env === 'sandbox') {
    if (problems.any()) throw problems.error();
    return config;
  }
  const urlName = config.env === 'test' ? 'WAYBILL_TEST_BASE_URL' : 'WAYBILL_LIVE_BASE_URL';
  const url = config.env === 'test' ? settings.WAYBILL_TEST_BASE_URL : settings.WAYBILL_LIVE_BASE_URL;
  const token = settings.WAYBILL_API_TOKEN;
  if (!url) problems.add([urlName], `${urlName} must be set when WAYBILL_ENV=${config.env}`);
  if (!token)
    problems.add(['WAYBILL_API_TOKEN'], `WAYBILL_API_TOKEN must be set when WAYBILL_ENV=${config.env}`);
  if (problems.any() || !url || !token) throw problems.error();
  return { ...config, baseUrl: url, token };
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

export function loadSlackConfig(env: Env = process.env): SlackConfig {
  const problems = new Problems();
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
  if (problems.any() || !botToken || !signingSecret) throw problems.error();
  return {
    botToken,
    signingSecret,
    appToken: settings.SLACK_APP_TOKEN,
    port: settings.PORT,
    healthPort: settings.HEALTH_PORT,
    apiUrl: settings.SLACK_API_URL,
    logLevel: settings.LOG_LEVEL,
  };
}

/** The password inside DATABASE_URL, as written (percent-encoded) and as sent, if it has one. */
function databasePasswords(env: Env): string[] {
  const url = env.DATABASE_URL?.trim() ?? '';
  if (!URL.canParse(url)) return [];
  const { password } = new URL(url);
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    return [password];
  }
}

/** The values that must never reach a log line or a message. */
export function secretsOf(env: Env = process.env): string[] {
  const values = [...[...secretNames].map((name) => env[name]?.trim() ?? ''), ...databasePasswords(env)];
  return [...new Set(values)].filter((value) => value.length >= 4);
}

/** A comma-separated list: its items trimmed, empty ones left out. */
const commaList = () =>
  z.string().transform((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** A comma-separated list of Slack IDs. */
const idList = (pattern: RegExp, what: string) =>
  commaList().refine((ids) => ids.every((id) => pattern.test(id)), `a comma-separated list of ${what}`);

const milliseconds = (min: number, max: number) => wholeNumber(min, max, 'a whole number of milliseconds');

/** A printer's raw port: host:port, such as 10.0.0.5:9100. */
const printerAddress = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'host:port, such as 10.0.0.5:9100')
  .transform((address) => {
    const [host = '', port = ''] = address.split(':');
    return { host, port: Number(port) };
  })
  .refine(({ port }) => port > 0 && port < 65536, 'host:port with a port from 1 to 65535');

/** A column's header in a file someone else writes: any text of at most 100 characters. */
const columnHeader = z
  .string()
  .trim()
  .min(1, 'a column header')
  .max(100, 'a column header of at most 100 characters');

const botEnvSchema = z.object({
  DATABASE_PATH: optionalSetting(z.string().trim().min(1, 'a file path')).default(
    './data/waybill-bot.sqlite',
  ),
  // The value is never echoed: it may hold a password.
  DATABASE_URL: optionalSetting(
    z
      .string()
      .trim()
      .refine(
        (value) => /^postgres(ql)?:\/\//i.test(value) && URL.canParse(value) && !passwordEndsHostEarly(value),
        'a PostgreSQL URL such as postgres://user:password@host:5432/waybill, its password percent-encoded (@ as %40, / as %2F, # as %23, ? as %3F, % as %25) (unset: SQLite at DATABASE_PATH)',
      ),
  ),
  DATABASE_POOL_SIZE: optionalSetting(wholeNumber(1, 100, 'a whole number of connections')).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: optionalSetting(milliseconds(100, 60_000)).default(2500),
  DATABASE_POOL_WAIT_MS: optionalSetting(milliseconds(100, 600_000)).default(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: optionalSetting(milliseconds(100, 600_000)).default(10_000),
  REPLICA_LEASE_TTL_MS: optionalSetting(milliseconds(1000, 600_000)).default(30_000),
  REPLICA_LEASE_RENEW_MS: optionalSetting(milliseconds(100, 300_000)).default(10_000),
  TRACKING_PREFIX: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,20}$/, 'letters, digits, - or _ (at most 20), e.g. WB')
      // Tracking numbers are written in upper case (writtenTrackingNumber), the generated ones too.
      .transform((prefix) => prefix.toUpperCase()),
  ).default('WB'),
  MAX_PARCELS: optionalSetting(
    wholeNumber(1, 10, 'a whole number of parcels (a Slack modal fits 10)'),
  ).default(10),
  TRACKING_URL_TEMPLATE: optionalSetting(
    z
      .string()
      .trim()
      .refine(
        (value) =>
          value.split('{tn}').length === 2 &&
          URL.canParse(value.replace('{tn}', 'WB000001')) &&
          new URL(value.replace('{tn}', 'WB000001')).protocol === 'https:',
        'an https URL with {tn} once where the tracking number goes, e.g. https://courier.example/track/{tn}',
      ),
  ),
  AUDIT_CHANNEL_ID: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID such as C0123ABCD'),
  ),
  SENDER_PROFILES_FILE: optionalSetting(z.string().trim().min(1, 'a file path')),
  ALLOWED_USER_IDS: optionalSetting(idList(/^[UW][A-Z0-9]{2,}$/, 'user IDs such as U0123ABCD')),
  ALLOWED_USERGROUP_IDS: optionalSetting(idList(/^S[A-Z0-9]{2,}$/, 'user-group IDs such as S0123ABCD')),
  ALLOWED_CHANNEL_IDS: optionalSetting(idList(/^[CGD][A-Z0-9]{2,}$/, 'channel IDs such as C0123ABCD')),
  ALLOWED_BULK_USER_IDS: optionalSetting(idList(/^[UW][A-Z0-9]{2,}$/, 'user IDs such as U0123ABCD')),
  ALLOWED_TEAM_IDS: optionalSetting(idList(/^[TE][A-Z0-9]{2,}$/, 'team IDs such as T0123ABCD')),
  BULK_MAX_ROWS: optionalSetting(wholeNumber(1, 5000, 'a whole number of rows')).default(500),
  BULK_MAX_FILE_MB: optionalSetting(wholeNumber(1, 50, 'a whole number of megabytes')).default(2),
  BULK_DOWNLOAD_TIMEOUT_MS: optionalSetting(
    wholeNumber(100, 600_000, 'a whole number of milliseconds'),
  ).default(30_000),
  LABEL_PAGE_SIZE: optionalSetting(
    z
      .string()
      .trim()
      .pipe(z.enum(['4x6', 'A6'], 'one of 4x6, A6')),
  ).default('4x6'),
  LABEL_FORMAT: optionalSetting(
    z
      .string()
      .trim()
      .pipe(z.enum(['pdf', 'zpl', 'both'], 'one of pdf, zpl, both')),
  ).default('pdf'),
  LABEL_DPI: optionalSetting(
    z
      .string()
      .trim()
      .pipe(z.enum(['203', '300'], 'one of 203, 300'))
      .transform((dpi) => Number(dpi) as 203 | 300),
  ).default(203),
  LABEL_PRINTER: optionalSetting(printerAddress),
  LABEL_PRINTERS: optionalSetting(
    commaList()
      .refine(
        (items) =>
          items.length > 0 &&
          items.length <= 20 &&
          new Set(items.map((item) => item.split('=')[0])).size === items.length &&
          items.every(
            (item) =>
              /^[\w-]{1,30}=\S+:\d+$/.test(item) &&
              printerAddress.safeParse(item.slice(item.indexOf('=') + 1)).success,
          ),
        'a comma-separated list of up to 20 name=host:port items, each name once, such as desk=10.0.0.5:9100',
      )
      .transform((items) =>
        items.map((item) => ({
          name: item.slice(0, item.indexOf('=')),
          ...printerAddress.parse(item.slice(item.indexOf('=') + 1)),
        })),
      ),
  ),
  LABEL_PRINTER_TIMEOUT_MS: optionalSetting(milliseconds(100, 120_000)).default(10_000),
  BULK_CONCURRENCY: optionalSetting(wholeNumber(1, 100, 'a whole number of rows')).default(20),
  ALLOWED_FINANCE_USER_IDS: optionalSetting(idList(/^[UW][A-Z0-9]{2,}$/, 'user IDs such as U0123ABCD')),
  ALLOWED_FINANCE_USERGROUP_IDS: optionalSetting(
    idList(/^S[A-Z0-9]{2,}$/, 'user-group IDs such as S0123ABCD'),
  ),
  REMITTANCE_TRACKING_COLUMN: optionalSetting(columnHeader).default('tracking_number'),
  REMITTANCE_AMOUNT_COLUMN: optionalSetting(columnHeader).default('amount'),
  REMITTANCE_REMITTED_AT_COLUMN: optionalSetting(columnHeader).default('remitted_at'),
  REMITTANCE_STATUS_COLUMN: optionalSetting(columnHeader).default('status'),
  REMITTANCE_FEE_COLUMN: optionalSetting(columnHeader).default('fee'),
  REMITTANCE_OUTSTANDING_DAYS: optionalSetting(wholeNumber(1, 365, 'a whole number of days')).default(7),
  COD_FEE_PERCENT: optionalSetting(percentSetting).default(0n),
  COD_FEE_FIXED: optionalSetting(moneySetting).default(0n),
  COD_FEE_MIN: optionalSetting(moneySetting),
  COD_FEE_MAX: optionalSetting(moneySetting),
  COD_FEE_VAT_PERCENT: optionalSetting(percentSetting).default(0n),
  RETURN_FEE: optionalSetting(moneySetting).default(0n),
  COD_FEE_FROM: optionalSetting(daySetting),
  ATTENTION_FAILED_AFTER: optionalSetting(duration).default(24 * DURATION_UNITS_MS.h),
  COURIER_ATTEMPT_LIMIT: optionalSetting(wholeNumber(1, 10, 'a whole number of delivery attempts')).default(
    3,
  ),
  ATTENTION_STALE_AFTER: optionalSetting(duration).default(5 * DURATION_UNITS_MS.d),
  ATTENTION_UNKNOWN_AFTER: optionalSetting(duration).default(15 * DURATION_UNITS_MS.m),
  ATTENTION_COD_AFTER: optionalSetting(duration).default(7 * DURATION_UNITS_MS.d),
  RECEIVER_RISK_RETURNS: optionalSetting(riskThreshold).default({ count: 1, window: 5 }),
  RECEIVER_RISK_FAILED: optionalSetting(riskThreshold).default({ count: 2, window: 5 }),
  ATTENTION_QUIET_HOURS: optionalSetting(quietHours).default({ from: '20:00', to: '08:00' }),
  ATTENTION_BATCH_EVERY: optionalSetting(duration).default(15 * DURATION_UNITS_MS.m),
  ATTENTION_ESCALATE_AFTER: optionalSetting(duration).default(24 * DURATION_UNITS_MS.h),
  ATTENTION_CHANNEL_ID: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID such as C0123ABCD'),
  ),
  DIGEST_CHANNEL_ID: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID such as C0123ABCD'),
  ),
  DIGEST_TIME: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, such as 18:00 (in WAYBILL_TIMEZONE)'),
  ),
  REPORT_CHANNEL_ID: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID such as C0123ABCD'),
  ),
  REPORT_TIME: optionalSetting(
    z
      .string()
      .trim()
      .regex(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([01]\d|2[0-3]):[0-5]\d$/i,
        'a day of the week and a time as ddd HH:MM, such as Mon 08:00 (in WAYBILL_TIMEZONE)',
      )
      .transform((value) => ({
        weekday: WEEKDAYS.indexOf(value.slice(0, 3).toLowerCase()),
        time: value.slice(4),
      })),
  ),
});

const smsLanguage = z.enum(Object.keys(SMS_LANGUAGES) as [SmsLanguage], 'one of en, fil');

/** Receivers' SMS (docs/receiver-messages.md). */
const smsEnvSchema = z.object({
  SMS_GATEWAY: optionalSetting(
    z
      .string()
      .trim()
      .pipe(z.enum(['log', 'semaphore'], 'one of log, semaphore')),
  ).default('log'),
  // The value is never echoed.
  SEMAPHORE_API_KEY: optionalSetting(
    z.string().trim().min(8, 'the API key from semaphore.co (Account → API)'),
  ),
  SEMAPHORE_URL: optionalSetting(baseUrl).default(SEMAPHORE_URL),
  SMS_SENDER_NAME: optionalSetting(
    z
      .string()
      .trim()
      .regex(
        /^[A-Za-z0-9 .-]{1,11}$/,
        'the sender name registered with Semaphore: at most 11 letters, digits or spaces',
      ),
  ),
  SMS_QUIET_HOURS: optionalSetting(
    z
      .string()
      .trim()
      .regex(
        /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/,
        'HH:MM-HH:MM such as 21:00-08:00 (Manila time), or off',
      )
      .refine(
        (text) => text.slice(0, 5) !== text.slice(6),
        'two different times, such as 21:00-08:00, or off',
      )
      .transform((text) => (text === 'off' ? null : { from: text.slice(0, 5), to: text.slice(6) })),
  ).default(DEFAULT_QUIET_HOURS),
  SMS_EVENTS: optionalSetting(
    z
      .string()
      .trim()
      .transform((text) => (text === 'off' ? [] : text.split(',').map((item) => item.trim())))
      .refine(
        (events) => events.every((event) => (SMS_EVENTS as readonly string[]).includes(event)),
        `a comma-separated list of ${SMS_EVENTS.join(', ')}, or off`,
      )
      .transform((events) => events as SmsEvent[]),
  ).default([...SMS_EVENTS]),
  SMS_LANGUAGE: optionalSetting(z.string().trim().pipe(smsLanguage)).default('en'),
  SMS_CHANNEL_LANGUAGES: optionalSetting(
    commaList()
      .refine(
        (items) => items.every((item) => /^[CG][A-Z0-9]{2,}=(en|fil)$/.test(item)),
        'a comma-separated list of channel=language items, such as C0123ABCD=fil',
      )
      .transform(
        (items) => Object.fromEntries(items.map((item) => item.split('='))) as Record<string, SmsLanguage>,
      ),
  ).default({}),
  SMS_TEMPLATES_FILE: optionalSetting(z.string().trim().min(1, 'a file path')),
});

/** The receivers' SMS settings, the templates read and checked (a bad one is one line naming it). */
function loadSmsSettings(env: Env, problems: Problems): SmsSettings | undefined {
  const settings = parseEnv(smsEnvSchema, env, problems);
  if (
    settings.SMS_GATEWAY === 'semaphore' &&
    !settings.SEMAPHORE_API_KEY &&
    !problems.has('SEMAPHORE_API_KEY')
  )
    problems.add(['SEMAPHORE_API_KEY'], 'SEMAPHORE_API_KEY must be set when SMS_GATEWAY is semaphore');
  let templates: SmsTemplates | undefined;
  try {
    templates = SmsTemplates.load(settings.SMS_TEMPLATES_FILE);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    problems.add(['SMS_TEMPLATES_FILE'], err.message);
  }
  if (!templates) return undefined;
  return {
    gateway:
      settings.SMS_GATEWAY === 'semaphore'
        ? {
            kind: 'semaphore',
            apiKey: settings.SEMAPHORE_API_KEY ?? '',
            url: settings.SEMAPHORE_URL,
            senderName: settings.SMS_SENDER_NAME ?? '',
          }
        : { kind: 'log' },
    templates,
    ...(settings.SMS_QUIET_HOURS ? { quietHours: settings.SMS_QUIET_HOURS } : {}),
    events: settings.SMS_EVENTS,
    language: settings.SMS_LANGUAGE,
    channelLanguages: settings.SMS_CHANNEL_LANGUAGES,
  };
}

/** Day names as REPORT_TIME takes them, Sunday first as Date.getDay() counts. */
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Where the bot keeps its state, and how its replica shows it is alive. */
export interface DatabaseConfig {
  /** Set: PostgreSQL, shared by every replica. Unset: SQLite at `path`. */
  url?: string;
  /** SQLite file for drafts, bookings and the audit log (`:memory:` keeps nothing). */
  path: string;
  /** PostgreSQL: connections per replica. */
  poolSize: number;
  /** PostgreSQL: how long opening a connection may take. */
  connectTimeoutMs: number;
  /** PostgreSQL: how long a request may wait for a pooled connection while all are busy. */
  poolWaitMs: number;
  /** PostgreSQL: longer statements are cancelled. */
  statementTimeoutMs: number;
  /** A replica not heard from for this long is gone: its courier calls in flight are reported as outcome unknown. */
  leaseTtlMs: number;
  /** How often a replica renews its lease, and looks for calls abandoned by replicas that are gone. */
  leaseRenewMs: number;
}

export interface BotConfig {
  database: DatabaseConfig;
  /** Generated tracking numbers are this prefix and a six-digit counter. */
  trackingPrefix: string;
  /** The courier's tracking page, `{tn}` for the number: its links unfurl as the booking. Unset: none. */
  trackingUrlTemplate?: string;
  maxParcels: number;
  /** Every booking card is also posted here when set. */
  auditChannelId?: string;
  /** Unset: no profiles (the sandbox uses the shipped example). */
  senderProfilesFile?: string;
  /** Who may quote, book and update; every list empty means everyone in the workspace. */
  access: AccessPolicy;
  /** Bulk booking from a CSV file: who may, and how large a file may be. */
  bulk: BulkSettings;
  /** Parcel labels: 4x6 in (thermal printers) or A6. */
  labelPageSize: '4x6' | 'A6';
  /** Which label files are made: a PDF, ZPL for thermal printers, or both. */
  labelFormat: 'pdf' | 'zpl' | 'both';
  /** The thermal printer's resolution the ZPL is made for. */
  labelDpi: 203 | 300;
  /** Printers on the office network that take ZPL on a raw port: Send to printer, each by name. */
  labelPrinters: { name: string; host: string; port: number }[];
  labelPrinterTimeoutMs: number;
  /** COD remittance files: their column headers, and when an unpaid COD booking is outstanding. */
  remittance: RemittanceSettings;
  /** The daily digest: where and when (HH:MM in WAYBILL_TIMEZONE); undefined: off. */
  digest?: { channelId: string; time: string };
  /** After how long each rule of attention raises an item, in milliseconds; 0: the rule is off. */
  attention: AttentionSettings;
  /** The receiver's record before booking: when it flags a receiver (a COD booking to one needs a confirmation). */
  receiverRisk: ReceiverRiskSettings;
  /** When and how owners are reminded of what needs attention, and where what stays open is escalated. */
  reminders: ReminderSettings;
  /** The weekly report: where, on which day (0 Sunday … 6 Saturday) and at what time in WAYBILL_TIMEZONE; undefined: off. */
  report?: { channelId: string; weekday: number; time: string };
  /** Receivers' SMS: the gateway, templates, quiet hours, events and languages. */
  sms: SmsSettings;
}

export interface RemittanceSettings {
  columns: { trackingNumber: string; amount: string; remittedAt: string; status: string; fee: string };
  /** A COD booking this many days old that files have not paid in full is outstanding. */
  outstandingDays: number;
  /** What the courier keeps of each COD booking (and charges for a return). */
  fee: CodFeeRule;
}

export interface BulkSettings {
  maxRows: number;
  maxBytes: number;
  /** A file not downloaded in full by then is not read. */
  downloadTimeoutMs: number;
  /** Rows at the courier at once, per replica (halved while the courier answers 429). */
  concurrency: number;
}

export function loadBotConfig(env: Env = process.env): BotConfig {
  const problems = new Problems();
  const settings = parseEnv(botEnvSchema, env, problems);
  // Renewing at most every half lease: one late renewal never lets a live replica's lease lapse.
  if (settings.REPLICA_LEASE_RENEW_MS * 2 > settings.REPLICA_LEASE_TTL_MS) {
    problems.add(
      ['REPLICA_LEASE_RENEW_MS', 'REPLICA_LEASE_TTL_MS'],
      `REPLICA_LEASE_RENEW_MS must be at most half of REPLICA_LEASE_TTL_MS (${settings.REPLICA_LEASE_TTL_MS} ms), so one late renewal does not end a live replica's lease`,
    );
  }
  // A wait for a pooled connection may include opening one, so it is never the shorter bound.
  if (settings.DATABASE_POOL_WAIT_MS < settings.DATABASE_CONNECT_TIMEOUT_MS) {
    problems.add(
      ['DATABASE_POOL_WAIT_MS', 'DATABASE_CONNECT_TIMEOUT_MS'],
      `DATABASE_POOL_WAIT_MS must be at least DATABASE_CONNECT_TIMEOUT_MS (${settings.DATABASE_CONNECT_TIMEOUT_MS} ms): waiting for a pooled connection may include opening one`,
    );
  }
  if (
    settings.COD_FEE_MIN !== undefined &&
    settings.COD_FEE_MAX !== undefined &&
    settings.COD_FEE_MIN > settings.COD_FEE_MAX
  ) {
    throw new ConfigError(
      `COD_FEE_MIN must be at most COD_FEE_MAX (${formatCents(settings.COD_FEE_MAX)}): the bounds of the courier's COD fee`,
    );
  }
  // The digest needs both: one without the other is a mistake, not "off".
  const { DIGEST_CHANNEL_ID: digestChannel, DIGEST_TIME: digestTime } = settings;
  if (Boolean(digestChannel) !== Boolean(digestTime)) {
    problems.add(
      ['DIGEST_CHANNEL_ID', 'DIGEST_TIME'],
      digestChannel
        ? 'DIGEST_TIME must be set with DIGEST_CHANNEL_ID: the time of day (HH:MM in WAYBILL_TIMEZONE) the daily digest is posted'
        : 'DIGEST_CHANNEL_ID must be set with DIGEST_TIME: the channel the daily digest is posted to',
    );
  }
  const { REPORT_CHANNEL_ID: reportChannel, REPORT_TIME: reportTime } = settings;
  if (Boolean(reportChannel) !== Boolean(reportTime)) {
    problems.add(
      ['REPORT_CHANNEL_ID', 'REPORT_TIME'],
      reportChannel
        ? 'REPORT_TIME must be set with REPORT_CHANNEL_ID: the day and time (ddd HH:MM in WAYBILL_TIMEZONE) the weekly report is posted'
        : 'REPORT_CHANNEL_ID must be set with REPORT_TIME: the channel the weekly report is posted to',
    );
  }
  const sms = loadSmsSettings(env, problems);
  if (problems.any() || !sms) throw problems.error();
  return {
    sms,
    ...(reportChannel && reportTime ? { report: { channelId: reportChannel, ...reportTime } } : {}),
    ...(digestChannel && digestTime ? { digest: { channelId: digestChannel, time: digestTime } } : {}),
    database: {
      url: settings.DATABASE_URL,
      path: settings.DATABASE_PATH,
      poolSize: settings.DATABASE_POOL_SIZE,
      connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      poolWaitMs: settings.DATABASE_POOL_WAIT_MS,
      statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      leaseTtlMs: settings.REPLICA_LEASE_TTL_MS,
      leaseRenewMs: settings.REPLICA_LEASE_RENEW_MS,
    },
    trackingPrefix: settings.TRACKING_PREFIX,
    trackingUrlTemplate: settings.TRACKING_URL_TEMPLATE,
    maxParcels: settings.MAX_PARCELS,
    auditChannelId: settings.AUDIT_CHANNEL_ID,
    senderProfilesFile: settings.SENDER_PROFILES_FILE,
    access: {
      userIds: settings.ALLOWED_USER_IDS ?? [],
      userGroupIds: settings.ALLOWED_USERGROUP_IDS ?? [],
      channelIds: settings.ALLOWED_CHANNEL_IDS ?? [],
      bulkUserIds: settings.ALLOWED_BULK_USER_IDS,
      financeUserIds: settings.ALLOWED_FINANCE_USER_IDS,
      financeUserGroupIds: settings.ALLOWED_FINANCE_USERGROUP_IDS,
      teamIds: settings.ALLOWED_TEAM_IDS ?? [],
    },
    bulk: {
      maxRows: settings.BULK_MAX_ROWS,
      // Megabytes as a file browser counts them.
      maxBytes: settings.BULK_MAX_FILE_MB * 1_000_000,
      downloadTimeoutMs: settings.BULK_DOWNLOAD_TIMEOUT_MS,
      concurrency: settings.BULK_CONCURRENCY,
    },
    labelPageSize: settings.LABEL_PAGE_SIZE,
    labelFormat: settings.LABEL_FORMAT,
    labelDpi: settings.LABEL_DPI,
    labelPrinters: [
      ...(settings.LABEL_PRINTER ? [{ name: 'printer', ...settings.LABEL_PRINTER }] : []),
      ...(settings.LABEL_PRINTERS ?? []),
    ],
    labelPrinterTimeoutMs: settings.LABEL_PRINTER_TIMEOUT_MS,
    remittance: {
      columns: {
        trackingNumber: settings.REMITTANCE_TRACKING_COLUMN,
        amount: settings.REMITTANCE_AMOUNT_COLUMN,
        remittedAt: settings.REMITTANCE_REMITTED_AT_COLUMN,
        status: settings.REMITTANCE_STATUS_COLUMN,
        fee: settings.REMITTANCE_FEE_COLUMN,
      },
      outstandingDays: settings.REMITTANCE_OUTSTANDING_DAYS,
      fee: {
        percent: settings.COD_FEE_PERCENT,
        fixed: settings.COD_FEE_FIXED,
        ...(settings.COD_FEE_MIN === undefined ? {} : { min: settings.COD_FEE_MIN }),
        ...(settings.COD_FEE_MAX === undefined ? {} : { max: settings.COD_FEE_MAX }),
        vatPercent: settings.COD_FEE_VAT_PERCENT,
        returnFee: settings.RETURN_FEE,
        ...(settings.COD_FEE_FROM === undefined ? {} : { from: settings.COD_FEE_FROM }),
      },
    },
    attention: {
      failedAfterMs: settings.ATTENTION_FAILED_AFTER,
      staleAfterMs: settings.ATTENTION_STALE_AFTER,
      unknownAfterMs: settings.ATTENTION_UNKNOWN_AFTER,
      codAfterMs: settings.ATTENTION_COD_AFTER,
      attemptLimit: settings.COURIER_ATTEMPT_LIMIT,
    },
    receiverRisk: {
      ...(settings.RECEIVER_RISK_RETURNS ? { returns: settings.RECEIVER_RISK_RETURNS } : {}),
      ...(settings.RECEIVER_RISK_FAILED ? { failed: settings.RECEIVER_RISK_FAILED } : {}),
    },
    reminders: {
      ...(settings.ATTENTION_QUIET_HOURS ? { quietHours: settings.ATTENTION_QUIET_HOURS } : {}),
      batchEveryMs: settings.ATTENTION_BATCH_EVERY,
      escalateAfterMs: settings.ATTENTION_ESCALATE_AFTER,
      ...(settings.ATTENTION_CHANNEL_ID ? { channelId: settings.ATTENTION_CHANNEL_ID } : {}),
    },
  };
}

/** Every setting, every bad one among them reported at once (a line each). */
export function loadConfig(env: Env = process.env): {
  waybill: WaybillConfig;
  slack: SlackConfig;
  bot: BotConfig;
} {
  const problems: string[] = [];
  const load = <T>(loader: (env: Env) => T): T | undefined => {
    try {
      return loader(env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
      return undefined;
    }
  };
  const [waybill, slack, bot] = [load(loadWaybillConfig), load(loadSlackConfig), load(loadBotConfig)];
  if (!waybill || !slack || !bot) throw new ConfigError(problems);
  return { waybill, slack, bot };
}
