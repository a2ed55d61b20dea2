/** Which receivers' phones can be texted: Philippine mobile numbers only (the gateway texts nowhere else). */
import { dialable, HOME_COUNTRY } from '../waybill/phones.js';

/** A phone as the gateway takes it (`639171234567`), or why it is not texted. */
export type MobileReading = { ok: true; number: string } | { ok: false; problem: string };

/**
 * A Philippine mobile number however it was typed (`0917 123 4567`, `+63 917 123 4567`): landlines,
 * numbers of other countries and numbers that cannot be dialled are not texted. libphonenumber's
 * "max" metadata tells a mobile from a landline, as the booking form's phone check already does.
 */
export function readMobile(phone: string, country?: string): MobileReading {
  const number = dialable(phone, HOME_COUNTRY);
  if (!number) return { ok: false, problem: 'not a phone number that can be dialled' };
  if (number.country !== HOME_COUNTRY || (country && country.toUpperCase() !== HOME_COUNTRY))
    return { ok: false, problem: 'not a Philippine number' };
  if (number.getType() !== 'MOBILE') return { ok: false, problem: 'not a mobile number' };
  return { ok: true, number: number.number.slice(1) };
}
