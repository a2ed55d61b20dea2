/**
 * What a core works out from its settings (the schemas, each form's fields and required set, the sender
 * profiles) is built once for those settings and shared by every core of them; a setting that differs,
 * or a profiles file whose text changed, gets its own.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBotConfig, loadWaybillConfig } from '../../../src/config.js';
import { partySpec } from '../../../src/slack/addresses/form.js';
import { bookingSpec } from '../../../src/slack/book/form.js';
import { quoteSpec } from '../../../src/slack/quote/form.js';
import { updateSpec } from '../../../src/slack/update/form.js';
import { exampleProfilesPath, loadSenderProfiles } from '../../../src/waybill/profiles.js';
import { waybillSchemas } from '../../../src/waybill/schemas.js';

type Env = Record<string, string>;

/** The parts of a core the forms read, from settings as the bot loads them (createCore's schemas). */
function coreOf(env: Env) {
  const waybill = loadWaybillConfig(env);
  return {
    waybill,
    schemas: waybillSchemas(waybill.catalog, waybill.placeCheck),
    bot: { maxParcels: loadBotConfig(env).maxParcels },
  };
}

const specs = (core: ReturnType<typeof coreOf>) => [
  bookingSpec(core),
  updateSpec(core),
  quoteSpec(core),
  partySpec(core),
];

describe('settings shared by cores', () => {
  it('gives cores loaded from the same settings the same schemas and forms', () => {
    const env = { WAYBILL_SERVICE_TYPES: 'EXPRESS=Express,ECONOMY=Economy', MAX_PARCELS: '5' };
    const [first, second] = [coreOf(env), coreOf(env)];
    expect(second.waybill.catalog).not.toBe(first.waybill.catalog);
    expect(second.schemas).toBe(first.schemas);
    for (const [index, spec] of specs(second).entries()) expect(spec).toBe(specs(first)[index]);
  });

  it.each<[string, Env, readonly number[]]>([
    // Which of the booking, update, quote and party forms are built anew: all four when the schemas are.
    ['the service types', { WAYBILL_SERVICE_TYPES: 'EXPRESS=Express,ECONOMY=Economy' }, [0, 1, 2, 3]],
    ['the place check', { WAYBILL_PLACE_CHECK: 'warn' }, [0, 1, 2, 3]],
    ['the time zone', { WAYBILL_TIMEZONE: 'Asia/Tokyo' }, [0, 1]],
    ['the parcel limit', { MAX_PARCELS: '3' }, [0]],
  ])('gives a core of other %s its own', (_setting, env, rebuilt) => {
    const plain = coreOf({});
    const other = coreOf(env);
    for (const [index, spec] of specs(other).entries()) {
      if (rebuilt.includes(index)) expect(spec).not.toBe(specs(plain)[index]);
      else expect(spec).toBe(specs(plain)[index]);
    }
    if (!('MAX_PARCELS' in env) && !('WAYBILL_TIMEZONE' in env))
      expect(other.schemas).not.toBe(plain.schemas);
    // What differs is what the forms show: fewer parcel rows required, other service types offered.
    if ('MAX_PARCELS' in env)
      expect(bookingSpec(other).required.size).toBeLessThan(bookingSpec(plain).required.size);
    if ('WAYBILL_SERVICE_TYPES' in env) {
      const options = quoteSpec(other)
        .sections.flatMap((s) => s.fields)
        .find((f) => f.path === 'serviceType')?.options;
      expect(options?.map((o) => o.value)).toEqual(['EXPRESS', 'ECONOMY']);
    }
  });

  it('checks a profiles file again only when its text changed', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'profiles-')), 'profiles.json');
    const example = readFileSync(exampleProfilesPath, 'utf8');
    writeFileSync(path, example);
    const first = loadSenderProfiles(path);
    expect(loadSenderProfiles(path)).toBe(first);
    writeFileSync(path, example.replace('"label": "', '"label": "Renamed '));
    const renamed = loadSenderProfiles(path);
    expect(renamed).not.toBe(first);
    expect(renamed[0]?.label).toMatch(/^Renamed /);
    writeFileSync(path, '{ "profiles": [] }');
    expect(() => loadSenderProfiles(path)).toThrow(/at least one profile/);
  });
});
