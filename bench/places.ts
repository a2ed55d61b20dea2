/**
 * The bench's place type-ahead (issue 30): the options the forms' province, city and barangay inputs
 * are answered with (src/slack/places/options.ts, from the view's state to the options), for every
 * barangay and city on the list. In memory: the store takes no part, so one figure holds for SQLite
 * and PostgreSQL alike.
 */

import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { externalSelect, plainText } from '../fakes/slack-requests.js';
import { placeOptions } from '../src/slack/places/options.js';
import { PlaceIndex, places, placesPath, suggestPlaces } from '../src/waybill/places.js';
import { type Summary, summarize, type TargetCheck } from './lib.js';

/** Issue 30's target: the type-ahead within 30 ms p99 over every barangay. */
const TARGET_P99_MS = 30;

export interface PlacesRow {
  what: string;
  summary: Summary;
}

export interface PlacesReport {
  /** The first lookup of each level in the process, country-wide: the list read from disk, each level's index built. */
  firstMs: number[];
  /** The V8 heap the list and every level's index hold once built (after a full collection), MB. */
  heapMB: number;
  rows: PlacesRow[];
}

/** A receiver's place inputs as the view's state holds them, with the province and city chosen. */
function stateOf(region: string, city: string) {
  return {
    'consignee.region': { value: externalSelect(region) },
    'consignee.city': { value: externalSelect(city) },
    'consignee.country': { value: plainText('PH') },
  };
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** What a dispatcher has typed: the first three letters of the name. */
const start = (name: string) => name.slice(0, 3);

/** The V8 heap in use after a full collection (`gc` exposed for the moment). */
function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/**
 * The heap a list of its own holds with every level's index built: the bot's is read already when
 * the acks' phases have picked their forms' places.
 */
function heldByAList(): number {
  const before = heapAfterCollection();
  const index = new PlaceIndex(JSON.parse(readFileSync(placesPath, 'utf8')));
  for (const level of ['province', 'city', 'barangay'] as const) suggestPlaces(level, 'san', {}, 100, index);
  index.barangaysNamed('Lahug');
  const held = heapAfterCollection() - before;
  // Still in use until here, so the collection above could not take it.
  if (index.cities.length === 0) throw new Error('the place list is empty');
  return Math.round((held / 1048576) * 10) / 10;
}

export function benchPlaces(): PlacesReport {
  const ask = (path: string, typed: string, state: ReturnType<typeof stateOf> | undefined) =>
    placeOptions(path, typed, state, 'refuse');
  const firstMs = ['consignee.region', 'consignee.city', 'consignee.barangay'].map((path) =>
    Math.round(time(() => ask(path, 'san', undefined))),
  );
  const heapMB = heldByAList();
  const cities = places().cities;
  const barangays = cities.flatMap((city) => city.barangays);
  const narrowed: number[] = [];
  const countryWide: number[] = [];
  for (const barangay of barangays) {
    const { city } = barangay;
    const state = stateOf(city.province.name, city.name);
    narrowed.push(time(() => ask('consignee.barangay', start(barangay.name), state)));
    countryWide.push(time(() => ask('consignee.barangay', start(barangay.name), undefined)));
  }
  const cityTimes = cities.map((city) =>
    time(() => ask('consignee.city', start(city.name), stateOf(city.province.name, ''))),
  );
  const provinceTimes = places().provinces.map((province) =>
    time(() => ask('consignee.region', start(province.name), undefined)),
  );
  return {
    firstMs,
    heapMB,
    rows: [
      { what: `every barangay (${barangays.length}), within its city`, summary: summarize(narrowed) },
      { what: `every barangay, no city chosen (country-wide)`, summary: summarize(countryWide) },
      { what: `every city (${cities.length}), within its province`, summary: summarize(cityTimes) },
      { what: `every province (${provinceTimes.length})`, summary: summarize(provinceTimes) },
    ],
  };
}

export function renderPlaces(report: PlacesReport): string[] {
  return [
    '',
    `Place type-ahead: the options for the first three letters of each name, in memory (the same on SQLite and PostgreSQL); first lookups (province, city, barangay) ${report.firstMs.join(', ')} ms; the list and its indexes hold ${report.heapMB} MB of heap`,
    ...report.rows.map(
      ({ what, summary: s }) => `  ${what}: p50 ${s.p50} / p99 ${s.p99} / max ${s.max} (${s.count})`,
    ),
  ];
}

export function placesTargets(report: PlacesReport | undefined): TargetCheck[] {
  if (!report) return [];
  const barangays = report.rows.slice(0, 2);
  const worst = Math.max(...barangays.map((row) => row.summary.p99 ?? Number.POSITIVE_INFINITY));
  return [
    {
      target: `place type-ahead p99 <= ${TARGET_P99_MS} ms over every barangay, either backend (in memory)`,
      figure: `${worst} ms`,
      met: worst <= TARGET_P99_MS,
    },
  ];
}
