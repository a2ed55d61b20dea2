/**
 * Settings read from the environment, the kit every module's settings are written with: the kinds of
 * values, and the problems collected a line each (a bad one read as unset, so the checks between
 * settings still run). Each module declares its own settings; src/config.ts composes them.
 */
import * as z from 'zod';
import { ConfigError } from '../settings-error.js';

export type Env = Record<string, string | undefined>;

/** What is wrong with the settings: one line per setting, so each is named once. */
export class Problems {
  private readonly lines: string[] = [];
  private readonly named = new Set<string>();

  /** A problem involving the settings `names`, unless one of them has one already. */
  add(names: string[], line: string): void {
    if (names.some((name) => this.named.has(name))) return;
    for (const name of names) this.named.add(name);
    this.lines.push(line);
  }

  /**
   * Two settings that mean something only together (`what` says what each is for): one without the
   * other is a mistake, not "off". True when both are set.
   */
  together(settings: Record<string, unknown>, what: Record<string, string>): boolean {
    const [first = '', second = ''] = Object.keys(what);
    const [hasFirst, hasSecond] = [Boolean(settings[first]), Boolean(settings[second])];
    if (hasFirst !== hasSecond) {
      const [missing, given] = hasFirst ? [second, first] : [first, second];
      this.add([first, second], `${missing} must be set with ${given}: ${what[missing]}`);
    }
    return hasFirst && hasSecond;
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
 * A module's settings: its variables, each checked alone by `schema` (in the docs' order), and `read`,
 * which turns them into the module's own value, adding a problem for each bad one or bad pair. A value
 * read beside problems is never used: the settings as a whole are refused.
 */
export interface EnvSettings<T> {
  schema: z.ZodObject;
  read(env: Env, problems: Problems): T;
  /** The values among them that must never reach a log line or a message. */
  secrets?(env: Env): string[];
}

/** Settings whose `schema` is parsed first (see parseEnv), then made into the module's value by `value`. */
export function envSettings<S extends z.ZodObject, T>(
  schema: S,
  value: (settings: z.output<S>, problems: Problems, env: Env) => T,
  secrets?: (env: Env) => string[],
): EnvSettings<T> {
  return {
    schema,
    read: (env, problems) => value(parseEnv(schema, env, problems), problems, env),
    ...(secrets ? { secrets } : {}),
  };
}

/** The values of the variables `names`, as set (trimmed). */
export const secretsNamed =
  (...names: string[]) =>
  (env: Env): string[] =>
    names.map((name) => env[name]?.trim() ?? '');

/**
 * The settings of `schema`, each bad one a problem; the others are still read (a bad one as if unset),
 * so the checks between settings run on what is left.
 */
export function parseEnv<T extends z.ZodObject>(schema: T, env: Env, problems: Problems): z.output<T> {
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

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A setting that may be unset (or blank, which counts as unset). */
export const optionalSetting = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional());

/** An http(s) address the endpoints' paths are appended to. */
export const baseUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'an http(s) URL')
  .refine((value) => value.endsWith('/'), 'a URL ending with "/" (the endpoint path is appended directly)');

export const wholeNumber = (min: number, max: number, what: string) => {
  const expected = `${what} between ${min} and ${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, expected)
    .transform(Number)
    .refine((n) => n >= min && n <= max, expected);
};

export const milliseconds = (min: number, max: number) =>
  wholeNumber(min, max, 'a whole number of milliseconds');

export const DURATION_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

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

/** A comma-separated list: its items trimmed, empty ones left out. */
export const commaList = () =>
  z.string().transform((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** A comma-separated list of Slack IDs. */
export const idList = (pattern: RegExp, what: string) =>
  commaList().refine((ids) => ids.every((id) => pattern.test(id)), `a comma-separated list of ${what}`);

/** A channel's ID, where the bot posts. */
export const channelId = () =>
  z
    .string()
    .trim()
    .regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID such as C0123ABCD');

/** A file's path. */
export const filePath = () => z.string().trim().min(1, 'a file path');

/** One of a few words, exactly as written: the problem lists them. */
export const wordOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, `one of ${values.join(', ')}`);

/** One of a few words, trimmed first. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string().trim().pipe(wordOf(values));
