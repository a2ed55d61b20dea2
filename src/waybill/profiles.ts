/** Sender profiles: the regular senders a booking can be pre-filled from, read and checked at start-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { envSettings, filePath, optionalSetting } from '../settings/env.js';
import { ConfigError } from '../settings-error.js';
import { defaultCatalog } from './catalog.js';
import { homePhone, isObject, text } from './fields.js';
import { createWaybillSchemas, isBlankParty, type Party } from './schemas.js';
import type { WaybillEnv } from './settings.js';

/**
 * Sender profiles: the few regular senders dispatchers book for, listed in a JSON file
 * (`{ "profiles": [ … ] }`). The booking form offers them in a select and pre-fills the sender
 * and the return party from the chosen one. The file is checked once, at start-up, against the
 * booking's own rules (the same schemas and cross-field checks), so a profile never pre-fills
 * something the booking would then refuse.
 */

export interface SenderProfile {
  /** Stable, [a-z0-9-]{1,40}, unique in the file. */
  id: string;
  /** Shown in the select, at most 75 characters. */
  label: string;
  /** '' if none. */
  shipperCode: string;
  /** '' if none. */
  operatorContactNumber: string;
  /** '' if none. */
  merchantName: string;
  /** '' if none. */
  warehouseName: string;
  /** The sender. */
  shipper: ProfileParty;
  /** Where undelivered goods go; absent = the sender. */
  returnTo?: ProfileParty;
}

/** A party's fields as text, exactly as a form would hold them (numbers as decimal text), so they pre-fill inputs. */
export type ProfileParty = Record<keyof Party, string>;

/** A Slack static select lists at most 100 options. */
export const MAX_SENDER_PROFILES = 100;

const ID_PATTERN = /^[a-z0-9-]{1,40}$/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Messages for the file's structure; field messages come from the domain's schemas. */
function structureError(what: string) {
  return (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      return `${what} has unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
    }
    if (issue.code === 'invalid_type') return `${what} must be an object, not ${describe(issue.input)}`;
    return undefined;
  };
}

/**
 * The file's schemas, built from the booking schema (the single source of truth: its field schemas
 * and its cross-field checks) each time a file is checked (a configured one at start-up, the
 * sandbox's example when first needed): ~850 zod schemas that the bot then no longer holds. Places
 * are checked where a profile is used, by the bot's own schema (WAYBILL_PLACE_CHECK): not here,
 * where a file written for warnings would otherwise stop the start.
 */
function profileSchemas() {
  const booking = createWaybillSchemas(defaultCatalog, { places: 'warn' }).booking;
  const bookingFields = booking.in.shape;
  /** Strict, so a misspelt field name ("postcode") is refused instead of silently ignored. */
  const shipper = z.strictObject(bookingFields.shipper.shape, { error: structureError('shipper') });
  const returnTo = z.strictObject(bookingFields.returnTo.unwrap().shape, {
    error: structureError('returnTo'),
  });
  const profile = z.strictObject(
    {
      id: z
        .string({ error: (issue) => (issue.input === undefined ? 'id is required' : 'id must be text') })
        .regex(ID_PATTERN, 'id must be 1 to 40 lowercase letters, digits or dashes'),
      label: text('Label', { max: 75, required: true }),
      shipperCode: bookingFields.shipperCode,
      // Required on a booking, but a profile may leave it to the dispatcher.
      operatorContactNumber: homePhone('Operator contact number'),
      merchantName: bookingFields.merchantName,
      warehouseName: bookingFields.warehouseName,
      shipper,
      returnTo: returnTo.nullish(),
    },
    { error: structureError('a profile') },
  );
  const file = z.object(
    {
      profiles: z.array(z.unknown(), {
        error: (issue) =>
          issue.input === undefined
            ? 'must have a "profiles" list'
            : `"profiles" must be a list, not ${describe(issue.input)}`,
      }),
    },
    { error: (issue) => `must be an object like { "profiles": [ … ] }, not ${describe(issue.input)}` },
  );
  /** The booking's cross-field rules on the parties (coordinate pairs, a usable return party). */
  const crossFieldProblem = (shipper: unknown, returnTo: unknown): string | undefined => {
    const result = booking.safeParse({ shipper, returnTo, consignee: {}, package: {} });
    if (result.success) return undefined;
    const issue = result.error.issues.find((i) => i.path[0] === 'shipper' || i.path[0] === 'returnTo');
    return issue?.message;
  };
  return { file, profile, shipper, crossFieldProblem };
}

type ParsedParty = z.output<ReturnType<typeof profileSchemas>['shipper']>;

/** The coordinate as typed (a JSON number as its decimal text); the domain has already accepted it. */
function coordinateText(raw: unknown): string {
  if (typeof raw === 'number') return String(raw);
  return typeof raw === 'string' ? raw.trim() : '';
}

function toProfileParty(party: ParsedParty, raw: Record<string, unknown>): ProfileParty {
  return {
    ...party,
    latitude: party.latitude === undefined ? '' : coordinateText(raw.latitude),
    longitude: party.longitude === undefined ? '' : coordinateText(raw.longitude),
  };
}

function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** A party of a profile written before the barangay had its name (`neighbourhood`), read the new way. */
function barangayNamed(party: unknown): unknown {
  if (!isObject(party) || !('neighbourhood' in party)) return party;
  const { neighbourhood, ...rest } = party;
  return { barangay: neighbourhood, ...rest };
}

function withBarangayNamed(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  return {
    ...raw,
    ...('shipper' in raw ? { shipper: barangayNamed(raw.shipper) } : {}),
    ...('returnTo' in raw ? { returnTo: barangayNamed(raw.returnTo) } : {}),
  };
}

function profileName(raw: unknown, index: number): string {
  const id = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).id : undefined;
  return typeof id === 'string' && id.trim() !== '' ? id : `#${index + 1}`;
}

/**
 * Checks parsed JSON against the profile rules. `where` starts every error line, e.g.
 * `SENDER_PROFILES_FILE (./profiles.json)`. Throws ConfigError with one line on the first problem:
 * `<where>: profile "<id or #position>": <message>`, positions counting from 1.
 */
export function parseSenderProfiles(json: unknown, where: string): SenderProfile[] {
  const fail = (message: string): never => {
    throw new ConfigError(oneLine(`${where}: ${message}`));
  };
  const schemas = profileSchemas();
  const file = schemas.file.safeParse(json);
  if (!file.success)
    return fail(file.error.issues[0]?.message ?? 'must be an object like { "profiles": [ … ] }');
  const rawProfiles = file.data.profiles;
  if (rawProfiles.length === 0) fail('"profiles" must list at least one profile');
  if (rawProfiles.length > MAX_SENDER_PROFILES) {
    fail(
      `"profiles" may list at most ${MAX_SENDER_PROFILES} profiles (a Slack select's limit), not ${rawProfiles.length}`,
    );
  }

  const seen = new Set<string>();
  return rawProfiles.map((written, index): SenderProfile => {
    const raw = withBarangayNamed(written);
    const name = profileName(raw, index);
    const refuse = (message: string): never => fail(`profile "${name}": ${message}`);
    const result = schemas.profile.safeParse(raw);
    if (!result.success) return refuse(result.error.issues[0]?.message ?? 'is not valid');
    const parsed = result.data;
    const rawProfile = raw as Record<string, unknown>;
    const rawShipper = rawProfile.shipper as Record<string, unknown>;
    const rawReturn = parsed.returnTo && !isBlankParty(parsed.returnTo) ? rawProfile.returnTo : undefined;
    const problem = schemas.crossFieldProblem(rawShipper, rawReturn);
    if (problem !== undefined) refuse(problem);
    if (seen.has(parsed.id)) refuse(`id "${parsed.id}" is used by an earlier profile; ids must be unique`);
    seen.add(parsed.id);

    const profile: SenderProfile = {
      id: parsed.id,
      label: parsed.label,
      shipperCode: parsed.shipperCode,
      operatorContactNumber: parsed.operatorContactNumber,
      merchantName: parsed.merchantName,
      warehouseName: parsed.warehouseName,
      shipper: toProfileParty(parsed.shipper, rawShipper),
    };
    if (parsed.returnTo && rawReturn !== undefined) {
      profile.returnTo = toProfileParty(parsed.returnTo, rawReturn as Record<string, unknown>);
    }
    return profile;
  });
}

/**
 * Profiles files already checked, by their text: checking runs the booking's schemas over every
 * profile, which a test run's many bots would otherwise do once each (production reads its file once).
 */
const checkedFiles = new Map<string, SenderProfile[]>();

/** Reads and checks the profiles file; any problem is a ConfigError of one line naming `variable` and `path`. */
export function loadSenderProfiles(path: string, variable = 'SENDER_PROFILES_FILE'): SenderProfile[] {
  const where = `${variable} (${path})`;
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(oneLine(`${where} cannot be read: ${(error as Error).message}`));
  }
  const checked = checkedFiles.get(source);
  if (checked) return checked;
  let json: unknown;
  try {
    json = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(oneLine(`${where} is not valid JSON: ${(error as Error).message}`));
  }
  const profiles = parseSenderProfiles(json, where);
  checkedFiles.set(source, profiles);
  return profiles;
}

/** The example profiles: a pleasant sandbox demo, never used against the real courier by default. */
export const exampleProfilesPath = fileURLToPath(new URL('./sender-profiles.example.json', import.meta.url));

/** The sender profiles, read when first needed; whether there are `any` is known without reading them. */
export interface SenderProfiles {
  any: boolean;
  read(): SenderProfile[];
}

/**
 * The profiles: a configured file is read and checked now, so a bad one stops the start; with none
 * configured, the sandbox's example is read when first needed (the tests check it; reading it builds
 * the booking's schemas once more, which a start need not wait for), and there are none otherwise.
 */
export function senderProfiles(env: WaybillEnv, file: string | undefined): SenderProfiles {
  if (file) return givenProfiles(loadSenderProfiles(file));
  if (env !== 'sandbox') return givenProfiles([]);
  let example: SenderProfile[] | undefined;
  return {
    any: true,
    read: () => {
      example ??= loadSenderProfiles(exampleProfilesPath);
      return example;
    },
  };
}

/** Profiles already read. */
export const givenProfiles = (profiles: SenderProfile[]): SenderProfiles => ({
  any: profiles.length > 0,
  read: () => profiles,
});

/**
 * A sender profile fills the sender, its codes and the return party; everything stays editable.
 * Merchant and operator number are only filled where nothing was typed yet.
 */
export function applyProfile(
  input: Record<string, unknown>,
  profile: SenderProfile,
): Record<string, unknown> {
  const typedOr = (current: unknown, value: string) =>
    typeof current === 'string' && current.trim() ? current : value;
  return {
    ...input,
    shipper: { ...profile.shipper },
    returnTo: profile.returnTo ? { ...profile.returnTo } : {},
    shipperCode: profile.shipperCode,
    merchantName: typedOr(input.merchantName, profile.merchantName),
    warehouseName: profile.warehouseName,
    operatorContactNumber: typedOr(input.operatorContactNumber, profile.operatorContactNumber),
  };
}

/** SENDER_PROFILES_FILE: unset, no profiles (the sandbox uses the shipped example). */
export const senderProfilesEnv = envSettings(
  z.object({ SENDER_PROFILES_FILE: optionalSetting(filePath()) }),
  (settings): { senderProfilesFile?: string } => ({ senderProfilesFile: settings.SENDER_PROFILES_FILE }),
);
