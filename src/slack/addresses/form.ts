/** The edit form of a saved party: its fields, and the domain's party schema around them. */
import { z } from 'zod';
import type { SavedParty } from '../../store/index.js';
import type { KnownParty } from '../../waybill/message-reader.js';
import type { Party, WaybillSchemas } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { partyFields } from '../kit/fields.js';
import { type FormField, perSettings, requiredPaths, setPath } from '../kit/forms.js';

/** The fields of a party, in the order a booking step shows them. */
const PARTY_KEYS = [
  'name',
  'phone',
  'email',
  'street',
  'region',
  'city',
  'district',
  'barangay',
  'postal',
  'country',
  'latitude',
  'longitude',
] as const satisfies readonly (keyof Party)[];

/**
 * The edit form: a booking party's fields under `party.`, checked by the domain's party schema
 * (wrapped, so its errors land on `party.name`, …).
 */
export const partyFormSpec = perSettings((schema: WaybillSchemas['party']) => {
  const fields: FormField[] = partyFields('shipper', { prefix: 'party' });
  const wrapped = z.object({ party: schema });
  return { fields, schema: wrapped, required: requiredPaths(wrapped, fields) };
});

export type PartyFormSpec = ReturnType<typeof partyFormSpec>;

/** The address book's party form, of this core's schema. */
export const partySpec = (core: Pick<Core, 'schemas'>) => partyFormSpec(core.schemas.party);

/**
 * A form's input with `party` (`consignee`, `shipper`, `returnTo`) replaced by a saved party's
 * details: all of them, so nothing typed for someone else stays, but only the fields the form has
 * (`paths`, e.g. a quote has no names, and no postal code for the return party).
 */
export function fillParty(
  input: Record<string, unknown>,
  party: string,
  saved: SavedParty,
  paths: ReadonlySet<string>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const key of PARTY_KEYS) {
    if (paths.has(`${party}.${key}`)) setPath(filled, key, saved[key] ?? '');
  }
  return { ...input, [party]: filled };
}

/** A saved party as the edit form's values. */
export function editValues(saved: SavedParty): Record<string, unknown> {
  return { party: Object.fromEntries(PARTY_KEYS.map((key) => [key, saved[key] ?? ''])) };
}

/** Saved parties as the message reader takes them: a name, and its text fields. */
export function knownParties(saved: readonly SavedParty[]): KnownParty[] {
  return saved.map((party) => ({
    name: party.name,
    details: Object.fromEntries(
      PARTY_KEYS.flatMap((key) => {
        const value = party[key];
        return key !== 'name' && typeof value === 'string' && value ? [[key, value]] : [];
      }),
    ),
  }));
}
