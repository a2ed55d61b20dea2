/** `key=value` words after a slash command, read into form values, and the help that lists them. */
import type { Catalog, Choice } from '../../waybill/catalog.js';
import { type FormField, misfit, setPath } from './forms.js';

/**
 * Text after a slash command pre-fills its form: `/quote weight=2.5 to_city="Cebu City"`.
 * Each key maps to a schema path; values are only pre-filled, the form still validates them. A value
 * its input cannot hold (`parcels=2.5` for a whole number) is left out and said back, naming the field.
 */

export interface PrefillKey {
  path: string;
  /** What the key is for, in the help text. */
  about: string;
  /** For selects: the value may be typed as the option's value or its label. */
  choices?: readonly Choice[];
}

export type PrefillKeys = Record<string, PrefillKey>;

const placeKeys: Record<string, [string, string]> = {
  address: ['street', 'street address'],
  region: ['region', 'province / region'],
  city: ['city', 'city'],
  district: ['district', 'district'],
  barangay: ['barangay', 'barangay'],
  // The barangay's first key, still read.
  area: ['barangay', 'barangay'],
  postal: ['postal', 'postal code'],
  country: ['country', 'two-letter country code'],
  lat: ['latitude', 'latitude'],
  lon: ['longitude', 'longitude'],
};

/** `from_city`, `to_postal`, `return_country`, … for the given parties (`without` leaves fields out). */
export function placePrefillKeys(
  parties: Record<string, [path: string, who: string, without?: string[]]>,
): PrefillKeys {
  const keys: PrefillKeys = {};
  for (const [prefix, [party, who, without = []]] of Object.entries(parties)) {
    for (const [suffix, [field, about]] of Object.entries(placeKeys)) {
      if (without.includes(field)) continue;
      keys[`${prefix}_${suffix}`] = { path: `${party}.${field}`, about: `${who} ${about}` };
    }
  }
  return keys;
}

export interface Prefill {
  values: Record<string, unknown>;
  /** Parts of the text that were not used, said back to the dispatcher. */
  notices: string[];
}

// “…” written as escapes, so the bundle stays ASCII (scripts/build.mjs).
const TOKEN = /([A-Za-z_]+)=(?:"([^"]*)"|\u201C([^\u201D]*)\u201D|'([^']*)'|(\S+))|(\S+)/g;

export function parsePrefill(text: string, keys: PrefillKeys, fields: readonly FormField[]): Prefill {
  const values: Record<string, unknown> = {};
  const notices: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [, rawKey = '', doubleQuoted, smartQuoted, singleQuoted, bare, stray] = match;
    if (stray !== undefined) {
      notices.push(`Ignored "${stray}": write key=value, e.g. weight=2.5`);
      continue;
    }
    // Own keys only: `constructor` or `__proto__` are not keys, whatever Object.prototype holds.
    const name = rawKey.toLowerCase();
    const key = Object.hasOwn(keys, name) ? keys[name] : undefined;
    if (!key) {
      notices.push(`Ignored "${rawKey}": not a known key (type the command with "help" to see them)`);
      continue;
    }
    const typed = (doubleQuoted ?? smartQuoted ?? singleQuoted ?? bare ?? '').trim();
    const value = key.choices ? matchChoice(key.choices, typed) : typed;
    const field = fields.find((f) => f.path === key.path);
    const problem = field && value !== '' ? misfit(field, value) : undefined;
    if (field && problem) {
      notices.push(`Ignored "${rawKey}=${typed}": ${field.label} ${problem}`);
      continue;
    }
    setPath(values, key.path, value);
  }
  return { values, notices };
}

/** An option typed by value or label, in any case; an unknown one stays as typed (the form says so). */
function matchChoice(choices: readonly Choice[], typed: string): string {
  const wanted = typed.toLowerCase();
  return (
    choices.find((c) => c.value.toLowerCase() === wanted || c.label.toLowerCase() === wanted)?.value ?? typed
  );
}

export function prefillHelp(command: string, keys: PrefillKeys): string {
  const lines = Object.entries(keys).map(([key, { about }]) => `• \`${key}\`: ${about}`);
  return [
    `*${command}* opens a form. Text after the command pre-fills it, as \`key=value\` pairs (quote values with spaces):`,
    `\`${command} weight=2.5 from_city=Makati to_city="Cebu City" to_postal=6000\``,
    '',
    ...lines,
  ].join('\n');
}

/** Keys both /quote and /book understand: what is being sent and how it is paid. */
export function shipmentPrefillKeys(catalog: Catalog): PrefillKeys {
  return {
    service: { path: 'serviceType', about: 'service type', choices: catalog.serviceTypes },
    payment: { path: 'paymentMethod', about: 'payment method', choices: catalog.paymentMethods },
    cod: { path: 'codAmount', about: 'COD amount' },
    declared: { path: 'declaredValue', about: 'declared value' },
    parcels: { path: 'quantity', about: 'number of parcels' },
    type: { path: 'package.type', about: 'package type', choices: catalog.packageTypes },
    weight: { path: 'package.weight', about: 'weight in kg' },
    length: { path: 'package.length', about: 'length in cm' },
    width: { path: 'package.width', about: 'width in cm' },
    height: { path: 'package.height', about: 'height in cm' },
    volume: { path: 'package.volume', about: 'volume in cm³' },
    merchant: { path: 'merchantName', about: 'merchant name' },
  };
}
