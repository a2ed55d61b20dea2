/** Forms as Block Kit inputs: fields to blocks, Slack's state back to values, errors to their block. */
import type { InputBlock, KnownBlock, PlainTextOption } from '@slack/types';
import type * as z from 'zod';
import type { Choice } from '../../waybill/catalog.js';
import { getPath } from '../../waybill/fields.js';
import type { PlaceLevel } from '../../waybill/places.js';
import { type FieldError, validate } from '../../waybill/schemas.js';
import { cut } from './blocks.js';

/**
 * Forms whose block ids are the schema paths of their fields (`consignee.phone`,
 * `childWaybills.2.weight`), so Slack's `view.state.values` reads straight into the raw input the
 * zod schema validates, and each zod error lands under its own input. A `#suffix` on a block id
 * (`childWaybills.2.weight#r3`) is ignored when reading: it gives a rebuilt row a fresh identity.
 */

export type FieldKind =
  | 'text'
  | 'multiline'
  | 'decimal'
  | 'integer'
  | 'select'
  | 'date'
  | 'time'
  | 'email'
  /** A part of an address chosen from the official place list by type-ahead (external_select). */
  | 'place';

export interface FormField {
  path: string;
  label: string;
  kind: FieldKind;
  hint?: string;
  placeholder?: string;
  maxLength?: number;
  options?: readonly Choice[];
  /** Which part of the place list a `place` field offers. */
  level?: PlaceLevel;
}

export { getPath };

export const VALUE_ACTION = 'value';

type StateValue = {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string }[] | null;
  selected_date?: string | null;
  selected_time?: string | null;
  timezone?: string;
};

export type StateValues = Record<string, Record<string, StateValue>>;

export function pathOfBlock(blockId: string): string {
  const hash = blockId.indexOf('#');
  return hash === -1 ? blockId : blockId.slice(0, hash);
}

function readStateValue(state: StateValue): unknown {
  switch (state.type) {
    case 'static_select':
    case 'external_select':
      return state.selected_option?.value ?? null;
    case 'multi_static_select':
      return (state.selected_options ?? []).flatMap((option) => option.value ?? []);
    case 'datepicker':
      return state.selected_date ?? null;
    case 'timepicker':
      return state.selected_time ? { time: state.selected_time, timeZone: state.timezone } : null;
    default:
      return state.value ?? null;
  }
}

/** Keys no form path has: writing them would reach Object.prototype. */
const unsafeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** No form has more rows than this; a larger index in a block id is not ours. */
const MAX_INDEX = 99;

/**
 * Sets `a.b.0.c` in a nested object, creating objects and arrays on the way. A path that no form
 * of ours could have (a prototype key, a huge row index) is ignored.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys.some((key) => unsafeKeys.has(key) || (/^\d+$/.test(key) && Number(key) > MAX_INDEX))) return;
  let node: Record<string, unknown> = target;
  keys.forEach((key, index) => {
    if (index === keys.length - 1) {
      node[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(keys[index + 1] ?? '');
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

/** The raw input a view's state holds: every input block, keyed by its path. */
export function readFormState(values: StateValues | undefined): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [blockId, actions] of Object.entries(values ?? {})) {
    const state = actions?.[VALUE_ACTION];
    if (state && typeof state === 'object') setPath(raw, pathOfBlock(blockId), readStateValue(state));
  }
  return raw;
}

/**
 * Zod errors to Slack's `{ block_id: message }`. An error whose field has no input of its own
 * (`pickupAt` shown as date + time inputs) goes to the first input under it; one with no input at
 * all goes to the first input of the form, so it is never silently dropped.
 */
export function slackErrors(
  errors: readonly FieldError[],
  blockIds: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  const add = (blockId: string | undefined, message: string) => {
    if (!blockId) return;
    result[blockId] = result[blockId] ? `${result[blockId]}; ${message}` : message;
  };
  for (const error of errors) {
    const exact = blockIds.find((id) => pathOfBlock(id) === error.path);
    const below = blockIds.find((id) => pathOfBlock(id).startsWith(`${error.path}.`));
    add(exact ?? below ?? blockIds[0], error.message);
  }
  return result;
}

/** Input block ids of a view, in order. */
export function inputBlockIds(blocks: readonly { type?: string; block_id?: string }[] | undefined): string[] {
  return (blocks ?? []).filter((b) => b.type === 'input' && b.block_id).map((b) => b.block_id as string);
}

/**
 * The paths of the fields the schema requires, found by validating an all-empty form: the schema
 * stays the one place that says what is required, and the form marks exactly those inputs. A field
 * is required when an "is required" error names it or a group it is part of (a date of `pickupAt`).
 * `prepare` turns form values into schema input where the two differ.
 */
export function requiredPaths(
  schema: z.ZodType,
  fields: readonly FormField[],
  prepare: (raw: Record<string, unknown>) => unknown = (raw) => raw,
): Set<string> {
  const empty: Record<string, unknown> = {};
  for (const field of fields) setPath(empty, field.path, '');
  const result = validate(schema, prepare(empty));
  const required = result.ok
    ? []
    : result.errors.filter((e) => / is required$/.test(e.message)).map((e) => e.path);
  return new Set(
    fields
      .map((field) => field.path)
      .filter((path) => required.some((error) => path === error || path.startsWith(`${error}.`))),
  );
}

export function option(choice: Choice): PlainTextOption {
  return { text: { type: 'plain_text', text: choice.label, emoji: true }, value: choice.value };
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** Slack's limits on an external select's answer (its options), and on an option's text and value. */
export const MAX_OPTIONS = 100;
export const MAX_OPTION_TEXT = 75;
const MAX_OPTION_VALUE = 150;

/**
 * A place as an option, its value what the courier gets. A pre-filled value need not be on the list:
 * it is shown as it was typed (an external select's initial option is never checked against its
 * options), and the form's check says what to choose instead.
 */
export function placeOption(name: string, where?: string): PlainTextOption {
  return {
    text: plain(cut(name, MAX_OPTION_TEXT)),
    value: name.slice(0, MAX_OPTION_VALUE),
    ...(where ? { description: plain(cut(where, MAX_OPTION_TEXT)) } : {}),
  };
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why `text` cannot be the initial value of a field's input, in words ("must be a whole number"), or
 * undefined if it fits. Slack refuses a whole view over one such value (views.open answers
 * invalid_arguments), so a form never carries one; a pre-fill that does not fit is said back instead.
 */
export function misfit(field: FormField, text: string): string | undefined {
  switch (field.kind) {
    case 'select':
      return (field.options ?? []).some((o) => o.value === text) ? undefined : 'is not one of the choices';
    case 'date':
      return isCalendarDate(text) ? undefined : 'must be a date, YYYY-MM-DD';
    case 'time':
      return /^([01]\d|2[0-3]):[0-5]\d$/.test(text) ? undefined : 'must be a time, HH:MM';
    case 'integer':
      return /^-?\d+$/.test(text) ? undefined : 'must be a whole number';
    case 'decimal':
      return /^-?\d+(\.\d+)?$/.test(text) ? undefined : 'must be a number, e.g. 2.5';
    default:
      return undefined;
  }
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

function element(field: FormField, initial: unknown): InputBlock['element'] {
  const given = asText(field.kind === 'time' ? (getPath(initial, 'time') ?? initial) : initial);
  const text = given !== undefined && !misfit(field, given) ? given : undefined;
  const placeholder = field.placeholder ? { placeholder: plain(field.placeholder) } : {};
  switch (field.kind) {
    case 'select': {
      const options = (field.options ?? []).map(option);
      const initialOption = options.find((o) => o.value === text);
      return {
        type: 'static_select',
        action_id: VALUE_ACTION,
        options,
        ...(initialOption ? { initial_option: initialOption } : {}),
        ...placeholder,
      };
    }
    case 'place':
      return {
        type: 'external_select',
        action_id: VALUE_ACTION,
        // Opened empty it lists the places within the part above: a province's cities, a city's barangays.
        min_query_length: 0,
        ...(text ? { initial_option: placeOption(text) } : {}),
        ...placeholder,
      };
    case 'date':
      return {
        type: 'datepicker',
        action_id: VALUE_ACTION,
        ...(text ? { initial_date: text } : {}),
        ...placeholder,
      };
    case 'time':
      return {
        type: 'timepicker',
        action_id: VALUE_ACTION,
        ...(text ? { initial_time: text } : {}),
        ...placeholder,
      };
    case 'decimal':
    case 'integer':
      return {
        type: 'number_input',
        action_id: VALUE_ACTION,
        is_decimal_allowed: field.kind === 'decimal',
        ...(text ? { initial_value: text } : {}),
        ...placeholder,
      };
    case 'email':
      return {
        type: 'email_text_input',
        action_id: VALUE_ACTION,
        ...(text ? { initial_value: text } : {}),
        ...placeholder,
      };
    default:
      return {
        type: 'plain_text_input',
        action_id: VALUE_ACTION,
        multiline: field.kind === 'multiline',
        ...(field.maxLength ? { max_length: field.maxLength } : {}),
        ...(text ? { initial_value: text.slice(0, field.maxLength ?? 3000) } : {}),
        ...placeholder,
      };
  }
}

export interface InputOptions {
  values: unknown;
  required: ReadonlySet<string>;
  /** Appended to block ids as `#suffix`, to reset inputs Slack already holds state for. */
  suffix?: string;
}

export function inputBlock(field: FormField, { values, required, suffix }: InputOptions): InputBlock {
  return {
    type: 'input',
    block_id: suffix ? `${field.path}#${suffix}` : field.path,
    label: plain(field.label),
    optional: !required.has(field.path),
    element: element(field, getPath(values, field.path)),
    ...(field.hint ? { hint: plain(field.hint) } : {}),
  };
}

export function inputBlocks(fields: readonly FormField[], options: InputOptions): KnownBlock[] {
  return fields.map((field) => inputBlock(field, options));
}
/** What typed values the next render should show: this step's state over the draft's values. */
export function mergeInput(
  draft: Record<string, unknown>,
  typed: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...draft };
  for (const [key, value] of Object.entries(typed)) {
    const before = merged[key];
    const bothObjects =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof before === 'object' &&
      before !== null;
    if (Array.isArray(value) && Array.isArray(before)) {
      merged[key] = Array.from({ length: Math.max(value.length, before.length) }, (_, i) =>
        value[i] === undefined
          ? before[i]
          : mergeInput((before[i] ?? {}) as Record<string, unknown>, value[i]),
      );
    } else {
      merged[key] = bothObjects
        ? mergeInput(before as Record<string, unknown>, value as Record<string, unknown>)
        : value;
    }
  }
  return merged;
}

/**
 * What a feature works out from a schema and settings (its form's fields and required set), built at
 * first use and kept for that schema object and those settings' values: every core of the same
 * settings shares it (one core in production; many bots in a test run), and a setting that differs
 * gets its own. The core itself knows no feature's form.
 */
export function perSettings<S extends object, A extends unknown[], T>(
  build: (schema: S, ...settings: A) => T,
): (schema: S, ...settings: A) => T {
  const built = new WeakMap<S, Map<string, T>>();
  return (schema, ...settings) => {
    let bySettings = built.get(schema);
    if (bySettings === undefined) {
      bySettings = new Map();
      built.set(schema, bySettings);
    }
    const key = JSON.stringify(settings);
    let value = bySettings.get(key);
    if (value === undefined) {
      value = build(schema, ...settings);
      bySettings.set(key, value);
    }
    return value;
  };
}
