/** The courier's COD fee: what it keeps of a booking's COD (a percentage, a fixed part, bounds, VAT on it), in whole centavos. */
import { formatCents, type Money, parseCents } from './fields.js';

/** A percentage in ten-thousandths of a percent: `2.75` is 27_500, so no float touches it. */
export type Percent = bigint;
const PERCENT_SCALE = 10_000n;

/** `2.75` (0 to 100, at most four decimals) as a Percent; undefined when it is not one. */
export function parsePercent(text: string): Percent | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text);
  if (!match) return undefined;
  const value = BigInt(match[1] ?? '0') * PERCENT_SCALE + BigInt((match[2] ?? '').padEnd(4, '0'));
  return value <= 100n * PERCENT_SCALE ? value : undefined;
}

/** The fee rule of the courier's contract, from the settings; amounts in cents. */
export interface CodFeeRule {
  percent: Percent;
  /** Per booking, added to the percentage. */
  fixed: bigint;
  /** Bounds of the fee before VAT. */
  min?: bigint;
  max?: bigint;
  vatPercent: Percent;
  /** Per returned COD booking. */
  returnFee: bigint;
  /** The first booking day (YYYY-MM-DD in the waybill's time zone) the rule is in force; undefined: every booking. */
  from?: string;
}

/** No fee at all: the rule when no COD_FEE_ setting is given. */
export const NO_FEE: CodFeeRule = { percent: 0n, fixed: 0n, vatPercent: 0n, returnFee: 0n };

/** `cents × percent`, rounded half up to the centavo. */
function percentOf(cents: bigint, percent: Percent): bigint {
  const whole = 100n * PERCENT_SCALE;
  return (cents * percent * 2n + whole) / (2n * whole);
}

/**
 * What the courier keeps of a booking's COD under `rule`, as two-place text: the percentage and the
 * fixed part, each rounded half up to the centavo, held within the bounds, then VAT on that fee, also
 * rounded; never more than the COD itself. A booking made before the rule's `from` day pays none.
 */
export function codFee(rule: CodFeeRule, codAmount: Money, bookedDay: string): Money {
  const cod = parseCents(codAmount) ?? 0n;
  if (cod === 0n || (rule.from !== undefined && bookedDay < rule.from)) return '0.00';
  let fee = rule.fixed + percentOf(cod, rule.percent);
  if (rule.min !== undefined && fee < rule.min) fee = rule.min;
  if (rule.max !== undefined && fee > rule.max) fee = rule.max;
  const withVat = fee + percentOf(fee, rule.vatPercent);
  return formatCents(withVat < cod ? withVat : cod);
}
