/**
 * What the receiver is texted, per event and language: ICU MessageFormat (FormatJS's intl-messageformat),
 * whose plural and select rules come from the runtime's own CLDR data, so Filipino's plural rules
 * (1, 2, 3 are "one") are not English's. The operator may replace any template in a JSON file
 * (SMS_TEMPLATES_FILE); each of the file's is checked at start-up (the shipped ones by the tests): it
 * parses, it names only the values its event has, and with sample values it fits one SMS part.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as MessageFormat from 'intl-messageformat';
import { smsSize } from './encoding.js';

export const SMS_EVENTS = ['booked', 'out_for_delivery', 'failed_attempt'] as const;
export type SmsEvent = (typeof SMS_EVENTS)[number];

export const SMS_LANGUAGES = { en: 'English', fil: 'Filipino' } as const;
export type SmsLanguage = keyof typeof SMS_LANGUAGES;

export const isSmsLanguage = (value: string): value is SmsLanguage => Object.hasOwn(SMS_LANGUAGES, value);

/** The event in a dispatcher's words, for the thread and the review. */
export const SMS_EVENT_WORDS: Record<SmsEvent, string> = {
  booked: 'booking',
  out_for_delivery: 'out for delivery',
  failed_attempt: 'failed attempt',
};

/** The values a template may use: every event has these. */
const COMMON = ['merchant', 'trackingNumber', 'cod', 'codAmount', 'date', 'teamPhone'] as const;

/** The values each event's template may use. */
export const PLACEHOLDERS: Record<SmsEvent, readonly string[]> = {
  booked: COMMON,
  out_for_delivery: COMMON,
  failed_attempt: [...COMMON, 'reason', 'attempt'],
};

/** The values of one SMS: `cod` is `yes` or `no` (for a select), `attempt` a number (for a plural). */
export interface SmsValues {
  merchant: string;
  trackingNumber: string;
  cod: 'yes' | 'no';
  codAmount: string;
  date: string;
  teamPhone: string;
  reason?: string;
  attempt?: number;
}

/** Why an attempt failed, as the receiver reads it. */
export const REASON_TEXT: Record<SmsLanguage, Record<string, string>> = {
  en: {
    not_at_home: 'nobody was home',
    refused: 'the parcel was refused',
    wrong_address: 'the address was not found',
    other: 'the rider could not deliver',
  },
  fil: {
    not_at_home: 'walang tao sa bahay',
    refused: 'tinanggihan ang parcel',
    wrong_address: 'hindi nahanap ang address',
    other: 'hindi naihatid ng rider',
  },
};

/** The shipped templates: GSM-7 only (no ₱, no curly quotes), so one part holds 160 characters. */
export const DEFAULT_TEMPLATES: Record<SmsLanguage, Record<SmsEvent, string>> = {
  en: {
    booked:
      '{merchant}: order {trackingNumber} is booked{cod, select, yes {, COD PHP {codAmount}} other {}}, arriving {date}. To change it, reply or call {teamPhone}.',
    out_for_delivery:
      '{merchant}: order {trackingNumber} is out for delivery today{cod, select, yes {. Please prepare PHP {codAmount}} other {}}. Questions? Call {teamPhone}.',
    failed_attempt:
      '{merchant}: order {trackingNumber} was not delivered ({reason}), {attempt, plural, =1 {first try} other {try #}}. Call {teamPhone} to set the next try.',
  },
  fil: {
    booked:
      '{merchant}: naka-book na ang order {trackingNumber}{cod, select, yes {, COD PHP {codAmount}} other {}}, darating sa {date}. Para magbago, tumawag sa {teamPhone}.',
    out_for_delivery:
      '{merchant}: ihahatid ngayon ang order {trackingNumber}{cod, select, yes {. Ihanda ang PHP {codAmount}} other {}}. May tanong? Tumawag sa {teamPhone}.',
    failed_attempt:
      '{merchant}: hindi naihatid ang order {trackingNumber} ({reason}), {attempt, plural, =1 {unang subok} other {ika-# na subok}}. Tumawag sa {teamPhone}.',
  },
};

/** Values of a typical booking, long ones, that every template must fit one part with. */
export function sampleValues(language: SmsLanguage): SmsValues {
  const reasons = Object.values(REASON_TEXT[language]);
  return {
    merchant: 'Sample Merchant Shop',
    trackingNumber: 'WB000123',
    cod: 'yes',
    codAmount: '12,345.00',
    date: deliveryDay(new Date('2026-12-30T04:00:00Z'), language, 'Asia/Manila'),
    teamPhone: '0917 123 4567',
    reason: reasons.reduce((longest, reason) => (reason.length > longest.length ? reason : longest)),
    attempt: 2,
  };
}

/** The expected delivery day as the receiver reads it (`Wed, Dec 30`), in the team's time zone. */
export function deliveryDay(at: Date, language: SmsLanguage, timeZone: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone,
  }).format(at);
}

/** Checked, compiled templates. */
export class SmsTemplates {
  // Private, so two loads of the same templates compare equal (settings are compared in tests).
  readonly #compiled = new Map<string, IntlMessageFormat>();

  private constructor(private readonly given: TemplatesFile) {}

  /** The text of `event` in `language` with `values`. */
  render(language: SmsLanguage, event: SmsEvent, values: SmsValues): string {
    return String(this.message(language, event).format({ ...values }));
  }

  private message(language: SmsLanguage, event: SmsEvent): IntlMessageFormat {
    const key = `${language}.${event}`;
    let message = this.#compiled.get(key);
    if (!message) {
      const source = this.given[language]?.[event] ?? DEFAULT_TEMPLATES[language][event];
      message = checked(source, language, event, `template ${key}`);
      this.#compiled.set(key, message);
    }
    return message;
  }

  /**
   * The shipped templates, each replaced by the file's where it has one (`{ "fil": { "booked": "…" } }`).
   * The file's are checked now, a problem thrown as one line naming `setting` and the template. The
   * shipped ones are checked by the tests and compiled when first used: checking formats a date and a
   * number, and the runtime's first date or number format costs several MB of memory.
   */
  static load(file: string | undefined, setting = 'SMS_TEMPLATES_FILE'): SmsTemplates {
    const given = file === undefined ? {} : readTemplatesFile(file, setting);
    const templates = new SmsTemplates(given);
    for (const [language, events] of Object.entries(given) as [SmsLanguage, TemplatesFile[SmsLanguage]][])
      for (const [event, source] of Object.entries(events ?? {}) as [SmsEvent, string][])
        templates.#compiled.set(
          `${language}.${event}`,
          checked(source, language, event, `${setting} template ${language}.${event}`),
        );
    return templates;
  }
}

/** A template problem, said in one line. */
export class TemplateError extends Error {}

type TemplatesFile = Partial<Record<SmsLanguage, Partial<Record<SmsEvent, string>>>>;

function readTemplatesFile(file: string, setting: string): TemplatesFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new TemplateError(`${setting} ${file} could not be read as JSON (${reason})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new TemplateError(`${setting} ${file} must hold an object of languages (en, fil)`);
  for (const [language, events] of Object.entries(parsed)) {
    if (!isSmsLanguage(language))
      throw new TemplateError(`${setting} has "${language}", not a language (one of en, fil)`);
    if (typeof events !== 'object' || events === null || Array.isArray(events))
      throw new TemplateError(
        `${setting} template ${language} must be an object of events (${SMS_EVENTS.join(', ')})`,
      );
    for (const [event, text] of Object.entries(events)) {
      if (!(SMS_EVENTS as readonly string[]).includes(event))
        throw new TemplateError(
          `${setting} template ${language}.${event} is not an event (one of ${SMS_EVENTS.join(', ')})`,
        );
      if (typeof text !== 'string' || text.trim() === '')
        throw new TemplateError(`${setting} template ${language}.${event} must be the template's text`);
    }
  }
  return parsed as TemplatesFile;
}

/** The names a message's elements use, however deep (selects and plurals hold messages of their own). */
function namesIn(elements: unknown): string[] {
  if (!Array.isArray(elements)) return [];
  return elements.flatMap(
    (element: { type?: unknown; value?: unknown; options?: Record<string, { value: unknown }> }) => [
      ...(isArgument(element) ? [element.value as string] : []),
      ...Object.values(element.options ?? {}).flatMap((option) => namesIn(option.value)),
    ],
  );
}

/** Literals (0) and `#` (7) name nothing; arguments, numbers, dates, times, selects and plurals (1 to 6) name one. */
const isArgument = (element: { type?: unknown }) =>
  typeof element.type === 'number' && element.type >= 1 && element.type <= 6;

type IntlMessageFormat = MessageFormat.IntlMessageFormat;
const require = createRequire(import.meta.url);
let messageFormat: typeof MessageFormat | undefined;
/**
 * intl-messageformat and its parser, loaded when the first template is compiled (an ES module
 * Node requires synchronously): a bot that texts nobody never holds them.
 */
const loadMessageFormat = () => {
  messageFormat ??= require('intl-messageformat') as typeof MessageFormat;
  return messageFormat.IntlMessageFormat;
};

function checked(source: string, language: SmsLanguage, event: SmsEvent, where: string): IntlMessageFormat {
  let message: IntlMessageFormat;
  try {
    message = new (loadMessageFormat())(source, language, undefined, { ignoreTag: true });
  } catch (err) {
    throw new TemplateError(
      `${where} is not ICU MessageFormat (${err instanceof Error ? err.message : err})`,
    );
  }
  const allowed = PLACEHOLDERS[event];
  const unknown = [...new Set(namesIn(message.getAst()))].filter((name) => !allowed.includes(name));
  if (unknown.length > 0) {
    throw new TemplateError(
      `${where} uses ${unknown.map((name) => `{${name}}`).join(', ')}, not one of ${allowed.map((name) => `{${name}}`).join(', ')}`,
    );
  }
  const text = String(message.format({ ...sampleValues(language) }));
  const size = smsSize(text);
  if (size.parts > 1) {
    throw new TemplateError(
      `${where} is ${size.units} ${size.encoding} characters with sample values, over the ${size.singlePart} of one SMS part${size.encoding === 'UCS-2' ? ' (a character outside GSM-7 makes it UCS-2)' : ''}`,
    );
  }
  return message;
}
