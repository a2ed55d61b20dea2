/** Field schemas with the dispatcher's label in every message: text, money, measures, dates, phones. */
import * as z from 'zod';
import type { Choice } from './catalog.js';
import { HOME_COUNTRY, readPhone } from './phones.js';

/**
 * Field schemas with the dispatcher's label baked into every message, so an error can be
 * shown as is, next to the input it belongs to. Inputs arrive as typed text (forms send
 * strings, Slack sends null for an empty input); outputs are the domain's values.
 */

/** An amount in canonical two-place text, e.g. "1500.00": no floating point on the money path. */
export type Money = string;

/** The most any amount of a booking may be: 999,999,999.99. */
export const MAX_MONEY_CENTS = 99_999_999_999n;

type Ctx = z.RefinementCtx;

/**
 * What was typed, trimmed (null, undefined and whitespace-only all mean "not given": ''), then
 * `read`, in one step of the schema: a form has dozens of fields, and every step of every field is
 * run on each submission before its acknowledgement.
 */
function typedAs<T>(label: string, read: (value: string, ctx: Ctx) => T) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      if (value === null || value === undefined) return read('', ctx);
      if (typeof value === 'string') return read(value.trim(), ctx);
      if (typeof value === 'number' && Number.isFinite(value)) return read(String(value), ctx);
      ctx.addIssue({ code: 'custom', message: `${label} must be text` });
      return z.NEVER;
    });
}

/** A check of typed text, and what is said when it fails. */
type Check = readonly [holds: (value: string) => boolean, message: string];

/** Typed text, as `written` writes it, that holds every check; the first that fails is the issue. */
function checked(label: string, checks: Check[], written: (typed: string) => string = (typed) => typed) {
  return typedAs(label, (typed, ctx): string => {
    const value = written(typed);
    const failed = checks.find(([holds]) => !holds(value));
    if (!failed) return value;
    ctx.addIssue({ code: 'custom', message: failed[1] });
    return z.NEVER;
  });
}

export interface TextOptions {
  max: number;
  required?: boolean;
}

export function text(label: string, { max, required = false }: TextOptions) {
  return checked(label, [
    [(value) => !required || value.length > 0, `${label} is required`],
    [(value) => [...value].length <= max, `${label} must be at most ${max} characters`],
    // Tabs and line breaks are fine; other control characters are never typed on purpose.
    [(value) => !/[^\P{Cc}\t\n\r]/u.test(value), `${label} must not contain control characters`],
  ]);
}

export function choice(label: string, choices: readonly Choice[]) {
  const allowed = new Set(choices.map((c) => c.value));
  return checked(label, [
    [(value) => value.length > 0, `${label} is required`],
    [(value) => allowed.has(value), `${label} must be one of the listed options`],
  ]);
}

/** Parses "1500", "1,500.5" or 1500.5 into cents; undefined when it is not an amount. */
export function parseCents(value: string): bigint | undefined {
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(value) ? value.replaceAll(',', '') : value;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return undefined;
  return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

export function formatCents(cents: bigint): Money {
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** "PHP 1,234.50" from "1234.50". */
export function formatMoney(amount: string, currency: string): string {
  const [whole = '0', fraction = '00'] = amount.split('.');
  return `${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** An amount ≥ 0 with at most two decimals; an empty input is 0.00. */
export function money(label: string) {
  return typedAs(label, (value, ctx): Money => {
    if (value === '') return '0.00';
    if (/^-/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `${label} must not be negative` });
      return z.NEVER;
    }
    const cents = parseCents(value);
    if (cents === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} must be an amount with at most two decimals, e.g. 1500.00`,
      });
      return z.NEVER;
    }
    if (cents > MAX_MONEY_CENTS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be at most ${formatCents(MAX_MONEY_CENTS)}` });
      return z.NEVER;
    }
    return formatCents(cents);
  });
}

interface DecimalOptions {
  required: boolean;
  min: number;
  max: number;
  /** Measures must be more than `min`; coordinates may equal their bounds. */
  exclusiveMin?: boolean;
  unit?: string;
}

function decimal(label: string, { required, min, max, exclusiveMin = false, unit = '' }: DecimalOptions) {
  const range = exclusiveMin ? `more than ${min} and at most ${max}` : `between ${min} and ${max}`;
  const unitText = unit && ` ${unit}`;
  return typedAs(label, (value, ctx): number | undefined => {
    if (value === '') {
      if (required) ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return undefined;
    }
    const number = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
    const tooLow = exclusiveMin ? number <= min : number < min;
    if (Number.isNaN(number) || tooLow || number > max) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a number ${range}${unitText}` });
      return z.NEVER;
    }
    return number;
  });
}

/** A length, width, height, weight or volume: a number > 0. */
export function measure(label: string, { required = false, max = 1_000_000, unit = '' } = {}) {
  return decimal(label, { required, min: 0, max, exclusiveMin: true, unit });
}

export const requiredMeasure = (label: string, options: { max?: number; unit?: string } = {}) =>
  measure(label, { ...options, required: true }).pipe(z.number());

export function latitude(label: string) {
  return decimal(label, { required: false, min: -90, max: 90 });
}

export function longitude(label: string) {
  return decimal(label, { required: false, min: -180, max: 180 });
}

/** A whole number ≥ 1; undefined when not given, so the operation can apply its own default. */
export function quantity(label: string, max = 999) {
  return typedAs(label, (value, ctx): number | undefined => {
    if (value === '') return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a whole number from 1 to ${max}` });
      return z.NEVER;
    }
    return Number(value);
  });
}

export function country(label: string, { required = false } = {}) {
  return checked(label, [
    [(value) => !required || value.length > 0, `${label} is required`],
    [
      (value) => value === '' || /^[A-Za-z]{2}$/.test(value),
      `${label} must be a two-letter country code, e.g. PH`,
    ],
  ]).transform((value) => value.toUpperCase());
}

const anEmail = z.email();

export function email(label: string) {
  return checked(label, [
    [(value) => value.length <= 254, `${label} must be at most 254 characters`],
    [
      (value) => value === '' || anEmail.safeParse(value).success,
      `${label} must be an e-mail address like name@example.com`,
    ],
  ]);
}

/**
 * A phone as typed. Whether it can be dialled depends on its party's country, so the schemas check it
 * with the party (`readPhone`, phones.ts); `homePhone` checks one of the courier's own country here.
 */
export function phone(label: string, { required = false } = {}) {
  return checked(label, [
    [(value) => !required || value.length > 0, `${label} is required`],
    [(value) => value.length <= PHONE_MAX_LENGTH, `${label} must be at most ${PHONE_MAX_LENGTH} characters`],
  ]);
}

/** The longest phone and tracking number, as typed: what their form inputs hold. */
export const PHONE_MAX_LENGTH = 30;
export const TRACKING_NUMBER_MAX_LENGTH = 50;

/** A phone of the courier's own country (the operator's), checked and written as the courier gets it. */
export function homePhone(label: string, { required = false } = {}) {
  return phone(label, { required }).transform((value, ctx): string => {
    if (value === '') return value;
    const reading = readPhone(value, HOME_COUNTRY);
    if (reading.ok) return reading.written;
    ctx.addIssue({ code: 'custom', message: `${label} ${reading.problem}` });
    return z.NEVER;
  });
}

/**
 * A tracking number as we write it, from however it was typed: in upper case, without the spaces around
 * it or a leading `#` (" # wb000001" is WB000001), so every surface finds the same booking.
 */
export function writtenTrackingNumber(typed: string): string {
  return typed
    .trim()
    .replace(/^#+\s*/, '')
    .toUpperCase();
}

/** Letters, digits, dashes and underscores, as printed on a label; written as `writtenTrackingNumber` does. */
export function trackingNumber(label: string, { required = true } = {}) {
  return checked(
    label,
    [
      [(value) => !required || value.length > 0, `${label} is required`],
      [
        (value) => value.length <= TRACKING_NUMBER_MAX_LENGTH,
        `${label} must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters`,
      ],
      [
        (value) => value === '' || /^[A-Za-z0-9_-]+$/.test(value),
        `${label} may contain only letters, digits, - and _`,
      ],
    ],
    writtenTrackingNumber,
  );
}

/** A calendar date, YYYY-MM-DD, that exists. */
export function calendarDate(label: string, { required = false } = {}) {
  return checked(label, [
    [(value) => !required || value.length > 0, `${label} is required`],
    [(value) => value === '' || isCalendarDate(value), `${label} must be a date like 2026-11-23`],
  ]);
}

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().startsWith(value);
}

/** An instant: a Date, or ISO 8601 text with an offset whose calendar date exists. */
export function instant(label: string) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): Date => {
      const text = typeof value === 'string' ? value.trim() : value;
      if (text === undefined || text === null || text === '') {
        ctx.addIssue({ code: 'custom', message: `${label} is required` });
        return z.NEVER;
      }
      const date =
        text instanceof Date
          ? text
          : typeof text === 'string' &&
              /(Z|[+-]\d{2}:?\d{2})$/.test(text) &&
              isCalendarDate(text.slice(0, 10))
            ? new Date(text)
            : undefined;
      // The wire writes four-digit years.
      const year = date?.getUTCFullYear() ?? Number.NaN;
      if (!date || Number.isNaN(date.getTime()) || year < 1970 || year > 9998) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a date and time` });
        return z.NEVER;
      }
      return date;
    });
}

/** A JSON object (not null, not an array): what a group of fields or a response body must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored record's field, read without trusting its shape: `undefined` where it is not an object. */
export function fieldOf(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

/** The value at a dotted path (`consignee.phone`, `childWaybills.2.weight`); undefined where there is none. */
export function getPath(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => {
    if (typeof node !== 'object' || node === null) return undefined;
    return (node as Record<string, unknown>)[key];
  }, source);
}

/** A stored record's text, or '' where it is not text. */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
