/** Phone numbers: the one rule of which can be dialled (by the party's country), and how one is written for the courier. */
import { createRequire } from 'node:module';
import {
  type CountryCode,
  isSupportedCountry,
  type MetadataJson,
  type PhoneNumber,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/core';
import { Recent } from './recent.js';

/**
 * Whether a number can be dialled is libphonenumber's answer (Google's metadata), not a pattern of
 * ours. Its "max" metadata is used: "min" checks only the number of digits, so it takes `8123 4567`
 * (a Metro Manila number without its area code) and `(02) 1234 5678` (not a Metro Manila number
 * since they all begin with 8); "mobile" knows mobile numbers only and refuses every landline. Only
 * "max" has each country's number patterns, and it costs about 75 kB more than "min" in the bundle.
 */

const require = createRequire(import.meta.url);
let metadata: MetadataJson | undefined;
/**
 * The "max" metadata, read at the first phone checked rather than with the bot's modules: ~160 kB of
 * JSON that an idle bot need not hold, in its source or as objects.
 */
function maxMetadata(): MetadataJson {
  metadata ??= require('libphonenumber-js/metadata.max.json') as MetadataJson;
  return metadata;
}

/** A phone as typed, read in `region` when it has no country code; undefined when it is no phone number. */
const parsePhone = (typed: string, region: CountryCode): PhoneNumber | undefined =>
  parsePhoneNumberFromString(typed, region, maxMetadata());

/**
 * The phones read last, by region and text. A booking reads each party's phone several times (the
 * form's check, the receiver's key, the SMS outbox), and reading one is libphonenumber's dearest call:
 * about 5% of a bulk row's CPU (npm run bench).
 */
const PHONES_REMEMBERED = 200;
const recentPhones = new Recent<string, PhoneNumber | undefined>(PHONES_REMEMBERED);

/** A phone as typed, read in `region` when it has no country code, if it can be dialled. */
export const dialable = (typed: string, region: CountryCode): PhoneNumber | undefined =>
  recentPhones.get(`${region} ${typed}`, () => {
    const number = parsePhone(typed, region);
    return number?.isValid() ? number : undefined;
  });

/** The courier's country: the region of a number typed without a country code when its party has no country. */
export const HOME_COUNTRY = 'PH';

/** A phone that can be dialled, `written` as the courier gets it; or what is wrong, to follow the field's label. */
export type PhoneReading = { ok: true; written: string } | { ok: false; problem: string };

/** What a phone may be typed with. */
const TYPED = /^[0-9+\-() ]+$/;

/** The region to read a national number in: the party's country if it has a known one, else the courier's. */
function regionOf(country: string | undefined): CountryCode {
  const code = country?.trim().toUpperCase() ?? '';
  return code !== '' && isSupportedCountry(code as CountryCode, maxMetadata())
    ? (code as CountryCode)
    : HOME_COUNTRY;
}

/**
 * A phone as typed, for a party in `country` (two letters; the courier's country when empty): whether
 * it can be dialled, and if so how it is written. A number of the courier's country typed without a
 * country code stays national (`0917 123 4567`, `(02) 8123 4567`); any other is international
 * (`+63 917 123 4567`, `+1 415 555 0100`), so the courier can dial it from where it is.
 */
export function readPhone(typed: string, country?: string): PhoneReading {
  const region = regionOf(country);
  if (!TYPED.test(typed) || !/\d/.test(typed)) {
    return { ok: false, problem: 'must be a phone number: digits, spaces and + - ( ) only' };
  }
  const number = dialable(typed, region);
  if (number) {
    const national = !typed.startsWith('+') && number.country === HOME_COUNTRY;
    return { ok: true, written: national ? number.formatNational() : number.formatInternational() };
  }
  const where = typed.startsWith('+') ? '' : ` in ${region}`;
  const examples = region === HOME_COUNTRY ? ', e.g. 0917 123 4567 or (02) 8123 4567' : '';
  // A number of a possible length that is no one's is the common case: told without the length check.
  const length = parsePhone(typed, region)?.isPossible()
    ? undefined
    : validatePhoneNumberLength(typed, region, maxMetadata());
  if (length === 'INVALID_COUNTRY')
    return { ok: false, problem: 'starts with a country code that does not exist' };
  const problems: Record<string, string> = {
    TOO_SHORT: 'has too few digits',
    TOO_LONG: 'has too many digits',
    INVALID_LENGTH: 'has the wrong number of digits',
  };
  const problem =
    length && problems[length]
      ? `${problems[length]} for a phone number`
      : 'is not a phone number that can be dialled';
  return { ok: false, problem: `${problem}${where}${examples}` };
}

/**
 * The one key of a number however it was typed (`0917 123 4567`, `+63 917 123 4567`): E.164, for
 * finding a receiver's earlier parcels; undefined when it cannot be dialled.
 */
export function phoneKey(typed: string, country?: string): string | undefined {
  return dialable(typed, regionOf(country))?.number;
}
