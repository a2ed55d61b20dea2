/**
 * Sandbox quotation pricing: a pure, deterministic function of a Quotation request.
 *
 * The courier does not state how it prices (the interface says "the relation between the three amounts is
 * not stated"); this is the sandbox's own formula:
 *
 *   chargeable kg  = max(packageWeight kg, volume cm³ / 5000), rounded up to a whole kg, minimum 1
 *                    volume = Packagevolume; if Packagevolume is empty, packageLength × packageWidth ×
 *                    packageHeight when all three are present, otherwise the weight alone counts
 *   DeliveryCharge = 100.00 base
 *                  + 40.00 per chargeable kg
 *                  + 150.00 if shipperCountry ≠ consigneeCountry (compared trimmed, case-insensitively)
 *                  + COD fee: 2 % of codAmount, when codAmount > 0
 *                  + valuation fee: 1 % of declaredValue
 *                    (each fee rounded half-up to the cent)
 *   VAT            = 12 % of DeliveryCharge, rounded half-up to the cent
 *   TotalCharge    = DeliveryCharge + VAT
 *
 * `quantity` multiplies nothing: the package measures describe the whole consignment, so a quantity of 5
 * costs the same as a quantity of 1. Other fields (ServiceType, paymentMethod, dates, addresses) do not
 * affect the price.
 *
 * All arithmetic is exact: decimal text is parsed into bigint units (value = units / 10^scale) and money is
 * kept in integer cents; conversion to a JS number happens only at the very end (cents / 100).
 */

import type { QuotationRequestWire } from '../wire-types.js';

export const BASE_CHARGE_CENTS = 100_00n;
export const PER_KG_CENTS = 40_00n;
export const INTERNATIONAL_SURCHARGE_CENTS = 150_00n;
export const COD_FEE_PERCENT = 2n;
export const VALUATION_FEE_PERCENT = 1n;
export const VAT_PERCENT = 12n;
export const VOLUMETRIC_DIVISOR_CM3_PER_KG = 5000n;

/** The fields of a Quotation request that the formula reads. */
export type PricingInput = Pick<
  QuotationRequestWire,
  | 'shipperCountry'
  | 'consigneeCountry'
  | 'codAmount'
  | 'declaredValue'
  | 'packageWeight'
  | 'Packagevolume'
  | 'packageLength'
  | 'packageWidth'
  | 'packageHeight'
>;

export interface PriceBreakdown {
  chargeableKg: number;
  /** Which measure decided the chargeable weight (`weight` when they tie or no volume is known). */
  decidedBy: 'weight' | 'volume';
  baseCents: number;
  weightChargeCents: number;
  internationalCents: number;
  codFeeCents: number;
  valuationFeeCents: number;
  deliveryChargeCents: number;
  vatCents: number;
  totalChargeCents: number;
}

/** 2.5 Quotation response body, as the sandbox sends it (numbers, two decimals at most). */
export interface QuotationResponse {
  DeliveryCharge: number;
  VAT: number;
  TotalCharge: number;
}

interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^\d+(?:\.\d+)?$/;

/** Parses non-negative decimal text ("12", "0.5", "1500.00") exactly. Throws RangeError otherwise. */
function parseDecimal(text: string, field: string): Decimal {
  const t = text.trim();
  if (!DECIMAL_TEXT.test(t))
    throw new RangeError(`${field}: not non-negative decimal text: ${JSON.stringify(text)}`);
  const [whole = '0', frac = ''] = t.split('.');
  return { units: BigInt(whole + frac), scale: frac.length };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** ceil(a / b) for a ≥ 0, b > 0. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** round-half-up(a / b) for a ≥ 0, b > 0. */
const roundHalfUpDiv = (a: bigint, b: bigint): bigint => (2n * a + b) / (2n * b);

/** Exact amount in cents of money text; more than two decimals are rounded half-up to the cent. */
function toCents(text: string, field: string): bigint {
  const d = parseDecimal(text, field);
  return d.scale <= 2 ? d.units * pow10(2 - d.scale) : roundHalfUpDiv(d.units, pow10(d.scale - 2));
}

/** `percent` % of `cents`, rounded half-up to the cent. */
const percentOf = (cents: bigint, percent: bigint): bigint => roundHalfUpDiv(cents * percent, 100n);

const isBlank = (s: string): boolean => s.trim() === '';

/** Whole kilograms (rounded up) of the volume, or null when no volume is known. */
function volumetricKg(input: PricingInput): bigint | null {
  let volume: Decimal;
  if (!isBlank(input.Packagevolume)) {
    volume = parseDecimal(input.Packagevolume, 'Packagevolume');
  } else if (![input.packageLength, input.packageWidth, input.packageHeight].some(isBlank)) {
    const l = parseDecimal(input.packageLength, 'packageLength');
    const w = parseDecimal(input.packageWidth, 'packageWidth');
    const h = parseDecimal(input.packageHeight, 'packageHeight');
    volume = { units: l.units * w.units * h.units, scale: l.scale + w.scale + h.scale };
  } else {
    return null;
  }
  return ceilDiv(volume.units, VOLUMETRIC_DIVISOR_CM3_PER_KG * pow10(volume.scale));
}

/**
 * Prices a quotation with the formula at the top of this file. Pure; throws RangeError when an amount or
 * measure the formula reads is not non-negative decimal text (empty measures are allowed and mean "unknown").
 */
export function priceQuotation(input: PricingInput): PriceBreakdown {
  const weight = isBlank(input.packageWeight)
    ? { units: 0n, scale: 0 }
    : parseDecimal(input.packageWeight, 'packageWeight');
  const weightKg = ceilDiv(weight.units, pow10(weight.scale));
  const volumeKg = volumetricKg(input);
  const decidedBy = volumeKg !== null && volumeKg > weightKg ? 'volume' : 'weight';
  let chargeableKg = decidedBy === 'volume' && volumeKg !== null ? volumeKg : weightKg;
  if (chargeableKg < 1n) chargeableKg = 1n;

  const international =
    input.shipperCountry.trim().toUpperCase() !== input.consigneeCountry.trim().toUpperCase();
  const cod = toCents(input.codAmount, 'codAmount');
  const declared = toCents(input.declaredValue, 'declaredValue');

  const weightCharge = PER_KG_CENTS * chargeableKg;
  const internationalCharge = international ? INTERNATIONAL_SURCHARGE_CENTS : 0n;
  const codFee = cod > 0n ? percentOf(cod, COD_FEE_PERCENT) : 0n;
  const valuationFee = percentOf(declared, VALUATION_FEE_PERCENT);
  const delivery = BASE_CHARGE_CENTS + weightCharge + internationalCharge + codFee + valuationFee;
  const vat = percentOf(delivery, VAT_PERCENT);

  return {
    chargeableKg: Number(chargeableKg),
    decidedBy,
    baseCents: Number(BASE_CHARGE_CENTS),
    weightChargeCents: Number(weightCharge),
    internationalCents: Number(internationalCharge),
    codFeeCents: Number(codFee),
    valuationFeeCents: Number(valuationFee),
    deliveryChargeCents: Number(delivery),
    vatCents: Number(vat),
    totalChargeCents: Number(delivery + vat),
  };
}

/** Cents to the JSON number the courier sends (e.g. 24640 -> 246.4, serialised as 246.4). */
export const centsToAmount = (cents: number): number => cents / 100;

/** The Quotation response body for a request. */
export function quotationResponse(input: PricingInput): QuotationResponse {
  const p = priceQuotation(input);
  return {
    DeliveryCharge: centsToAmount(p.deliveryChargeCents),
    VAT: centsToAmount(p.vatCents),
    TotalCharge: centsToAmount(p.totalChargeCents),
  };
}
