/**
 * Tolerant reading of the courier's response bodies (pure, no I/O).
 *
 * The interface (docs/courier-interface.md, §2.3-2.5) spells the fields `ResponseCode` (string "200"),
 * `TrackingRefNo`, `ResponseDetail`, `remarks`, `ResponseMessage`, `DeliveryCharge`, `VAT`, `TotalCharge`.
 * An older public client of the same vendor shows `ResponseCode` as the number 200 and lower-camel
 * spellings, so each field is looked up under both spellings, numbers and numeric strings are both
 * accepted, and unknown extra fields are ignored.
 */

import { isObject } from './fields.js';

export interface QuoteResult {
  deliveryCharge: string; // two-place decimal text, e.g. "120.00"
  vat: string;
  totalCharge: string;
}

export interface BookingResult {
  trackingRefNo: string;
  responseDetail: string;
  remarks: string;
  returnNum?: number;
  id?: number;
}

export interface UpdateResult {
  responseMessage: string;
  responseDetail: string;
}

export interface Rejection {
  responseCode: string;
  responseDetail: string;
  remarks: string;
}

export type ReadOutcome<T> =
  | { kind: 'ok'; value: T }
  | ({ kind: 'rejected' } & Rejection)
  | { kind: 'malformed'; reason: string };

const SUCCESS_CODE = '200';

type JsonObject = Record<string, unknown>;

/** First value present (not undefined/null) under any of the given spellings. */
function pick(body: JsonObject, ...keys: string[]): unknown {
  for (const key of keys) {
    const v = body[key];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A text field: strings as they are, finite numbers as their text, anything else absent. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function integer(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v)) return Number.parseInt(v, 10);
  return undefined;
}

/**
 * The ResponseCode of a body: `'absent'` when there is none, `'invalid'` when it has an unusable type,
 * else its text ("200" for both "200" and 200).
 */
export function readResponseCode(body: unknown): string | 'absent' | 'invalid' {
  if (!isObject(body)) return 'absent';
  const raw = pick(body, 'ResponseCode', 'responseCode');
  if (raw === undefined) return 'absent';
  if (typeof raw === 'number' && Number.isInteger(raw)) return String(raw);
  if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
  return 'invalid';
}

function rejectionOf(body: JsonObject, responseCode: string): { kind: 'rejected' } & Rejection {
  return {
    kind: 'rejected',
    responseCode,
    responseDetail:
      text(pick(body, 'ResponseDetail', 'responseDetail')) ??
      text(pick(body, 'ResponseMessage', 'responseMessage')) ??
      '',
    remarks: text(pick(body, 'remarks', 'Remarks')) ?? '',
  };
}

/**
 * Common head of every reader: a non-object is malformed, a ResponseCode other than 200 is a rejection.
 * Returns the object and its code when reading should go on.
 */
function head(
  body: unknown,
):
  | { body: JsonObject; code: string | 'absent' }
  | ({ kind: 'rejected' } & Rejection)
  | { kind: 'malformed'; reason: string } {
  if (!isObject(body)) return { kind: 'malformed', reason: 'body is not a JSON object' };
  const code = readResponseCode(body);
  if (code === 'invalid') return { kind: 'malformed', reason: 'ResponseCode has an unusable value' };
  if (code !== 'absent' && code !== SUCCESS_CODE) return rejectionOf(body, code);
  return { body, code };
}

export function readQuoteResponse(raw: unknown): ReadOutcome<QuoteResult> {
  const h = head(raw);
  if ('kind' in h) return h;
  const { body } = h;
  const deliveryCharge = normaliseAmount(pick(body, 'DeliveryCharge', 'deliveryCharge'));
  const vat = normaliseAmount(pick(body, 'VAT', 'vat', 'Vat'));
  const totalCharge = normaliseAmount(pick(body, 'TotalCharge', 'totalCharge'));
  const missing = [
    deliveryCharge === undefined ? 'DeliveryCharge' : undefined,
    vat === undefined ? 'VAT' : undefined,
    totalCharge === undefined ? 'TotalCharge' : undefined,
  ].filter((x) => x !== undefined);
  if (deliveryCharge === undefined || vat === undefined || totalCharge === undefined) {
    return { kind: 'malformed', reason: `missing or non-numeric ${missing.join(', ')}` };
  }
  return { kind: 'ok', value: { deliveryCharge, vat, totalCharge } };
}

export function readBookingResponse(raw: unknown): ReadOutcome<BookingResult> {
  const h = head(raw);
  if ('kind' in h) return h;
  const { body, code } = h;
  if (code === 'absent') return { kind: 'malformed', reason: 'missing ResponseCode' };
  const trackingRefNo = text(pick(body, 'TrackingRefNo', 'trackingRefNo', 'TrackingRefNO'))?.trim();
  if (!trackingRefNo) return { kind: 'malformed', reason: 'missing TrackingRefNo' };
  const value: BookingResult = {
    trackingRefNo,
    responseDetail: text(pick(body, 'ResponseDetail', 'responseDetail')) ?? '',
    remarks: text(pick(body, 'remarks', 'Remarks')) ?? '',
  };
  const returnNum = integer(pick(body, 'returnNum', 'ReturnNum'));
  if (returnNum !== undefined) value.returnNum = returnNum;
  const id = integer(pick(body, 'id', 'Id', 'ID'));
  if (id !== undefined) value.id = id;
  return { kind: 'ok', value };
}

/**
 * Update success: ResponseCode 200, or no ResponseCode and at least one of the two texts of 2.4
 * (a bare `{}` is not taken as proof that the update happened).
 */
export function readUpdateResponse(raw: unknown): ReadOutcome<UpdateResult> {
  const h = head(raw);
  if ('kind' in h) return h;
  const { body, code } = h;
  const responseMessage = text(pick(body, 'ResponseMessage', 'responseMessage'));
  const responseDetail = text(pick(body, 'ResponseDetail', 'responseDetail'));
  if (code === 'absent' && responseMessage === undefined && responseDetail === undefined) {
    return { kind: 'malformed', reason: 'missing ResponseMessage and ResponseDetail' };
  }
  return {
    kind: 'ok',
    value: { responseMessage: responseMessage ?? '', responseDetail: responseDetail ?? '' },
  };
}

/** Parses a response text as JSON; `undefined` when it is not JSON. */
export function parseJson(textBody: string): { value: unknown } | undefined {
  if (textBody.trim() === '') return undefined;
  try {
    return { value: JSON.parse(textBody) as unknown };
  } catch {
    return undefined;
  }
}

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * Normalises an amount (number or numeric text) to a two-place decimal string, rounding half-up
 * (half away from zero) on the decimal text with integer arithmetic, so 1.005 gives "1.01" and
 * 0.1 + 0.2 gives "0.30". Returns undefined for anything that is not a finite decimal number.
 */
export function normaliseAmount(v: unknown): string | undefined {
  let src: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    src = String(v); // shortest round-tripping text, may use exponent notation
  } else if (typeof v === 'string') {
    src = v.trim();
  } else {
    return undefined;
  }
  const m = DECIMAL.exec(src);
  if (!m) return undefined;
  const [, sign, intPart = '', fracPart = '', expPart] = m;
  if (intPart === '' && fracPart === '') return undefined;
  // digits * 10^(exp - fracPart.length)
  const digits = `${intPart}${fracPart}`.replace(/^0+(?=\d)/, '');
  const exp = (expPart ? Number.parseInt(expPart, 10) : 0) - fracPart.length;
  // Express as an integer number of cents, rounding half-up on the dropped digits.
  const shift = exp + 2; // cents = digits * 10^shift
  let cents: bigint;
  if (shift >= 0) {
    if (shift > 30) return undefined; // absurd magnitude
    cents = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const drop = -shift;
    if (drop > digits.length) {
      cents = 0n; // everything dropped is below half a cent
    } else {
      const kept = digits.slice(0, digits.length - drop) || '0';
      const firstDropped = digits.charAt(digits.length - drop);
      cents = BigInt(kept) + (firstDropped >= '5' ? 1n : 0n);
    }
  }
  const negative = sign === '-' && cents !== 0n;
  const s = cents.toString().padStart(3, '0');
  return `${negative ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/**
 * A short, single-line excerpt of a response body for errors and logs: script/style blocks and HTML tags
 * removed, common entities decoded, whitespace collapsed, cut to `max` characters. `scrub` removes
 * secrets before anything is cut (a cut through a token would leave part of it that no longer matches),
 * and again once entities are decoded.
 */
export function bodyExcerpt(body: string, scrub: (text: string) => string, max = 200): string {
  const flat = scrub(
    scrub(body)
      .slice(0, 20_000)
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/gi, ' ')
      .replace(/&lt;/gi, '<')
      .replace(/&gt;/gi, '>')
      .replace(/&quot;/gi, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/gi, '&')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
