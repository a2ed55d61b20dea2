/** The official place list (PSGC, psgc.json): provinces, cities and barangays matched however they are written, nearest matches offered. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Recent } from './recent.js';

/** psgc.json as scripts/refresh-places.mjs writes it: names with their former names after `|`. */
interface PlaceFile {
  source: string;
  release: string;
  regions: string[];
  provinces: [names: string, region: number][];
  cities: [names: string, province: number][];
  /** Per city, its barangays separated by tabs. */
  barangays: string[];
  /** PHLPost's codes: [province, or the city in Metro Manila; city, or an area of that city; code]. */
  postal: [where: string, area: string, code: string][];
}

export interface Named {
  /** The official name, as the courier gets it. */
  name: string;
  /** Every way it is matched: its name and former names, normalised (`placeKey`). */
  keys: string[];
}
export interface Province extends Named {
  region: string;
  cities: City[];
}
export interface City extends Named {
  province: Province;
  /** Districts within it that addresses name instead of a barangay (`EVERYDAY`). */
  districts: District[];
  readonly barangays: Barangay[];
}
export interface Barangay extends Named {
  city: City;
}
/** A district of a city that addresses name where the barangay goes (`EVERYDAY`): no barangay, but accepted as one. */
export type District = Barangay;

export const placesPath = fileURLToPath(new URL('./psgc.json', import.meta.url));

/** Words written for one another; `brgy` and its forms say only what the field already says. */
const WORDS: Record<string, string> = {
  sto: 'santo',
  sta: 'santa',
  sn: 'san',
  gen: 'general',
  pres: 'president',
  pob: 'poblacion',
  brgy: '',
  bgy: '',
  bgry: '',
  barangay: '',
};

/**
 * Everyday names the list lacks, for the city they are in: an abbreviation the city field reads as the
 * city, and districts (not barangays) that the barangay field accepts and, when no city is named so,
 * the city field too. Kept short; docs/places.md lists them.
 */
const EVERYDAY: { city: string; abbreviations: string[]; districts: string[] }[] = [
  { city: 'Quezon City', abbreviations: ['QC'], districts: ['Cubao', 'Diliman', 'Novaliches'] },
  {
    city: 'City of Manila',
    abbreviations: [],
    // Manila's districts are also on the list by themselves, with their barangays.
    districts: [
      'Binondo',
      'Ermita',
      'Intramuros',
      'Malate',
      'Paco',
      'Pandacan',
      'Port Area',
      'Quiapo',
      'Sampaloc',
      'San Miguel',
      'San Nicolas',
      'Santa Ana',
      'Santa Cruz',
      'Tondo',
    ],
  },
  { city: 'City of Taguig', abbreviations: [], districts: ['BGC', 'Bonifacio Global City'] },
];

/** A character outside ASCII: only a name with one can carry an accent. */
const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * A place name reduced to what tells it apart: no accents (`Parañaque`, `Paranaque`), case or
 * punctuation; common abbreviations spelled out (`Sto.`, `Santo`); `City of Cebu` and `Cebu City` the
 * same. `Brgy.` and its forms are dropped, so `Brgy. 5` is `Barangay 5`.
 */
export function placeKey(name: string): string {
  // Accents only outside ASCII: most names skip the normalising, the dearest step of 42,000 at warm-up.
  const plain = NOT_ASCII.test(name) ? name.normalize('NFD').replace(/\p{M}/gu, '') : name;
  const words: string[] = [];
  for (const word of plain.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const written = WORDS[word] ?? word;
    if (written !== '') words.push(written);
  }
  if (words[0] === 'city' && words[1] === 'of' && words.length > 2)
    words.push(words.splice(0, 2)[0] as string);
  return words.join(' ');
}

/** A city's key without its `city`: `Makati` for `City of Makati`, which dispatchers write both ways. */
const withoutCity = (key: string) => key.replace(/ city$/, '');

/** The keys of a name and its former names, with the parts in brackets alone and left out: `Luna (Jaro)`. */
function keysOf(names: string): string[] {
  // Most barangays have one name and no brackets: one key, without the set.
  if (!names.includes('|') && !names.includes('(')) {
    const key = placeKey(names);
    return key === '' ? [] : [key];
  }
  const keys = new Set<string>();
  for (const name of names.split('|')) {
    keys.add(placeKey(name));
    const bare = name.replace(/\([^)]*\)/g, ' ');
    if (bare !== name) keys.add(placeKey(bare));
    for (const [, inside] of name.matchAll(/\(([^)]*)\)/g)) keys.add(placeKey(inside as string));
  }
  keys.delete('');
  return [...keys];
}

/** What the province field may hold besides a province: its region, by full name, short name or number. */
function regionKeys(region: string): string[] {
  const keys = keysOf(region.replace(/\(([^)]*)\)/, '|$1'));
  return region.includes('(NCR)') ? [...keys, 'metro manila', 'mm'] : keys;
}

function push<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/** A barangay as its city's text lists it (`name|former name`). */
const barangayOf = (listed: string, city: City): Barangay => ({
  name: nameOf(listed),
  keys: keysOf(listed),
  city,
});

/** The official name of a place as listed, before its former names. */
const nameOf = (listed: string) => listed.split('|')[0] as string;

/** A city's barangays as listed, in the list's order. */
const listedIn = (text: string) => text.split('\t').filter((listed) => listed !== '');

/**
 * A city's barangays are made when asked for and kept only for the few cities asked for last: the
 * keystrokes of one form ask for the same city again and again, and all 42,000 kept took most of the
 * bot's memory.
 */
const RECENT_CITIES = 8;

/**
 * Places checked are remembered by what was typed, for the places checked last: a team's forms name the
 * same sender's place again and again, and checking one took a tenth of a quote submission's CPU before
 * its ack (npm run bench).
 */
const PLACES_REMEMBERED = 100;

/**
 * The places, and maps from every province and city key to what it names. The 42,000 barangays stay
 * as the file gives them, one text per city, and are made into objects only when asked for (a city's
 * barangays, a search's results): an object per barangay held for the bot's life took most of its memory.
 */
export class PlaceIndex {
  readonly source: string;
  readonly release: string;
  readonly provinces: Province[];
  readonly cities: City[];
  private readonly provincesByKey = new Map<string, Province[]>();
  private readonly citiesByKey = new Map<string, City[]>();
  private postalByCity: Map<City, Set<string>> | undefined;
  private readonly postal: PlaceFile['postal'];
  private readonly prefixes = new Map<PlaceLevel, PrefixIndex>();
  /** Every barangay by number, in the list's order: its city, and where it starts in that city's text. */
  private numbered: { cityOf: Uint16Array; startOf: Uint32Array } | undefined;

  /** Per city, its barangays as the file lists them. */
  private readonly barangayTexts: string[];
  /** checkPlace's and officialPlace's answers for the places asked about last, by their parts as typed. */
  readonly problemsFound = new Recent<string, readonly PlaceProblem[]>(PLACES_REMEMBERED);
  readonly officialParts = new Recent<string, OfficialParts>(PLACES_REMEMBERED);

  constructor(file: PlaceFile) {
    this.barangayTexts = file.barangays;
    this.source = file.source;
    this.release = file.release;
    this.postal = file.postal;
    this.provinces = file.provinces.map(([names, region]) => ({
      name: nameOf(names),
      keys: keysOf(names),
      region: file.regions[region] as string,
      cities: [],
    }));
    for (const province of this.provinces) {
      for (const key of [...province.keys, ...regionKeys(province.region)])
        push(this.provincesByKey, key, province);
    }
    const texts = this.barangayTexts;
    const recent = new Recent<City, Barangay[]>(RECENT_CITIES);
    this.cities = file.cities.map(([names, index], cityIndex) => {
      const province = this.provinces[index] as Province;
      const keys = keysOf(names);
      const city: City = {
        name: nameOf(names),
        keys: [...new Set([...keys, ...keys.map(withoutCity)])],
        province,
        districts: [],
        get barangays() {
          return recent.get(city, () =>
            listedIn(texts[cityIndex] as string).map((listed) => barangayOf(listed, city)),
          );
        },
      };
      province.cities.push(city);
      for (const key of city.keys) push(this.citiesByKey, key, city);
      return city;
    });
    for (const { city: name, abbreviations, districts } of EVERYDAY) {
      const city = this.citiesByKey.get(placeKey(name))?.[0] as City;
      city.districts = districts.map((district) => ({ name: district, keys: [placeKey(district)], city }));
      const added = abbreviations
        .map(placeKey)
        .concat(city.districts.flatMap(({ keys }) => keys).filter((key) => !this.citiesByKey.has(key)));
      city.keys.push(...added);
      for (const key of added) push(this.citiesByKey, key, city);
    }
  }

  /** The provinces a province field names: one, or every province of a region. */
  provincesNamed(text: string): Province[] {
    return this.provincesByKey.get(placeKey(text)) ?? [];
  }

  /** The cities a city field names, anywhere: `Quezon City` exactly before any Quezon. */
  citiesNamed(text: string): City[] {
    const key = placeKey(text);
    return this.citiesByKey.get(key) ?? this.citiesByKey.get(withoutCity(key)) ?? [];
  }

  /**
   * A city's postal codes, when PHLPost's list has any: Metro Manila's by city (its areas each have
   * their own code), the others' by city within their province.
   */
  postalCodes(city: City): ReadonlySet<string> | undefined {
    if (!this.postalByCity) {
      this.postalByCity = new Map();
      for (const [where, area, code] of this.postal) {
        const metro = this.provincesNamed('Metro Manila');
        const inMetro = this.citiesNamed(where.replace(/\(.*\)/, '')).filter((c) =>
          metro.includes(c.province),
        );
        const provinces = this.provincesNamed(where);
        const cities =
          inMetro.length > 0 ? inMetro : this.citiesNamed(area).filter((c) => provinces.includes(c.province));
        if (cities.length !== 1) continue;
        const codes = this.postalByCity.get(cities[0] as City) ?? new Set();
        this.postalByCity.set(cities[0] as City, codes.add(code));
      }
    }
    return this.postalByCity.get(city);
  }

  /** Barangay number `id` as its city's text lists it. */
  private listedAt(id: number): string {
    const { cityOf, startOf } = this.barangayNumbers();
    const text = this.barangayTexts[cityOf[id] as number] as string;
    const start = startOf[id] as number;
    const end = text.indexOf('\t', start);
    return text.slice(start, end === -1 ? text.length : end);
  }

  /** Every barangay numbered, the first time a search spans them all: two small typed arrays. */
  private barangayNumbers() {
    if (!this.numbered) {
      const texts = this.barangayTexts;
      let count = 0;
      for (const text of texts) count += listedIn(text).length;
      const cityOf = new Uint16Array(count);
      const startOf = new Uint32Array(count);
      let id = 0;
      texts.forEach((text, city) => {
        for (let start = 0; start < text.length; ) {
          const end = text.indexOf('\t', start) >>> 0;
          if (end > start) {
            cityOf[id] = city;
            startOf[id++] = start;
          }
          start = Math.min(end, text.length) + 1;
        }
      });
      this.numbered = { cityOf, startOf };
    }
    return this.numbered;
  }

  /** Every province, city or barangay by the words of its names, built the first time a level is searched whole. */
  prefixIndex(level: PlaceLevel): PrefixIndex {
    let built = this.prefixes.get(level);
    if (!built) {
      if (level === 'province') {
        // A province is also found by its region, as the province field reads it (`NCR`, `Region VII`).
        const { provinces } = this;
        built = new PrefixIndex(
          provinces.length,
          (id) => {
            const province = provinces[id] as Province;
            return [...province.keys, ...regionKeys(province.region)];
          },
          (id) => provinces[id] as Province,
        );
      } else if (level === 'city') {
        const { cities } = this;
        built = new PrefixIndex(
          cities.length,
          (id) => (cities[id] as City).keys,
          (id) => cities[id] as City,
        );
      } else {
        const { cityOf } = this.barangayNumbers();
        built = new PrefixIndex(
          cityOf.length,
          (id) => keysOf(this.listedAt(id)),
          (id) => barangayOf(this.listedAt(id), this.cities[cityOf[id] as number] as City),
          (id) => nameOf(this.listedAt(id)),
        );
      }
      this.prefixes.set(level, built);
    }
    return built;
  }

  /** The barangays of that name, anywhere (the country-wide index built the first time). */
  barangaysNamed(text: string): Barangay[] {
    return this.prefixIndex('barangay').named(placeKey(text)) as Barangay[];
  }
}

let loaded: PlaceIndex | undefined;

/** The place index, read from disk the first time a place is checked, not at start-up. */
export function places(): PlaceIndex {
  loaded ??= new PlaceIndex(JSON.parse(readFileSync(placesPath, 'utf8')) as PlaceFile);
  return loaded;
}

/** Edit distance with adjacent letters swapped counting once (Damerau), stopped once over `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The places whose names are nearest to `text`: a name it begins, or one within a few typing
 * mistakes (a third of its letters at most, unless `anyDistance`), closest first, at most `count`.
 */
export function nearest<T extends Named>(
  text: string,
  among: readonly T[],
  count = 3,
  anyDistance = false,
): T[] {
  const key = placeKey(text);
  const limit = anyDistance ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(key.length / 3));
  const scored: { place: T; score: number }[] = [];
  for (const place of among) {
    let score = limit + 1;
    for (const candidate of place.keys) {
      score = Math.min(
        score,
        candidate.startsWith(key) && key.length >= 3 ? 0.5 : distance(key, candidate, limit),
      );
    }
    if (score <= limit) scored.push({ place, score });
  }
  scored.sort((a, b) => a.score - b.score || a.place.name.localeCompare(b.place.name));
  return [...new Map(scored.map(({ place }) => [place.name, place])).values()].slice(0, count);
}

/** Where a city is, as a dispatcher reads it: `City of Cebu, Cebu`. */
export const cityPlace = (city: City) => `${city.name}, ${city.province.name}`;
/** A city in a list of them: `City of Cebu (Cebu)`. */
const cityInList = (city: City) => `${city.name} (${city.province.name})`;

/**
 * The address parts the list knows, in the Booking schema's names. The barangay has one field on every
 * surface; the district (a village or district inside it, `Legazpi Village`, `Diliman`) is free text.
 */
export interface PlaceParts {
  region: string;
  city: string;
  barangay: string;
}
/** What is wrong with one part, to follow the field's label; the nearest matches already in the words. */
export interface PlaceProblem {
  readonly field: keyof PlaceParts;
  readonly problem: string;
}

const quoted = (text: string) => `"${text.trim()}"`;
const offering = (names: string[]) => (names.length === 0 ? '' : `; nearest: ${names.join(', ')}`);
const cityList = (cities: City[]) => cities.slice(0, 3).map(cityPlace).join(' or ');

/**
 * Whether a Philippine address's province, city and barangay fit together on the official list. Empty
 * parts are not checked (which are required is the schema's rule); a part is checked against the part
 * above it only when that one was found, so a dispatcher sees the first thing to fix with what would fit.
 */
export function checkPlace(parts: PlaceParts, index = places()): readonly PlaceProblem[] {
  const typed = JSON.stringify([parts.region, parts.city, parts.barangay]);
  return index.problemsFound.get(typed, () => problemsOf(parts, index));
}

function problemsOf(parts: PlaceParts, index: PlaceIndex): PlaceProblem[] {
  const region = parts.region.trim();
  const cityText = parts.city.trim();
  let provinces: Province[] | undefined;
  if (region !== '') {
    provinces = index.provincesNamed(region);
    if (provinces.length === 0) {
      const near = nearest(region, index.provinces).map((province) => province.name);
      return [
        {
          field: 'region',
          problem: `${quoted(region)} is not a province or region of the Philippines${offering(near)}`,
        },
      ];
    }
  }
  if (cityText === '') return [];
  const named = index.citiesNamed(cityText);
  const cities = provinces ? named.filter((city) => provinces.includes(city.province)) : named;
  if (cities.length === 0) {
    if (named.length > 0) {
      return [
        { field: 'city', problem: `${quoted(cityText)} is not in ${region}: there is ${cityList(named)}` },
      ];
    }
    const scope = provinces ? provinces.flatMap((province) => province.cities) : index.cities;
    const near = nearest(cityText, scope).map(cityInList);
    const within = provinces ? ` in ${region}` : ' in the Philippines';
    return [
      {
        field: 'city',
        problem: `${quoted(cityText)} is not a city or municipality${within}${offering(near)}`,
      },
    ];
  }
  const field = 'barangay';
  const barangayText = parts.barangay.trim();
  if (barangayText === '') return [];
  const barangays = cities.flatMap((city) => city.barangays);
  const key = placeKey(barangayText);
  if (barangays.some((barangay) => barangay.keys.includes(key)) || districtOf(cities, key)) return [];
  const elsewhere = index.barangaysNamed(barangayText);
  const cityName = cities.length === 1 ? (cities[0] as City).name : cityText;
  if (elsewhere.length > 0) {
    const where = `${(elsewhere[0] as Barangay).name} is in ${cityList(elsewhere.map((barangay) => barangay.city))}`;
    return [
      {
        field,
        problem: `${quoted(barangayText)} is not a barangay of ${cityName}: ${where}`,
      },
    ];
  }
  const near = nearest(barangayText, barangays).map((barangay) => barangay.name);
  return [
    {
      field,
      problem: `${quoted(barangayText)} is not a barangay of ${cityName}${offering(near)}`,
    },
  ];
}

/** The one of `cities` that has a district of that key (`EVERYDAY`). */
const districtOf = (cities: City[], key: string) =>
  cities.find((city) => city.districts.some((district) => district.keys.includes(key)));

/**
 * A Philippine address with each part the list names by its official name, as the booking keeps it:
 * `Paranaque` is `City of Parañaque`. A part not found alone keeps what was typed, and so do the parts
 * below it. A district written as the city or the barangay (`Cubao`, Manila's `Sampaloc`) moves to an
 * empty district field, its city named.
 */
export function officialPlace<P extends OfficialParts>(parts: P, index = places()): P {
  const { region, city, barangay, district } = parts;
  const typed = JSON.stringify([region, city, barangay, district]);
  return {
    ...parts,
    ...index.officialParts.get(typed, () => officialOf({ region, city, barangay, district }, index)),
  };
}

type OfficialParts = PlaceParts & { district: string };

function officialOf(parts: OfficialParts, index: PlaceIndex): OfficialParts {
  const official = { ...parts };
  const provinces = parts.region.trim() === '' ? undefined : index.provincesNamed(parts.region);
  if (provinces?.length === 1) official.region = (provinces[0] as Province).name;
  const named = index.citiesNamed(parts.city);
  const cities = provinces ? named.filter((city) => provinces.includes(city.province)) : named;
  if (cities.length !== 1) return official;
  const city = cities[0] as City;
  const toDistrict = (text: string) => {
    if (official.district.trim() !== '' || !districtOf([city], placeKey(text))) return false;
    official.district = text.trim();
    return true;
  };
  if (provinces) official.region = city.province.name;
  toDistrict(parts.city);
  official.city = city.name;
  const key = placeKey(parts.barangay);
  const barangays = new Set(city.barangays.filter((b) => b.keys.includes(key)).map((b) => b.name));
  if (barangays.size === 1) official.barangay = [...barangays][0] as string;
  else if (key !== '' && toDistrict(parts.barangay)) official.barangay = '';
  return official;
}

/**
 * A postal code that is not one of its city's, for the review: a warning, not a refusal, since PHLPost's
 * list is not the official place list and a code may be newer than it. Said only of a city found alone.
 */
export function postalWarning(parts: PlaceParts & { postal: string }, index = places()): string | undefined {
  const postal = parts.postal.trim();
  if (postal === '' || parts.city.trim() === '' || checkPlace(parts, index).length > 0) return undefined;
  const named = index.citiesNamed(parts.city);
  const provinces = parts.region.trim() === '' ? undefined : index.provincesNamed(parts.region);
  const cities = provinces ? named.filter((city) => provinces.includes(city.province)) : named;
  const codes = cities.length === 1 ? index.postalCodes(cities[0] as City) : undefined;
  if (!codes || codes.has(postal)) return undefined;
  const listed = [...codes].sort();
  const shown = listed.length > 6 ? `${listed.slice(0, 6).join(', ')}…` : listed.join(', ');
  return `${quoted(postal)} is not a postal code of ${cityPlace(cities[0] as City)} (${shown})`;
}

/** How a place's name matches what was typed: 0 its name begins so, 1 a former name, 2 a later word. */
function matchRank(place: Named, key: string): number | undefined {
  let best: number | undefined;
  place.keys.forEach((candidate, i) => {
    const rank = candidate.startsWith(key)
      ? i === 0
        ? 0
        : 1
      : candidate.includes(` ${key}`)
        ? 2
        : undefined;
    if (rank !== undefined && (best === undefined || rank < best)) best = rank;
  });
  return best;
}

const byName = (a: Named, b: Named) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The character that ends each key in a PrefixIndex's text: below every character of a key, as an end is. */
const END = 10;

/**
 * Every place of a level by each word its keys begin with, sorted, so that what was typed is found by
 * binary search and read off in order: scanning and sorting all 42,000 barangays at every key typed
 * takes too long on a busy machine. Kept compact: every key once in one text, and per word only where
 * it starts there, whose place it is and its rank, in typed arrays; places are made only for results.
 */
class PrefixIndex {
  /** Every key of every place, each ended by END. */
  private readonly text: string;
  /** Per entry, sorted by word: where its word starts in `text`, its place's number, matchRank's rank. */
  private readonly starts: Uint32Array;
  private readonly owners: Uint32Array;
  private readonly ranks: Uint8Array;
  /** Per place, how many places have its name. */
  private readonly sameName: Uint16Array;

  constructor(
    size: number,
    keysAt: (id: number) => readonly string[],
    private readonly placeAt: (id: number) => Named,
    private readonly nameAt: (id: number) => string = (id) => placeAt(id).name,
  ) {
    // Each word once with its entries in the order met, the words alone sorted: the same order as a
    // stable sort of every entry, in a fraction of the time (fewer to sort, no comparing in JavaScript).
    const byWord = new Map<string, number[]>();
    const starts: number[] = [];
    const owners: number[] = [];
    const ranks: number[] = [];
    const keys: string[] = [];
    let length = 0;
    const named = new Map<string, number>();
    const add = (word: string, start: number, id: number, rank: number) => {
      const entry = starts.push(start) - 1;
      owners.push(id);
      ranks.push(rank);
      const entries = byWord.get(word);
      if (entries) entries.push(entry);
      else byWord.set(word, [entry]);
    };
    for (let id = 0; id < size; id++) {
      const name = nameAt(id);
      named.set(name, (named.get(name) ?? 0) + 1);
      keysAt(id).forEach((key, i) => {
        add(key, length, id, i === 0 ? 0 : 1);
        for (let at = key.indexOf(' '); at !== -1; at = key.indexOf(' ', at + 1))
          add(key.slice(at + 1), length + at + 1, id, 2);
        keys.push(key);
        length += key.length + 1;
      });
    }
    this.sameName = Uint16Array.from({ length: size }, (_, id) => named.get(nameAt(id)) ?? 1);
    this.text = `${keys.join(String.fromCharCode(END))}${String.fromCharCode(END)}`;
    this.starts = new Uint32Array(starts.length);
    this.owners = new Uint32Array(starts.length);
    this.ranks = new Uint8Array(starts.length);
    let at = 0;
    // The default sort compares by UTF-16 code units, as compare() does.
    for (const word of [...byWord.keys()].sort()) {
      for (const entry of byWord.get(word) as number[]) {
        this.starts[at] = starts[entry] as number;
        this.owners[at] = owners[entry] as number;
        this.ranks[at++] = ranks[entry] as number;
      }
    }
  }

  /** Entry `i`'s word against `key`: below 0 if it sorts before, 0 if it begins with `key`, above 0 after. */
  private compare(i: number, key: string): number {
    let at = this.starts[i] as number;
    for (let j = 0; j < key.length; j++, at++) {
      const difference = this.text.charCodeAt(at) - key.charCodeAt(j);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  /** Whether entry `i`'s word is `key` itself (it begins with it). */
  private isWhole(i: number, key: string): boolean {
    return this.text.charCodeAt((this.starts[i] as number) + key.length) === END;
  }

  /** The first entry whose word does not sort before `key`. */
  private first(key: string): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(middle, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The places one of whose names or former names is `key`, in the list's order. */
  named(key: string): Named[] {
    const found = new Set<number>();
    if (key === '') return [];
    for (let i = this.first(key); i < this.starts.length && this.compare(i, key) === 0; i++) {
      if (this.isWhole(i, key) && (this.ranks[i] as number) < 2) found.add(this.owners[i] as number);
    }
    return [...found].map(this.placeAt);
  }

  /**
   * The first `limit` names a word of which begins with `key`, by matchRank's ranks and then by key,
   * each with one place of that name and how many there are.
   */
  find(key: string, limit: number): { place: Named; count: number }[] {
    const taken = new Map<string, number>();
    const take = (id: number) => {
      const name = this.nameAt(id);
      if (!taken.has(name)) taken.set(name, id);
    };
    // An empty key begins every word: the whole level by key, each place by its name (rank 0).
    const low = this.first(key);
    for (let rank = 0; rank <= (key === '' ? 0 : 2); rank++) {
      for (let i = low; i < this.starts.length && taken.size < limit; i++) {
        if (this.compare(i, key) !== 0) break;
        if (this.ranks[i] === rank) take(this.owners[i] as number);
      }
    }
    return [...taken.values()].map((id) => ({ place: this.placeAt(id), count: this.sameName[id] as number }));
  }
}

/** How many names the type-ahead offers when none is within a few typing mistakes of what was typed. */
const NEAREST_ANY = 5;

/** The parts of an address the type-ahead offers from the list, broadest first. */
export type PlaceLevel = 'province' | 'city' | 'barangay';

/** One name offered: the official name (as the courier gets it), and where it is. */
export interface PlaceSuggestion {
  name: string;
  /** The part above, or how many there are of that name when the part above was not chosen. */
  where: string;
}

/**
 * Official names for a type-ahead at `level`, narrowed by the parts above it when they name a place
 * (`within`, as typed or chosen): the cities of the chosen province, the barangays of the chosen city.
 * Names beginning with what was typed come first, then former names, then names with a later word
 * beginning so, each alphabetically (a level's whole list: by the names written out, `Sto.` as
 * `santo`); when nothing in a narrowed list matches, its nearest by spelling. Places of one name are
 * offered once (the courier gets the name), saying how many there are.
 */
export function suggestPlaces(
  level: PlaceLevel,
  typed: string,
  within: { region?: string; city?: string } = {},
  limit = 100,
  index = places(),
): PlaceSuggestion[] {
  const region = within.region?.trim() ? index.provincesNamed(within.region) : [];
  let scope: readonly Named[] | undefined;
  let above: (place: Named) => string;
  if (level === 'province') {
    above = (place) => (place as Province).region;
  } else if (level === 'city') {
    if (region.length > 0) scope = region.flatMap((province) => province.cities);
    above = (place) => (place as City).province.name;
  } else {
    const named = within.city?.trim() ? index.citiesNamed(within.city) : [];
    const cities = region.length > 0 ? named.filter((city) => region.includes(city.province)) : named;
    // A city's districts are offered with its barangays: `cubao` in Quezon City, `sampaloc` in Manila.
    if (cities.length > 0) scope = cities.flatMap((city) => [...city.barangays, ...city.districts]);
    above = (place) => cityPlace((place as Barangay).city);
  }
  const key = placeKey(typed);
  const where = ({ place, count }: { place: Named; count: number }) => ({
    name: place.name,
    where: count === 1 ? above(place) : `${count} places of this name`,
  });
  if (!scope) return index.prefixIndex(level).find(key, limit).map(where);
  const found = new Map<Named, number>();
  for (const place of scope) {
    const rank = key === '' ? 0 : matchRank(place, key);
    if (rank !== undefined) found.set(place, rank);
  }
  // A misspelling, or a name from elsewhere: the narrowed list is short enough to measure every name
  // against it, and its nearest few are a way forward where none is within a few typing mistakes.
  if (found.size === 0 && key.length >= 3) {
    const near = nearest(typed, scope, limit);
    for (const place of near.length > 0 ? near : nearest(typed, scope, NEAREST_ANY, true))
      found.set(place, 3);
  }
  const ranked = [...found].sort(([a, rankA], [b, rankB]) => rankA - rankB || byName(a, b));
  const sameName = new Map<string, Named[]>();
  for (const [place] of ranked) {
    const same = sameName.get(place.name);
    if (same) same.push(place);
    else if (sameName.size < limit) sameName.set(place.name, [place]);
  }
  return [...sameName.values()].map((same) => where({ place: same[0] as Named, count: same.length }));
}
