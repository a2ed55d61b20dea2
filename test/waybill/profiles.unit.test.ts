/** Sender profiles: the file, its checks against the booking rules. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/settings-error.js';
import {
  exampleProfilesPath,
  loadSenderProfiles,
  parseSenderProfiles,
  senderProfiles,
} from '../../src/waybill/profiles.js';

const examplePath = fileURLToPath(new URL('../../src/waybill/sender-profiles.example.json', import.meta.url));
const WHERE = 'SENDER_PROFILES_FILE (profiles.json)';

type Raw = Record<string, unknown>;

function rawShipper(overrides: Raw = {}): Raw {
  return {
    name: 'Acme Trading',
    phone: '0917 000 0101',
    street: '100 Ayala Avenue',
    city: 'Makati',
    country: 'PH',
    ...overrides,
  };
}

function rawProfile(overrides: Raw = {}): Raw {
  return { id: 'acme', label: 'Acme – Makati', shipper: rawShipper(), ...overrides };
}

function parse(...profiles: unknown[]) {
  return parseSenderProfiles({ profiles }, WHERE);
}

/** The one line a bad file is refused with. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ConfigError');
}

function writeTemp(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'profiles-')), 'profiles.json');
  writeFileSync(path, content);
  return path;
}

describe('the shipped example', () => {
  it('loads, with three profiles and a separate return party for the warehouse', () => {
    const profiles = loadSenderProfiles(examplePath);
    expect(profiles.map((p) => p.id)).toEqual(['makati-office', 'pasig-warehouse', 'cebu-shop']);
    expect(profiles[0]?.shipper.latitude).toBe('14.5547');
    expect(profiles[0]?.returnTo).toBeUndefined();
    expect(profiles[1]?.returnTo?.city).toBe('Quezon City');
    expect(profiles[2]?.shipperCode).toBe('');
  });
});

describe('parseSenderProfiles', () => {
  it('defaults missing optional strings to empty text', () => {
    const [profile] = parse(rawProfile());
    expect(profile).toEqual({
      id: 'acme',
      label: 'Acme – Makati',
      shipperCode: '',
      operatorContactNumber: '',
      merchantName: '',
      warehouseName: '',
      shipper: {
        name: 'Acme Trading',
        phone: '0917 000 0101',
        email: '',
        street: '100 Ayala Avenue',
        region: '',
        city: 'Makati',
        district: '',
        barangay: '',
        postal: '',
        country: 'PH',
        latitude: '',
        longitude: '',
      },
    });
    expect(profile).not.toHaveProperty('returnTo');
  });

  it('upper-cases country codes and trims text', () => {
    const [profile] = parse(
      rawProfile({
        label: '  Acme  ',
        shipper: rawShipper({ country: 'ph', city: ' Makati ' }),
        returnTo: rawShipper({ name: 'Returns', country: 'ph' }),
      }),
    );
    expect(profile?.label).toBe('Acme');
    expect(profile?.shipper.country).toBe('PH');
    expect(profile?.shipper.city).toBe('Makati');
    expect(profile?.returnTo?.country).toBe('PH');
  });

  it('reads the barangay under its old key `neighbourhood` too, and the shipped example keeps it there', () => {
    const [profile] = parse(
      rawProfile({
        shipper: rawShipper({ neighbourhood: 'San Lorenzo', district: 'Legazpi Village' }),
        returnTo: rawShipper({ name: 'Returns', neighbourhood: 'Bel-Air' }),
      }),
    );
    expect(profile?.shipper).toMatchObject({ barangay: 'San Lorenzo', district: 'Legazpi Village' });
    expect(profile?.shipper).not.toHaveProperty('neighbourhood');
    expect(profile?.returnTo?.barangay).toBe('Bel-Air');
    expect(loadSenderProfiles(examplePath)[0]?.shipper).toMatchObject({
      barangay: 'San Lorenzo',
      district: 'Legazpi Village',
    });
  });

  it('keeps coordinates as decimal text, numbers included', () => {
    const [profile] = parse(
      rawProfile({ shipper: rawShipper({ latitude: 14.5547, longitude: ' 121.0244 ' }) }),
    );
    expect(profile?.shipper.latitude).toBe('14.5547');
    expect(profile?.shipper.longitude).toBe('121.0244');
  });

  it('treats a blank or null return party as "return to the sender"', () => {
    const [blank, nothing] = parse(
      rawProfile({ id: 'a', returnTo: { name: '', city: ' ' } }),
      rawProfile({ id: 'b', returnTo: null }),
    );
    expect(blank).not.toHaveProperty('returnTo');
    expect(nothing).not.toHaveProperty('returnTo');
  });

  it('refuses a bad sender phone with the domain message', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ phone: '12-34' }) })))).toBe(
      `${WHERE}: profile "acme": Sender phone has too few digits for a phone number in PH, e.g. 0917 123 4567 or (02) 8123 4567`,
    );
  });

  it('refuses a bad return phone and a bad operator contact number', () => {
    expect(refusal(() => parse(rawProfile({ returnTo: rawShipper({ phone: 'call me' }) })))).toBe(
      `${WHERE}: profile "acme": Return phone must be a phone number: digits, spaces and + - ( ) only`,
    );
    expect(refusal(() => parse(rawProfile({ operatorContactNumber: '123' })))).toMatch(
      /profile "acme": Operator contact number has too few digits for a phone number in PH/,
    );
  });

  it('refuses a bad country', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ country: 'PHL' }) })))).toBe(
      `${WHERE}: profile "acme": Sender country must be a two-letter country code, e.g. PH`,
    );
  });

  it('refuses a bad e-mail', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ email: 'acme@' }) })))).toBe(
      `${WHERE}: profile "acme": Sender e-mail must be an e-mail address like name@example.com`,
    );
  });

  it('refuses a latitude out of range, and half a coordinate pair', () => {
    const outOfRange = rawShipper({ latitude: '91', longitude: '121' });
    expect(refusal(() => parse(rawProfile({ shipper: outOfRange })))).toBe(
      `${WHERE}: profile "acme": Sender latitude must be a number between -90 and 90`,
    );
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ latitude: '14.5' }) })))).toBe(
      `${WHERE}: profile "acme": Sender longitude is required when the latitude is given`,
    );
  });

  it('refuses a sender missing what a booking requires, and a partial return party', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ city: '' }) })))).toBe(
      `${WHERE}: profile "acme": Sender city is required`,
    );
    expect(refusal(() => parse(rawProfile({ returnTo: { name: 'Returns desk' } })))).toMatch(
      /profile "acme": Return phone is required when a return party is given/,
    );
  });

  it('refuses text over the domain caps', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ name: 'x'.repeat(101) }) })))).toBe(
      `${WHERE}: profile "acme": Sender name must be at most 100 characters`,
    );
    expect(refusal(() => parse(rawProfile({ shipperCode: 'x'.repeat(51) })))).toBe(
      `${WHERE}: profile "acme": Shipper code must be at most 50 characters`,
    );
  });

  it('refuses a duplicate id', () => {
    expect(refusal(() => parse(rawProfile(), rawProfile({ label: 'Another' })))).toBe(
      `${WHERE}: profile "acme": id "acme" is used by an earlier profile; ids must be unique`,
    );
  });

  it('refuses a bad or missing id, naming the profile by position', () => {
    expect(refusal(() => parse(rawProfile({ id: 'Acme Office' })))).toBe(
      `${WHERE}: profile "Acme Office": id must be 1 to 40 lowercase letters, digits or dashes`,
    );
    expect(refusal(() => parse(rawProfile({ id: 'a' }), rawProfile({ id: undefined })))).toBe(
      `${WHERE}: profile "#2": id is required`,
    );
  });

  it('refuses a label over 75 characters, or none', () => {
    expect(refusal(() => parse(rawProfile({ label: 'x'.repeat(76) })))).toBe(
      `${WHERE}: profile "acme": Label must be at most 75 characters`,
    );
    expect(refusal(() => parse(rawProfile({ label: ' ' })))).toBe(
      `${WHERE}: profile "acme": Label is required`,
    );
  });

  it('refuses more than 100 profiles, and none', () => {
    const many = Array.from({ length: 101 }, (_, i) => rawProfile({ id: `p${i}` }));
    expect(refusal(() => parse(...many))).toBe(
      `${WHERE}: "profiles" may list at most 100 profiles (a Slack select's limit), not 101`,
    );
    expect(parse(...many.slice(0, 100))).toHaveLength(100);
    expect(refusal(() => parse())).toBe(`${WHERE}: "profiles" must list at least one profile`);
  });

  it('refuses unknown fields, so a misspelt name is not silently ignored', () => {
    expect(refusal(() => parse(rawProfile({ shipper: rawShipper({ postcode: '1223' }) })))).toBe(
      `${WHERE}: profile "acme": shipper has unknown field "postcode"`,
    );
    expect(refusal(() => parse(rawProfile({ colour: 'red' })))).toBe(
      `${WHERE}: profile "acme": a profile has unknown field "colour"`,
    );
  });

  it('refuses a file or profile that is not an object', () => {
    expect(refusal(() => parseSenderProfiles([], WHERE))).toBe(
      `${WHERE}: must be an object like { "profiles": [ … ] }, not a list`,
    );
    expect(refusal(() => parseSenderProfiles({}, WHERE))).toBe(`${WHERE}: must have a "profiles" list`);
    expect(refusal(() => parseSenderProfiles({ profiles: {} }, WHERE))).toBe(
      `${WHERE}: "profiles" must be a list, not an object`,
    );
    expect(refusal(() => parse('acme'))).toBe(
      `${WHERE}: profile "#1": a profile must be an object, not a string`,
    );
    expect(refusal(() => parse(rawProfile({ shipper: 'Acme' })))).toBe(
      `${WHERE}: profile "acme": shipper must be an object, not a string`,
    );
  });
});

describe('loadSenderProfiles', () => {
  it('refuses a missing file with one line naming the variable and the path', () => {
    const path = join(tmpdir(), 'no-such-dir-for-profiles', 'profiles.json');
    expect(refusal(() => loadSenderProfiles(path))).toMatch(
      new RegExp(`^SENDER_PROFILES_FILE \\(${path.replaceAll('.', '\\.')}\\) cannot be read: ENOENT`),
    );
  });

  it('refuses bad JSON with one line', () => {
    const path = writeTemp('{ "profiles": [\n  { "id": "acme", }\n] }');
    expect(refusal(() => loadSenderProfiles(path, 'PROFILES'))).toMatch(
      new RegExp(`^PROFILES \\(${path.replaceAll('.', '\\.')}\\) is not valid JSON: `),
    );
  });

  it('names the file in profile errors, and accepts a byte-order mark', () => {
    const path = writeTemp(`\uFEFF${JSON.stringify({ profiles: [rawProfile({ id: 'acme' })] })}`);
    expect(loadSenderProfiles(path)[0]?.id).toBe('acme');
    writeFileSync(
      path,
      JSON.stringify({ profiles: [rawProfile({ shipper: rawShipper({ country: 'X' }) })] }),
    );
    expect(refusal(() => loadSenderProfiles(path))).toBe(
      `SENDER_PROFILES_FILE (${path}): profile "acme": Sender country must be a two-letter country code, e.g. PH`,
    );
  });
});

describe('senderProfiles', () => {
  it('checks a configured file at once, and says a bad one then', () => {
    const path = writeTemp('{ "profiles": [] }');
    expect(() => senderProfiles('live', path)).toThrow(ConfigError);
    const good = senderProfiles(
      'live',
      writeTemp(JSON.stringify({ profiles: [rawProfile({ id: 'acme' })] })),
    );
    expect(good.any).toBe(true);
    expect(good.read().map((profile) => profile.id)).toEqual(['acme']);
  });

  it("has the sandbox's example, read when asked for, and none elsewhere without a file", () => {
    const sandbox = senderProfiles('sandbox', undefined);
    expect(sandbox.any).toBe(true);
    expect(sandbox.read()).toEqual(loadSenderProfiles(exampleProfilesPath));
    for (const env of ['test', 'live'] as const) {
      expect(senderProfiles(env, undefined).any).toBe(false);
      expect(senderProfiles(env, undefined).read()).toEqual([]);
    }
  });
});
