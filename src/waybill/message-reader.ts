/** A booking request typed in chat, read by fixed rules: what it says for certain, from which words, and what it leaves empty and why. */
import type { Choice } from './catalog.js';
import { HOME_COUNTRY, type PhoneReading, readPhone } from './phones.js';

/**
 * Reads what a chat message says for certain about a booking: phone numbers, e-mail addresses,
 * postal codes, weights, dimensions, COD amounts, the number of parcels, labelled lines
 * (`Name:`, `Address:`, `Tel:`, `City:`, …), `Brgy.` and `Purok`. Rules, not guesswork: a value
 * is read only where a rule says what it is, and a field the message gives two different values
 * for is left empty, with a note saying why. Details go to the receiver unless a `Sender:` /
 * `From:` label says otherwise. Values are keyed by the Booking schema's input paths.
 */

// Patterns name their non-ASCII characters by escape (\u2019 ’, \uFF1A ：, \u2013 –, \u2014 —, \u20B1 ₱,
// \u00D7 ×): the bundle stays ASCII, so V8 keeps its source at one byte a character (scripts/build.mjs).

export type ReadParty = 'consignee' | 'shipper';

export interface Recognised {
  /** The field in the dispatcher's words, e.g. "Receiver phone". */
  label: string;
  /** As it is filled in. */
  value: string;
  /** The words of the message it was read from. */
  words: string;
}

export interface MessageReading {
  /** Booking input by schema path: `consignee.phone`, `package.weight`, `codAmount`, … */
  values: Record<string, string>;
  recognised: Recognised[];
  /** What was left empty, and why. */
  notes: string[];
}

/** A party booked before (the address book's, once there is one), read when its name appears. */
export interface KnownParty {
  name: string;
  /** Its fields by path within a party: `phone`, `street`, `city`, `postal`, … */
  details: Record<string, string>;
}

export interface ReadOptions {
  /** The payment method a COD amount means. */
  codPaymentMethod?: string;
  /** Package types a parcel word ("2 boxes") may name, by value or label. */
  packageTypes?: readonly Choice[];
  knownParties?: readonly KnownParty[];
}

type PartyField =
  | 'name'
  | 'phone'
  | 'email'
  | 'street'
  | 'barangay'
  | 'district'
  | 'city'
  | 'region'
  | 'postal'
  | 'country';
type OrderField = 'cod' | 'weight' | 'dimensions' | 'quantity' | 'item';
type Field = PartyField | OrderField;

/** One thing the message says. Facts of one key compete: one distinct value is read, more are left empty. */
interface Fact {
  key: string;
  label: string;
  shown: string;
  words: string;
  values: Record<string, string>;
  /** What makes two facts the same value: a phone's digits, a weight in kg. */
  same: string;
}

/** Phrases written `a|b|c`: the tables below stay readable. */
const phrases = (list: string) => list.split('|');

const partyFields = 'name|phone|email|street|barangay|district|city|region|postal|country';

/** The order facts are listed in: the receiver's, the sender's, then the shipment's. */
const factOrder = [
  ...(['consignee', 'shipper'] as const).flatMap((party) => phrases(partyFields).map((f) => `${party}.${f}`)),
  ...phrases('paymentMethod|codAmount|quantity|packageType|weight|dimensions|itemDescription'),
];

const partyNames: Record<ReadParty, string> = { consignee: 'Receiver', shipper: 'Sender' };

const partyFieldNames: Record<PartyField, string> = {
  name: 'name',
  phone: 'phone',
  email: 'e-mail',
  street: 'address',
  city: 'city',
  region: 'province / region',
  district: 'district',
  barangay: 'barangay',
  postal: 'postal code',
  country: 'country',
};

// ---------------------------------------------------------------------------------------------------
// Labels: `Name:`, `Receiver address:`, `Tel. No.:`, `Sender:` …
// ---------------------------------------------------------------------------------------------------

/** Label words as normalised (lower case, no dots, no `#`, no `'s`), and the field each names. */
const fieldLabels: Record<Field, string[]> = {
  name: phrases('name|full name|complete name|pangalan|contact person'),
  phone: phrases(
    'tel|tel no|telephone|telephone no|phone|phone no|phone number|mobile|mobile no|mobile number|' +
      'cell|cell no|cellphone|cellphone no|cp|cp no|contact|contact no|contact number|number|landline',
  ),
  email: phrases('email|e-mail|email address|e-mail address'),
  street: phrases(
    'address|addr|add|complete address|full address|delivery address|home address|street|street address|tirahan',
  ),
  city: phrases('city|city/municipality|city / municipality|municipality|town|lungsod|bayan'),
  region: phrases('province|prov|region|probinsya|lalawigan'),
  district: phrases('district'),
  barangay: phrases('brgy|bgy|barangay'),
  postal: phrases('postal|postal code|zip|zip code|zipcode|postcode'),
  country: [],
  cod: phrases('cod|cod amount|cod amt|cod value|amount to collect|collect|collectible'),
  weight: phrases('weight|total weight|wt|timbang'),
  dimensions: phrases('size|dimension|dimensions|dims|measurement|measurements|sukat|lxwxh'),
  quantity: phrases(
    'qty|quantity|pcs|parcels|boxes|no of boxes|no of parcels|number of boxes|number of parcels',
  ),
  item: phrases('item|items|item description|description|contents|content|laman|product'),
};

/** Words that name a party on their own (`Receiver:`, `From:`), or start a section (`SENDER DETAILS`). */
const partyLabels: Record<ReadParty, string[]> = {
  consignee: phrases(
    'receiver|consignee|recipient|buyer|customer|deliver to|ship to|to|tatanggap|padala kay|para kay',
  ),
  shipper: phrases('sender|shipper|from|seller|pickup from|pick up from|pick-up from|nagpadala'),
};

/** Words that make a field label a party's (`Receiver address`, `Pickup contact`). */
const partyPrefixes: Record<ReadParty, string[]> = {
  consignee: phrases('receiver|consignee|recipient|buyer|customer|delivery'),
  shipper: phrases('sender|shipper|seller|pickup|pick up|pick-up'),
};

interface Label {
  party?: ReadParty;
  field?: Field;
  /** Another party's details (`Return address:`): not the receiver's, so not read at all. */
  ignored?: boolean;
}

/** Label words that make what follows another party's: the return party is typed on the Sender step. */
const ignoredPrefixes = ['return', 'rts', 'billing'];

function normaliseLabel(words: string): string {
  return words
    .toLowerCase()
    .replaceAll('’', "'")
    .replace(/'s\b/g, '')
    .replace(/[.#]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function fieldOf(phrase: string): Field | undefined {
  return (Object.keys(fieldLabels) as Field[]).find((field) => fieldLabels[field].includes(phrase));
}

function partyOf(phrase: string, table: Record<ReadParty, string[]>): ReadParty | undefined {
  return (Object.keys(table) as ReadParty[]).find((party) => table[party].includes(phrase));
}

function lookUpLabel(phrase: string): Label | undefined {
  if (ignoredPrefixes.some((prefix) => phrase === prefix || phrase.startsWith(`${prefix} `))) {
    return { ignored: true };
  }
  const field = fieldOf(phrase);
  if (field) return { field };
  const party = partyOf(phrase, partyLabels);
  if (party) return { party };
  for (const who of Object.keys(partyPrefixes) as ReadParty[]) {
    for (const prefix of partyPrefixes[who]) {
      if (!phrase.startsWith(`${prefix} `)) continue;
      const rest = fieldOf(phrase.slice(prefix.length + 1));
      if (rest && rest in partyFieldNames) return { party: who, field: rest };
    }
  }
  return undefined;
}

/** A line that only says whose details follow: `RECEIVER:`, `Sender details`, `Receiver's info:`. */
function sectionOf(line: string): ReadParty | undefined {
  const phrase = normaliseLabel(line.replace(/[:\uFF1A]\s*$/, '')).replace(
    /\s+(details?|info|information|data)$/,
    '',
  );
  return partyOf(phrase, partyLabels) ?? partyOf(phrase, partyPrefixes);
}

interface Segment {
  /** What follows the label (the whole text for an unlabelled one). */
  text: string;
  /** The label and its value as written. */
  written: string;
  party: ReadParty;
  label?: Label;
}

const LABEL_WORD = /[\p{L}'\u2019./#-]+/gu;
const LABEL_CHAR = /[\p{L}'\u2019./#-]/u;
/** How far before a colon its label may start: the longest label with its party word is 29 characters. */
const LABEL_REACH = 48;

/** A line cut at its labels: the text before the first one, then each label with its value. */
function segmentsOf(line: string, party: ReadParty): { segments: Segment[]; party: ReadParty } {
  const found: { start: number; end: number; label: Label }[] = [];
  for (const colon of line.matchAll(/[:\uFF1A]/g)) {
    const index = colon.index ?? 0;
    if (index < (found.at(-1)?.end ?? 0)) continue;
    // Only the words just before the colon can be its label: looking further back made a line of
    // many colons quadratic. A word cut by the window's start is not one.
    const from = Math.max(0, index - LABEL_REACH);
    const words = [...line.slice(from, index).matchAll(LABEL_WORD)];
    if (from > 0 && words[0]?.index === 0 && LABEL_CHAR.test(line[from - 1] ?? '')) words.shift();
    const last = words.at(-1);
    // The label ends right before the colon (spaces allowed), and is made of words only.
    if (!last || line.slice(from + (last.index ?? 0) + last[0].length, index).trim() !== '') continue;
    for (let count = Math.min(5, words.length); count >= 1; count -= 1) {
      const first = words[words.length - count];
      const start = from + (first?.index ?? 0);
      const between = line.slice(start, index);
      if (/[^\p{L}'\u2019./# -]/u.test(between)) continue;
      if (start < (found.at(-1)?.end ?? 0)) continue;
      const label = lookUpLabel(normaliseLabel(between));
      if (label) {
        found.push({ start, end: index + 1, label });
        break;
      }
    }
  }
  const segments: Segment[] = [];
  const before = line.slice(0, found[0]?.start ?? line.length);
  if (before.trim()) segments.push({ text: before, written: before.trim(), party });
  let current = party;
  // After `Return address:`, the line's other labels (`Tel:`) are the return party's too.
  let ignoring = false;
  found.forEach((at, i) => {
    const value = line.slice(at.end, found[i + 1]?.start ?? line.length);
    if (at.label.party) current = at.label.party;
    ignoring = at.label.ignored === true || (ignoring && !at.label.party);
    segments.push({
      text: value,
      written: line.slice(at.start, found[i + 1]?.start ?? line.length).trim(),
      party: current,
      label: ignoring ? { ignored: true } : at.label,
    });
  });
  return { segments, party: current };
}

// ---------------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------------

/** A trimmed value without the separators around it. */
const clean = (text: string) =>
  // The lookbehind starts the trailing run at its first separator only: linear on a long run.
  text.replace(/^[\s,;:/|\u2013\u2014-]+|(?<![\s,;:/|\u2013\u2014-])[\s,;:/|\u2013\u2014-]+$/g, '');

/** A number without a trailing `.0`: 0.5, 2, 30.48. */
function decimalText(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * The shape of Philippine numbers as dialled at home (mobile 09XX XXX XXXX, Metro Manila 02 XXXX XXXX,
 * provinces 0XX XXX XXXX): which digit groups written together to try as one number.
 */
function nationalPhone(digits: string): string | undefined {
  const national = digits.startsWith('63') ? `0${digits.slice(2)}` : digits;
  if (/^09\d{9}$/.test(national)) return national;
  if (/^02[2-9]\d{7}$/.test(national)) return national;
  if (/^0(3[2-8]|4[2-9]|5[2-6]|6[2-8]|7[2-8]|8[2-8])\d{7}$/.test(national)) return national;
  return undefined;
}

/** A booking request names a phone or two: a message with more different ones is not read for them all. */
const MAX_PHONES = 20;

/** The fewest and most digits a Philippine number is written with: 0 and nine, +63 and ten. */
const MIN_PHONE_DIGITS = 10;
const MAX_PHONE_DIGITS = 12;

interface WrittenPhone {
  written: string;
  /** Its digits as dialled at home: what makes two mentions the same number. */
  national: string;
  /** The booking's own rule on it (phones.ts); none when it was not checked. */
  reading?: PhoneReading;
}

/** The booking's rule on a number of Philippine shape (its digits as dialled at home); undefined: not checked. */
type PhoneCheck = (national: string) => PhoneReading | undefined;

/**
 * Phone numbers: the longest run of digit groups that makes a whole Philippine number that can be
 * dialled (or, failing that, the longest that has the shape, with the check's answer). Only spans of
 * at most 12 digits are tried, so each group starts a bounded number of tries: linear in the text.
 */
function phonesIn(text: string, check: PhoneCheck): WrittenPhone[] {
  const phones: WrittenPhone[] = [];
  for (const run of text.matchAll(/(?<![\p{L}\d.,])\+?\(?\d+\)?(?:[ .-]?\(?\d+\)?)*/gu)) {
    const groups = [...run[0].matchAll(/\+?\(?(\d+)\)?/g)].map((g) => ({
      start: (run.index ?? 0) + (g.index ?? 0),
      end: (run.index ?? 0) + (g.index ?? 0) + g[0].length,
      digits: g[1] ?? '',
    }));
    let i = 0;
    while (i < groups.length) {
      const start = groups[i]?.start ?? 0;
      // Written with a country code, it must be the Philippines'.
      const foreign = text[start] === '+' && !text.startsWith('+63', start);
      // The spans starting at group i while they can still be a phone, longest first.
      const shaped: { last: number; national: string }[] = [];
      let digits = '';
      for (let j = i; j < groups.length && !foreign; j += 1) {
        digits += groups[j]?.digits ?? '';
        if (digits.length > MAX_PHONE_DIGITS) break;
        const national = digits.length >= MIN_PHONE_DIGITS ? nationalPhone(digits) : undefined;
        if (national) shaped.unshift({ last: j, national });
      }
      const checked = shaped.map((span) => ({ ...span, reading: check(span.national) }));
      const found = checked.find((span) => span.reading?.ok) ?? checked[0];
      if (!found) {
        i += 1;
        continue;
      }
      const written = text.slice(start, groups[found.last]?.end ?? start);
      phones.push({ written, national: found.national, ...(found.reading && { reading: found.reading }) });
      i = found.last + 1;
    }
  }
  return phones;
}

// Starts where a word starts: trying every position inside a long word was quadratic.
const EMAIL = /(?<![\p{L}\d._%+-])[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}/gu;

/** An amount as typed (`1,500`, `1500.00`) without thousands separators; undefined when not one. */
function amountOf(typed: string): { text: string; cents: number } | undefined {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(typed);
  if (!match) return undefined;
  const whole = (match[1] ?? '').replaceAll(',', '');
  const text = match[2] === undefined ? whole : `${whole}.${match[2]}`;
  return { text, cents: Math.round(Number(text) * 100) };
}

const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?`;
const CURRENCY = String.raw`(?:php|\u20B1|p)\s*`;
const COD = String.raw`c\.?o\.?d\.?`;
const NEGATED_COD = new RegExp(String.raw`\b(?:no|non|not|walang|hindi)[\s-]+${COD}(?![\p{L}])`, 'giu');
// Patterns are compiled once: a message of many short lines made compiling them per line the cost.
const COD_AMOUNTS = [
  String.raw`(?<![\p{L}])${COD}(?![\p{L}])(?:\s*(?:amount|amt))?\s*(?:[:=-]\s*)?(?:${CURRENCY})?${AMOUNT}(?![\d\p{L}])`,
  String.raw`(?<![\p{L}\d.,])(?:${CURRENCY})?${AMOUNT}\s*(?:pesos?\s*)?${COD}(?![\p{L}])`,
].map((pattern) => new RegExp(pattern, 'giu'));
const COD_WORD = new RegExp(String.raw`(?<![\p{L}])${COD}(?![\p{L}])`, 'giu');
const COD_ONLY = new RegExp(`^${COD}$`, 'iu');
const CURRENCY_FIRST = new RegExp(`^${CURRENCY}`, 'iu');
const AMOUNT_IN = new RegExp(AMOUNT);

const WEIGHT = String.raw`(?<![\d.,])(\d+(?:\.\d+)?)\s*(kgs?|kilos?|kilograms?|grams?|gms?|g)(?![\p{L}])(\s*(?:each|per\s+(?:pc|piece|box|parcel)|bawat\s+isa))?`;

// No two adjacent \s* (one inside an optional unit): a long run of spaces would backtrack quadratically.
const WEIGHTS = new RegExp(WEIGHT, 'giu');
const WEIGHT_IN = new RegExp(WEIGHT, 'iu');

const DIMENSION = String.raw`(\d+(?:\.\d+)?)(?:\s*(?:cm|mm|in))?`;
const DIMENSIONS = new RegExp(
  String.raw`(?<![\d.])${DIMENSION}\s*[x\u00D7*]\s*${DIMENSION}\s*[x\u00D7*]\s*(\d+(?:\.\d+)?)\s*(cm|mm|inches|inch|in|")?(?![\p{L}\d])`,
  'giu',
);

const PARCEL_WORDS =
  '(pcs?|pieces?|box(?:es)?|parcels?|packages?|pkgs?|pouch(?:es)?|bags?|sacks?|envelopes?|bundles?|documents?)';
/** Counts written as words, in English and Tagalog ("dalawang box"). */
const numberWords: Record<string, number> = Object.fromEntries([
  ...phrases('one|two|three|four|five|six|seven|eight|nine|ten').map((word, i) => [word, i + 1]),
  ...phrases('isang|dalawang|tatlong|apat na|limang').map((word, i) => [word, i + 1]),
]);
const QUANTITIES = new RegExp(
  String.raw`(?<![\d.,\p{L}])(\d{1,3}|${Object.keys(numberWords).join('|')})\s*(?:x\s*)?${PARCEL_WORDS}(?![\p{L}])`,
  'giu',
);

const singular = (word: string) =>
  word
    .toLowerCase()
    .replace(/(x|ch)es$/, '$1')
    .replace(/s$/, '');

/** A name: capitalised words, with the particles of Filipino and Spanish names in between. */
const NAME_WORD = String.raw`\p{Lu}[\p{L}'\u2019.-]*`;
const PARTICLE = String.raw`(?:de|dela|del|delos|de la|de los|la|los|van|von|y|da|dos|jr\.?|sr\.?|ii|iii|iv)`;
const nameOf = (minWords: number, maxWords: number) =>
  String.raw`${NAME_WORD}(?:\s+(?:${PARTICLE}\s+)?${NAME_WORD}){${minWords - 1},${maxWords - 1}}`;

/** Words that make a run of capitalised words a place, not a person. */
const PLACE_WORDS = new Set(
  phrases(
    'city|municipality|province|brgy|barangay|purok|sitio|st|street|ave|avenue|rd|road|blvd|highway|hwy|' +
      'village|subd|subdivision|blk|lot|bldg|building|tower|mall|hall|office|branch|warehouse|store|metro|philippines',
  ),
);

const isPlace = (name: string) =>
  name
    .toLowerCase()
    .split(/[\s.]+/)
    .some((word) => PLACE_WORDS.has(word));

/** Written as a person's name: letters only, each word capitalised (or a particle). */
const WHOLE_NAME = new RegExp(`^${nameOf(1, 5)}$`, 'u');
function looksLikeName(text: string): boolean {
  return WHOLE_NAME.test(text) && !isPlace(text);
}

const STREET_WORDS =
  '(?:st|street|ave|avenue|rd|road|blvd|boulevard|hwy|highway|dr|drive|ext|extension|lane|ln|avenida|kalye)';
/** A house number (or block / lot / unit) and a street word: `45 Rizal St Ermita`, `Blk 4 Lot 12 Mabini Ave`. */
const STREET = new RegExp(
  String.raw`^(?=.*\d)(?:(?:blk|block|lot|unit|bldg|ph|phase|no\.?|#)\s*[\w-]+\s+)*(?:\d+[a-z]?(?:[-/]\d+[a-z]?)?\s+)?[\p{L}\d.'\u2019 -]*?\b${STREET_WORDS}\b\.?(?:\s+[\p{L}.'\u2019-]+)*$`,
  'iu',
);
const MAX_STREET = 200;
const PUROK = String.raw`\b(?:purok|sitio)\s+[\p{L}\d-]+(?:\s+\d+)?`;
const PUROKS = new RegExp(PUROK, 'giu');
const PUROK_IN = new RegExp(PUROK, 'iu');
const BARANGAY = /\b(?:brgy|bgy|barangay|bgry)\b\.?\s*(?:no\.?\s*)?([^,;\n]+)/giu;

/** Words before a 4-digit number that make it something other than a postal code. */
const NOT_POSTAL_BEFORE = new Set(
  phrases(
    'cod|php|p|blk|block|lot|unit|no|number|ph|phase|bldg|rm|room|floor|flr|km|tel|cp|year|order|ref|po|' +
      'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|' +
      'august|september|october|november|december',
  ),
);

// ---------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------

class Reader {
  readonly facts: Fact[] = [];
  readonly notes: string[] = [];
  /** Numbers checked by the booking's rule, each once; checking costs a little, so only so many. */
  private readonly phones = new Map<string, PhoneReading>();
  private phonesLeft = false;

  constructor(private readonly options: ReadOptions) {}

  /** The booking's rule on a number (phones.ts); none for a new one after MAX_PHONES, and a note says so. */
  phoneReading(national: string): PhoneReading | undefined {
    const known = this.phones.get(national);
    if (known) return known;
    if (this.phones.size >= MAX_PHONES) {
      if (!this.phonesLeft) {
        this.notes.push(`Phone numbers left unread: the message has more than ${MAX_PHONES} different ones`);
      }
      this.phonesLeft = true;
      return undefined;
    }
    const reading = readPhone(national, HOME_COUNTRY);
    this.phones.set(national, reading);
    return reading;
  }

  /** A fact setting one value; `same` says when two facts agree (default: the value, in any case). */
  add(key: string, label: string, path: string, value: string, words: string, same = value.toLowerCase()) {
    this.facts.push({ key, label, shown: value, words, values: { [path]: value }, same });
  }

  party(party: ReadParty, field: PartyField, value: string, words: string, same?: string) {
    const path = `${party}.${field}`;
    this.add(path, `${partyNames[party]} ${partyFieldNames[field]}`, path, value, words, same);
  }

  cod(amount: { text: string; cents: number }, words: string) {
    this.add('codAmount', 'COD amount', 'codAmount', amount.text, words, String(amount.cents));
    this.codMentioned(words);
  }

  /** COD named (with an amount or not): the payment method. */
  codMentioned(words: string) {
    const method = this.options.codPaymentMethod;
    if (method) this.add('paymentMethod', 'Payment method', 'paymentMethod', method, words);
  }

  weight(kg: number, words: string) {
    this.add('weight', 'Weight (kg)', 'package.weight', decimalText(kg), words);
  }

  dimensions(sides: number[], unit: string, words: string) {
    const factor = unit === 'mm' ? 0.1 : unit.startsWith('in') || unit === '"' ? 2.54 : 1;
    const [length = '', width = '', height = ''] = sides.map((side) => decimalText(side * factor));
    const shown = `${length} × ${width} × ${height}`;
    this.facts.push({
      key: 'dimensions',
      label: 'Length × width × height (cm)',
      shown,
      words,
      values: { 'package.length': length, 'package.width': width, 'package.height': height },
      same: shown,
    });
  }

  /** A count of parcels, and the package type its word names ("2 boxes"), if the catalog has it. */
  quantity(count: number, word: string | undefined, words: string) {
    this.add('quantity', 'Number of parcels', 'quantity', String(count), words);
    const type =
      word &&
      this.options.packageTypes?.find((t) => [t.value, t.label].some((n) => singular(n) === singular(word)));
    if (type) {
      const values = { 'package.type': type.value };
      this.facts.push({
        key: 'packageType',
        label: 'Package type',
        shown: type.label,
        words,
        values,
        same: type.value,
      });
    }
  }

  /** Facts of a key that agree are read once; a key with two different values is left empty. */
  result(): MessageReading {
    const values: Record<string, string> = {};
    const recognised: Recognised[] = [];
    // A note said twice (the same number that cannot be dialled, written twice) is shown once.
    const notes = [...new Set(this.notes)];
    const keys = factOrder.filter((key) => this.facts.some((fact) => fact.key === key));
    for (const key of keys) {
      const facts = this.facts.filter((fact) => fact.key === key);
      // The first of facts that agree is the one shown (its words are the first mention).
      const seen = new Set<string>();
      const distinct = facts.filter((fact) => !seen.has(fact.same) && seen.add(fact.same));
      const [first] = distinct;
      if (!first) continue;
      if (distinct.length > 1) {
        notes.push(
          `${first.label} left empty: the message gives ${distinct.length} different ones (${distinct.map((f) => f.words).join('; ')})`,
        );
        continue;
      }
      Object.assign(values, first.values);
      recognised.push({ label: first.label, value: first.shown, words: first.words });
    }
    if (values.paymentMethod && !this.facts.some((fact) => fact.key === 'codAmount')) {
      notes.push('COD amount left empty: the message says COD but gives no amount');
    }
    return { values, recognised, notes };
  }
}

/**
 * Phones, e-mails, barangay and postal code, wherever they are in a segment, for its party.
 * Returns the segment's text without its phones and e-mails (what may be a name or an address).
 */
function readContacts(reader: Reader, segment: Segment): string {
  let rest = segment.text;
  for (const phone of phonesIn(segment.text, (national) => reader.phoneReading(national))) {
    const written = phone.written.trim();
    if (phone.reading?.ok) reader.party(segment.party, 'phone', written, written, phone.national);
    else if (phone.reading) reader.notes.push(`Not read as a phone: "${written}" ${phone.reading.problem}`);
    rest = rest.replace(phone.written, ',');
  }
  for (const [email] of segment.text.matchAll(EMAIL)) {
    reader.party(segment.party, 'email', email, email);
    rest = rest.replace(email, ',');
  }
  if (segment.label?.field !== 'barangay') {
    for (const match of rest.matchAll(BARANGAY)) {
      // The barangay's name ends at a comma, a postal code or a purok.
      const name = clean((match[1] ?? '').split(/\s(?=\d{4}\b)|\bpurok\b|\bsitio\b|\|/i)[0] ?? '');
      const words = clean(match[0].split('|')[0] ?? '');
      // A numbered barangay keeps its word: "Brgy. 5", not "5".
      if (name && name.split(/\s+/).length <= 4) {
        reader.party(segment.party, 'barangay', /^\d+$/.test(name) ? words : name, words);
      }
    }
  }
  if (segment.label?.field !== 'postal') readPostal(reader, segment.party, rest);
  return rest;
}

/** A 4-digit number ending a stretch of address words, as in `Tanza Cavite 4108`. */
function readPostal(reader: Reader, party: ReadParty, text: string) {
  for (const part of text.split(/[,;|]|\.\s/)) {
    const match = /(?:^|\s)([\p{L}.'\u2019-]+)\s+(\d{4})[\s.)]*(?:(?:philippines|ph)[\s.)]*)?$/iu.exec(part);
    if (!match) continue;
    const before = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
    if (NOT_POSTAL_BEFORE.has(before) || COD_ONLY.test(before)) continue;
    reader.party(party, 'postal', match[2] ?? '', clean(`${match[1]} ${match[2]}`));
  }
}

/** COD amounts (and a bare "COD"), weights, dimensions and parcel counts written out in the text. */
function readOrder(reader: Reader, text: string) {
  let rest = text.replace(NEGATED_COD, (words) => ' '.repeat(words.length));
  for (const pattern of COD_AMOUNTS) {
    for (const match of rest.matchAll(pattern)) {
      const amount = amountOf(match[2] === undefined ? (match[1] ?? '') : `${match[1]}.${match[2]}`);
      if (amount && amount.cents > 0) reader.cod(amount, match[0].trim());
      rest = rest.replace(match[0], ' ');
    }
  }
  for (const match of rest.matchAll(COD_WORD)) {
    reader.codMentioned(match[0]);
  }
  for (const match of text.matchAll(WEIGHTS)) {
    const [words, number = '', unit = '', each] = match;
    if (each) {
      reader.notes.push(`Weight left empty: "${words.trim()}" is one piece's weight, not the package's`);
      continue;
    }
    reader.weight(Number(number) / (/^g/i.test(unit) ? 1000 : 1), words.trim());
  }
  for (const match of text.matchAll(DIMENSIONS)) {
    const [words, length = '', width = '', height = '', last] = match;
    const unit = (last ?? /(cm|mm|in)/i.exec(words)?.[1])?.toLowerCase();
    if (!unit) {
      reader.notes.push(`Dimensions left empty: "${words.trim()}" has no unit (cm, mm or in)`);
      continue;
    }
    reader.dimensions([length, width, height].map(Number), unit, words.trim());
  }
  for (const match of text.matchAll(QUANTITIES)) {
    const [words, count = '', word] = match;
    const number = numberWords[count.toLowerCase().replace(/\s+/g, ' ')] ?? Number(count);
    if (number > 0) reader.quantity(number, word, words.trim());
  }
}

/** The first comma-separated part of a labelled value: a name never holds a comma. */
const firstPart = (text: string) => clean(text.split(/[,;|]/).find((part) => part.trim()) ?? '');

/** What a labelled value says, read by its label. */
function readLabelled(reader: Reader, segment: Segment, rest: string) {
  const field = segment.label?.field;
  const value = clean(rest);
  const words = clean(segment.written);
  switch (field) {
    case undefined:
    case 'phone': {
      // `Receiver: Maria Santos, 0918…`, `Contact: Maria 0918…`: what is left once the phone and
      // e-mail are taken is the name, when it is written as one.
      const name = firstPart(rest);
      if (looksLikeName(name)) reader.party(segment.party, 'name', name, words);
      return;
    }
    case 'name': {
      const name = firstPart(rest);
      if (name && name.length <= 100) reader.party(segment.party, 'name', name, words);
      return;
    }
    case 'street': {
      const street = clean(value.replace(/\b\d{4}[\s.)]*$/, ''));
      if (street && street.length <= MAX_STREET) reader.party(segment.party, 'street', street, words);
      return;
    }
    case 'postal': {
      const postal = /\b\d{4}\b/.exec(value)?.[0];
      if (postal) reader.party(segment.party, 'postal', postal, words);
      return;
    }
    case 'city':
    case 'region':
    case 'district':
    case 'barangay': {
      const place = firstPart(rest.replace(/\b\d{4}\b/, ''));
      if (place && place.length <= 100) reader.party(segment.party, field, place, words);
      return;
    }
    case 'cod': {
      const amount = amountOf(clean(value.replace(CURRENCY_FIRST, '')));
      if (amount && amount.cents > 0) reader.cod(amount, words);
      else if (!AMOUNT_IN.test(value)) reader.codMentioned(words);
      return;
    }
    case 'weight':
      if (value && !WEIGHT_IN.test(value)) {
        reader.notes.push(`Weight left empty: "${words}" has no unit (kg or g)`);
      }
      return;
    case 'quantity': {
      const count = /^(\d{1,3})\b/.exec(value)?.[1];
      if (count && Number(count) > 0) reader.quantity(Number(count), undefined, words);
      return;
    }
    case 'item':
      if (value && value.length <= 500)
        reader.add('itemDescription', 'Item description', 'itemDescription', value, words);
      return;
    default:
      // e-mail and dimensions: read wherever they are written.
      return;
  }
}

/** Unlabelled streets, puroks and names, part by part (what commas separate). */
function readFreeText(reader: Reader, party: ReadParty, text: string) {
  const parts = text
    .split(/[,;|]/)
    .map((part) => part.trim())
    .filter(Boolean);
  // A street is at most 200 characters (the Booking schema's limit): a longer part is not tried.
  const streets = parts.filter((part) => part.length <= MAX_STREET && STREET.test(part));
  for (const street of streets) reader.party(party, 'street', street, street);
  parts.forEach((part, index) => {
    const purok = [...part.matchAll(PUROKS)].map((m) => m[0]);
    if (purok.length > 0 && streets.length === 0) {
      reader.party(party, 'street', purok.join(' '), purok.join(' '));
    }
    readMarkedName(reader, party, part, parts[index + 1] ?? '');
  });
}

const MARKED_NAME = new RegExp(
  String.raw`(?:^|\s)((?:[Pp]ara\s+[Kk]ay|[Pp]adala\s+[Kk]ay|[Kk]ay|[Cc]\/[Oo]|[Aa]ttn\.?)\s+(${nameOf(1, 4)})|[Tt]o\s+(${nameOf(2, 4)}))(?=\s*$|\s+\+?\d|\s+(?:po|pls|please|thanks|salamat)\b)`,
  'u',
);

/**
 * A name after `kay` / `para kay` / `c/o` (words that only ever come before a person), or after
 * `to` when the address or phone number follows it: `to Maria Santos, 45 Rizal St`.
 */
function readMarkedName(reader: Reader, party: ReadParty, part: string, next: string) {
  const marked = MARKED_NAME.exec(part);
  if (!marked) return;
  const [, words = '', afterKay, afterTo] = marked;
  const name = afterKay ?? afterTo ?? '';
  if (isPlace(name)) return;
  if (afterTo) {
    if (/^(san|santa|sta|sto|santo)\b/i.test(name)) return;
    const after = part.slice((marked.index ?? 0) + marked[0].length);
    const follows = [after, next].some(
      (text) =>
        STREET.test(text.trim()) ||
        PUROK_IN.test(text) ||
        /\b(?:brgy|bgy|barangay|blk|lot|unit)\b/i.test(text) ||
        phonesIn(text, () => undefined).length > 0,
    );
    if (!follows) return;
  }
  reader.party(party, 'name', name, words.trim());
}

/** A saved party whose name the message contains fills the receiver's fields the message left open. */
function readKnownParties(reader: Reader, text: string, parties: readonly KnownParty[]) {
  const lower = text.toLowerCase();
  const named = parties.filter((known) => {
    const name = known.name.trim().toLowerCase();
    const at = name ? lower.indexOf(name) : -1;
    const wordAround = (index: number) => /[\p{L}\d]/u.test(lower[index] ?? '');
    return at >= 0 && !wordAround(at - 1) && !wordAround(at + name.length);
  });
  if (named.length > 1) {
    const names = named.map((p) => p.name).join('; ');
    reader.notes.push(`Saved parties not used: the message names ${named.length} of them (${names})`);
    return;
  }
  const [known] = named;
  if (!known) return;
  const given = new Set(reader.facts.map((fact) => fact.key));
  for (const [field, value] of Object.entries({ ...known.details, name: known.name })) {
    if (!(field in partyFieldNames) || !value || given.has(`consignee.${field}`)) continue;
    const same = field === 'phone' ? (nationalPhone(value.replace(/\D/g, '')) ?? value) : value.toLowerCase();
    reader.party('consignee', field as PartyField, value, `saved party "${known.name}"`, same);
  }
}

/**
 * The most of a message that is read: 4,000 characters (twenty times the longest booking request of
 * our corpus, a tenth of Slack's 40,000) and 200 lines. Every rule is linear or bounded, so this only
 * bounds the time one message can take (a few milliseconds, most of it per line); the dispatcher is
 * told when the rest was not read.
 */
export const MESSAGE_READ_LIMIT = { characters: 4000, lines: 200 } as const;

/** The start of a long message, cut at a line break (or else a space) so no value is cut in two. */
function readablePart(text: string): string {
  const { characters, lines } = MESSAGE_READ_LIMIT;
  const head = text.slice(0, characters + 1).split('\n');
  if (head.length > lines) return head.slice(0, lines).join('\n');
  if (text.length <= characters) return text;
  const lineEnd = text.lastIndexOf('\n', characters);
  if (lineEnd >= characters / 2) return text.slice(0, lineEnd);
  let end = characters;
  while (end > characters / 2 && !/\s/.test(text[end] ?? '')) end -= 1;
  return text.slice(0, end > characters / 2 ? end : characters);
}

/** Reads a chat message (plain text) into booking input, by the rules above. */
export function readMessage(message: string, options: ReadOptions = {}): MessageReading {
  const reader = new Reader(options);
  const text = readablePart(message);
  if (text.length < message.length) {
    const { characters, lines } = MESSAGE_READ_LIMIT;
    const count = (n: number) => n.toLocaleString('en');
    reader.notes.push(
      `Only the start of the message was read (${count(text.length)} of its ${count(message.length)} characters; the reader stops at ${count(characters)} characters or ${lines} lines): fill in what the rest says yourself`,
    );
  }
  let section: ReadParty = 'consignee';
  for (const line of text.replace(/\u00a0/g, ' ').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const heading = sectionOf(line.trim());
    if (heading) {
      section = heading;
      continue;
    }
    const cut = segmentsOf(line, section);
    section = cut.party;
    for (const segment of cut.segments) {
      if (segment.label?.ignored) continue;
      const rest = readContacts(reader, segment);
      readOrder(reader, segment.written);
      if (segment.label) readLabelled(reader, segment, rest);
      const field = segment.label?.field;
      if (field === undefined || field === 'phone' || field === 'name') {
        readFreeText(reader, segment.party, segment.text);
      }
    }
  }
  if (options.knownParties?.length) readKnownParties(reader, text, options.knownParties);
  return reader.result();
}
